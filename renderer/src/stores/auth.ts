import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { AuthState, QrEvent } from '@shared/ipc/contract'
import type { CadenceError } from '@shared/errors'
import { invoke, on } from '@renderer/services/cadence'
import { onCaughtError, toCadenceError } from '@renderer/services/cadence-error'

/**
 * Who is signed in, from main (`auth:status`, then every `auth:changed`), the QR login's live state
 * (`auth:qr`), and whether the session has expired anywhere: an `expired` status or any `unauthorized`
 * error a store caught. The renderer never sees the credential itself.
 */
export const useAuthStore = defineStore('auth', () => {
  const state = shallowRef<AuthState>()
  const error = shallowRef<CadenceError>()
  const qr = shallowRef<QrEvent>({ phase: 'loading' })
  /** A request was refused as unauthorised since the last sign-in. */
  const refused = ref(false)
  /** Where to go back to after logging in. */
  const returnTo = ref<string>()

  const status = computed(() => state.value?.status ?? 'unknown')
  const user = computed(() => state.value?.user ?? null)
  const signedIn = computed(() => status.value === 'signed-in')
  const expired = computed(() => status.value === 'expired' || (refused.value && !signedIn.value))
  /** The active data source, as main last said. */
  const sourceId = computed(() => state.value?.sourceId)
  /** Changes whenever the data source or the user changes: views reload their data on it. */
  const sessionKey = computed(() => `${state.value?.sourceId ?? ''}:${user.value?.id ?? ''}`)

  function apply(next: AuthState) {
    const wasSignedIn = signedIn.value
    state.value = next
    if (next.status === 'signed-in') refused.value = false
    else if (wasSignedIn && next.status === 'signed-out') refused.value = false
  }

  let started = false
  const unsubscribers: Array<() => void> = []
  /** Called once by the app shell. */
  async function init() {
    if (started) return
    started = true
    unsubscribers.push(
      on('auth:changed', apply),
      on('auth:qr', (event) => (qr.value = event)),
      onCaughtError((e) => {
        if (e.kind === 'unauthorized') refused.value = true
      }),
    )
    await refresh()
  }
  async function refresh() {
    try {
      apply(await invoke('auth:status'))
      error.value = undefined
    } catch (cause) {
      error.value = toCadenceError(cause)
    }
  }
  function stop() {
    for (const off of unsubscribers.splice(0)) off()
    started = false
  }

  /** Starts the QR login; resolves to the error when main could not start it. */
  async function startQr(): Promise<CadenceError | undefined> {
    qr.value = { phase: 'loading' }
    try {
      await invoke('auth:start-qr')
      return undefined
    } catch (cause) {
      const e = toCadenceError(cause)
      qr.value = { phase: 'error', error: e.toPayload() }
      return e
    }
  }
  async function cancelQr() {
    try {
      await invoke('auth:cancel-qr')
    } catch (cause) {
      toCadenceError(cause)
    }
  }
  /** Opens the code's page in the default browser (a data source on this computer: no phone reaches it). */
  async function openQrPage(): Promise<CadenceError | undefined> {
    try {
      await invoke('auth:open-qr-page')
      return undefined
    } catch (cause) {
      return toCadenceError(cause)
    }
  }
  async function logout() {
    await invoke('auth:logout')
    await refresh()
  }

  return {
    state,
    error,
    qr,
    refused,
    returnTo,
    status,
    user,
    signedIn,
    expired,
    sessionKey,
    sourceId,
    init,
    refresh,
    stop,
    startQr,
    cancelQr,
    openQrPage,
    logout,
  }
})
