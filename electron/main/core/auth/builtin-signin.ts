import { DataSourceError } from '@shared/errors'
import type { ApiClient } from '../api/client'
import type { Timers } from '../ports'
import { realTimers } from '../ports'

/** The form token of the reference server's phone page (a POST must carry the one its page was served with). */
export function phoneFormToken(html: string): string | undefined {
  return /name="token" value="([A-Za-z0-9_-]{10,100})"/.exec(html)?.[1]
}

/**
 * Signs the local owner in to the built-in data source without a phone: the same QR flow, with main
 * playing the phone (GET `qrurl` marks it scanned and serves the form, POST `action=confirm` with the
 * form's token and the owner passphrase that main handed the data source authorises it). Only a `qrurl`
 * on the built-in source's own origin is ever followed. Resolves with the credential.
 */
export async function signInBuiltin(deps: {
  api: Pick<ApiClient, 'baseUrl' | 'qrKey' | 'qrCreate' | 'qrCheck'>
  /** The owner passphrase the built-in data source was started with. */
  passphrase: string
  fetch?: typeof fetch
  timers?: Timers
  /** Checks after confirming before giving up. */
  attempts?: number
  delayMs?: number
  timeoutMs?: number
}): Promise<string> {
  const doFetch = deps.fetch ?? globalThis.fetch
  const timers = deps.timers ?? realTimers
  const { unikey } = await deps.api.qrKey()
  const { qrurl } = await deps.api.qrCreate(unikey, false)
  const phone = new URL(qrurl, deps.api.baseUrl)
  if (phone.origin !== new URL(deps.api.baseUrl).origin) {
    throw new DataSourceError({
      kind: 'invalid-response',
      endpoint: '/connect/qr/create',
      message: 'The built-in data source sent a login page on another address',
    })
  }
  const page = async (init?: RequestInit): Promise<string> => {
    let response: Response
    let html: string
    try {
      response = await doFetch(phone, {
        ...init,
        redirect: 'error',
        signal: AbortSignal.timeout(deps.timeoutMs ?? 10_000),
      })
      html = await response.text()
    } catch (error) {
      throw new DataSourceError({
        kind: 'network',
        endpoint: '/connect/qr/phone',
        message: `The built-in data source's login page did not answer (${error instanceof Error ? error.message : String(error)})`,
      })
    }
    if (!response.ok) {
      throw new DataSourceError({
        kind: 'http',
        endpoint: '/connect/qr/phone',
        status: response.status,
        message: `The built-in data source refused the automatic sign-in (HTTP ${response.status})`,
      })
    }
    return html
  }
  const token = phoneFormToken(await page()) ?? ''
  await page({
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action: 'confirm', token, passphrase: deps.passphrase }).toString(),
  })
  const attempts = deps.attempts ?? 5
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const { status, cookie } = await deps.api.qrCheck(unikey)
    if ((status === 2 || status === 803) && cookie) return cookie
    if (status === -1 || status === 800) break
    await new Promise<void>((resolve) => timers.setTimeout(resolve, deps.delayMs ?? 200))
  }
  throw new DataSourceError({
    kind: 'api',
    endpoint: '/connect/qr/check',
    message: 'The built-in data source did not confirm the automatic sign-in',
  })
}
