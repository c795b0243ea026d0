import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import SettingsConnections from '@renderer/components/settings/SettingsConnections.vue'
import type { ScrobbleState } from '@shared/ipc/scrobble'
import { plugins } from './support'

const invoke = vi.fn()
const listeners = new Map<string, (payload: unknown) => void>()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: (event: string, listener: (payload: unknown) => void) => {
    listeners.set(event, listener)
    return () => listeners.delete(event)
  },
}))

const off = (): ScrobbleState => ({
  listenbrainz: { status: 'off', waiting: 0, server: 'https://api.listenbrainz.org' },
  lastfm: { status: 'off', waiting: 0 },
})
let state: ScrobbleState
let finishAnswers: string[]

describe('Settings → Connections', () => {
  beforeEach(() => {
    state = off()
    finishAnswers = ['not-yet', 'connected']
    invoke.mockReset()
    invoke.mockImplementation(async (channel: string) => {
      if (channel === 'scrobble:state') return state
      if (channel === 'scrobble:lastfm-begin') {
        state = { ...state, lastfm: { status: 'authorising', waiting: 0 } }
        listeners.get('scrobble:changed')?.(state)
        return 'opened'
      }
      if (channel === 'scrobble:lastfm-finish') {
        const answer = finishAnswers.shift()
        if (answer === 'connected') {
          state = { ...state, lastfm: { status: 'connected', user: 'rj', waiting: 0 } }
          listeners.get('scrobble:changed')?.(state)
        }
        return answer
      }
      if (channel === 'scrobble:disconnect') return (state = off())
      return undefined
    })
  })

  const mounted = async () => {
    const p = plugins()
    const wrapper = mount(SettingsConnections, { global: { plugins: [p.pinia, p.i18n, p.router] } })
    await flushPromises()
    return wrapper
  }
  const text = (wrapper: Awaited<ReturnType<typeof mounted>>, id: string) =>
    wrapper.get(`[data-testid="${id}"]`).text()

  it('signs in to Last.fm in two steps, says when Last.fm has not been allowed yet, and disconnects', async () => {
    const wrapper = await mounted()
    expect(text(wrapper, 'lastfm-status')).toBe('Off. Sign in with Last.fm to scrobble what you listen to.')
    await wrapper.get('[data-testid="lastfm-sign-in"]').trigger('click')
    await flushPromises()
    expect(text(wrapper, 'lastfm-status')).toBe(
      'Allow Cadence on the Last.fm page that opened in your browser, then press Done.',
    )
    await wrapper.get('[data-testid="lastfm-done"]').trigger('click')
    await flushPromises()
    expect(text(wrapper, 'lastfm-status')).toBe(
      'Last.fm says Cadence is not allowed yet. Allow it in the browser, then press Done.',
    )
    await wrapper.get('[data-testid="lastfm-done"]').trigger('click')
    await flushPromises()
    expect(text(wrapper, 'lastfm-status')).toBe('Connected as rj.')
    expect(wrapper.find('[data-testid="lastfm-sign-in"]').exists()).toBe(false)
    await wrapper.get('[data-testid="lastfm-disconnect"]').trigger('click')
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('scrobble:disconnect', { service: 'lastfm' })
    expect(text(wrapper, 'lastfm-status')).toBe('Off. Sign in with Last.fm to scrobble what you listen to.')
  })

  it('shows one plain line for what waits and why, kept up to date by scrobble:changed', async () => {
    state = { ...off(), listenbrainz: { status: 'connected', user: 'rob', waiting: 0, server: 'https://x' } }
    const wrapper = await mounted()
    expect(text(wrapper, 'listenbrainz-status')).toBe('Connected as rob.')
    listeners.get('scrobble:changed')?.({
      ...state,
      listenbrainz: { status: 'connected', user: 'rob', waiting: 3, problem: 'unreachable' },
    })
    await flushPromises()
    expect(text(wrapper, 'listenbrainz-status')).toBe(
      'Connected as rob. The service cannot be reached; 3 listens wait and will be sent later.',
    )
    listeners.get('scrobble:changed')?.({
      ...state,
      listenbrainz: { status: 'invalid', user: 'rob', waiting: 3 },
    })
    await flushPromises()
    expect(text(wrapper, 'listenbrainz-status')).toBe(
      'The token is no longer valid: paste a new one. Listens wait until then.',
    )
    expect(wrapper.find('[data-testid="listenbrainz-token"]').exists()).toBe(true)
  })

  it('says Last.fm is not available in a build without its key', async () => {
    state = { ...off(), lastfm: { status: 'unavailable', waiting: 0 } }
    const wrapper = await mounted()
    expect(text(wrapper, 'lastfm-status')).toBe('Not available in this build (it has no Last.fm API key).')
    expect(wrapper.find('[data-testid="lastfm-sign-in"]').exists()).toBe(false)
  })
})
