import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { enableAutoUnmount, flushPromises } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { DEFAULT_SETTINGS } from '@shared/settings'
import NowPlayingScreen from '@renderer/components/now-playing/NowPlayingScreen.vue'
import { usePlayerStore } from '@renderer/stores/player'
import { useNowPlayingStore } from '@renderer/stores/now-playing'
import { resolved, song } from './player-fakes'
import { mountInDocument } from './support'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => undefined,
}))
vi.mock('@renderer/services/player/engine', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@renderer/services/player/engine')>()),
  createPlayerOutput: (await import('./player-fakes')).createFakeAudio,
}))

/**
 * Issue 36: a music folder's song whose only lyrics are an unsynced tag (USLT, Vorbis `LYRICS`) gets
 * them as plain text in `meta.lyric.normal`; now-playing shows them as they are, not "no lyrics".
 */
let normal = ''
async function mountView() {
  const pinia = createPinia()
  setActivePinia(pinia)
  const player = usePlayerStore(pinia)
  await player.playSongs([song(1)])
  await flushPromises()
  useNowPlayingStore(pinia).show()
  const { wrapper } = await mountInDocument(NowPlayingScreen, pinia)
  return wrapper
}

beforeEach(() => {
  document.body.innerHTML = ''
  localStorage.clear()
  invoke.mockReset()
  invoke.mockImplementation(async (channel: string) => {
    if (channel === 'settings:get') return { ...DEFAULT_SETTINGS, lrclib: 'off' }
    if (channel === 'player:resolve') return resolved(song(1), { lyric: { normal } })
    if (channel === 'auth:status') return { status: 'signed-out', user: null, sourceId: 'builtin' }
    return undefined
  })
})
afterEach(() => vi.restoreAllMocks())
enableAutoUnmount(afterEach)

describe('now-playing with unsynced lyrics of the song’s own source', () => {
  it('shows the plain lines', async () => {
    normal = 'uslt line one\nuslt line two'
    const wrapper = await mountView()
    const { useAuthStore } = await import('@renderer/stores/auth')
    await useAuthStore().refresh()
    await flushPromises()
    await vi.waitFor(() =>
      expect(wrapper.findAll('[data-testid="lrclib-plain"] p').map((p) => p.text())).toEqual([
        'uslt line one',
        'uslt line two',
      ]),
    )
    expect(wrapper.find('[data-testid="lyrics-message"]').exists()).toBe(false)
  })

  it('keeps timed lyrics in the synced view', async () => {
    normal = '[00:01.00]timed line\n'
    const wrapper = await mountView()
    await flushPromises()
    expect(wrapper.find('[data-testid="lrclib-plain"]').exists()).toBe(false)
    expect(wrapper.findAll('[data-testid="lyrics-line"]').map((l) => l.find('.text').text())).toEqual([
      'timed line',
    ])
  })
})
