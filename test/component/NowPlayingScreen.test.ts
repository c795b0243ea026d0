import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { DEFAULT_SETTINGS } from '@shared/settings'
import NowPlayingScreen from '@renderer/components/now-playing/NowPlayingScreen.vue'
import { usePlayerStore } from '@renderer/stores/player'
import { useNowPlayingStore } from '@renderer/stores/now-playing'
import { audios, lastAudio, resolved, song } from './player-fakes'
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

type LyricFields = Partial<Record<'normal' | 'translation' | 'transliteration' | 'wordforword', string>>
const LYRIC: LyricFields = {
  normal: '[00:01.00]First line\n[00:05.00]Second line\n[00:09.00]Third line\n',
  translation: '[00:01.00]Première\n[00:05.20]Deuxième\n[00:09.00]Troisième\n',
  transliteration: '[00:01.00]fur-st\n[00:05.00]se-cond\n',
}
let lyric: LyricFields | undefined

async function mountView() {
  const pinia = createPinia()
  setActivePinia(pinia)
  const player = usePlayerStore(pinia)
  await player.playSongs([song(1)])
  await flushPromises()
  const screen = useNowPlayingStore(pinia)
  screen.show()
  const { wrapper, router } = await mountInDocument(NowPlayingScreen, pinia)
  return { wrapper, player, screen, router, audio: lastAudio() }
}
const lines = (wrapper: ReturnType<typeof mount>) => wrapper.findAll('[data-testid="lyrics-line"]')
const current = (wrapper: ReturnType<typeof mount>) =>
  wrapper.find('[data-testid="lyrics-line"][aria-current="true"]')

beforeEach(() => {
  document.body.innerHTML = ''
  localStorage.clear()
  audios.length = 0
  lyric = LYRIC
  invoke.mockReset()
  invoke.mockImplementation(async (channel: string) => {
    if (channel === 'settings:get') return DEFAULT_SETTINGS
    if (channel === 'player:resolve') return resolved(song(1), { lyric })
    return undefined
  })
})
afterEach(() => vi.restoreAllMocks())

enableAutoUnmount(afterEach)

describe('NowPlayingScreen lyrics', () => {
  it('shows the lines with their translation, and the current line follows the time', async () => {
    const { wrapper, audio } = await mountView()
    expect(lines(wrapper).map((l) => l.find('.text').text())).toEqual([
      'First line',
      'Second line',
      'Third line',
    ])
    expect(lines(wrapper)[1].text()).toContain('Deuxième')
    expect(current(wrapper).exists()).toBe(false)
    audio.advance(1.5)
    await flushPromises()
    expect(current(wrapper).text()).toContain('First line')
    audio.advance(6)
    await flushPromises()
    expect(current(wrapper).text()).toContain('Second line')
    audio.advance(4)
    await flushPromises()
    expect(current(wrapper).text()).toContain('First line')
  })

  it('seeks to a line when it is clicked', async () => {
    const { wrapper, audio } = await mountView()
    await lines(wrapper)[2].get('button').trigger('click')
    expect(audio.currentTime).toBe(9)
    await flushPromises()
    expect(current(wrapper).text()).toContain('Third line')
  })

  it('shifts the timing in 0.5 s steps for this song', async () => {
    const { wrapper, audio } = await mountView()
    audio.advance(5.2)
    await flushPromises()
    expect(current(wrapper).text()).toContain('Second line')
    await wrapper.get('[data-testid="lyrics-later"]').trigger('click')
    expect(wrapper.get('[data-testid="lyrics-offset"]').text()).toBe('+0.5 s')
    expect(current(wrapper).text()).toContain('First line')
    await lines(wrapper)[1].get('button').trigger('click')
    expect(audio.currentTime).toBe(5.5)
    await wrapper.get('[data-testid="lyrics-earlier"]').trigger('click')
    await wrapper.get('[data-testid="lyrics-earlier"]').trigger('click')
    expect(wrapper.get('[data-testid="lyrics-offset"]').text()).toBe('-0.5 s')
    await wrapper.get('[data-testid="lyrics-offset"]').trigger('click')
    expect(wrapper.get('[data-testid="lyrics-offset"]').text()).toBe('0.0 s')
  })

  it('toggles translation and transliteration, starting from the settings', async () => {
    const { wrapper } = await mountView()
    expect(wrapper.text()).toContain('Première')
    expect(wrapper.text()).not.toContain('fur-st')
    expect(wrapper.find('input[type="checkbox"]').exists()).toBe(false)
    const translation = wrapper.get('[data-testid="lyrics-translation"]')
    expect(translation.attributes('aria-pressed')).toBe('true')
    await translation.trigger('click')
    await wrapper.get('[data-testid="lyrics-transliteration"]').trigger('click')
    expect(translation.attributes('aria-pressed')).toBe('false')
    expect(wrapper.text()).not.toContain('Première')
    expect(wrapper.text()).toContain('fur-st')
  })

  it("moves to a line at its start, between the position's once-a-second moves", async () => {
    const { wrapper, audio } = await mountView()
    audio.advance(4.9)
    await flushPromises()
    expect(current(wrapper).text()).toContain('First line')
    // The clock passes the second line's start with no `timeupdate`: the line's own timer moves to it.
    audio.advance(5.05, false)
    await vi.waitFor(() => expect(current(wrapper).text()).toContain('Second line'), { timeout: 2000 })
  })

  it('says so when the song has no lyrics', async () => {
    lyric = undefined
    const { wrapper } = await mountView()
    expect(wrapper.get('[data-testid="lyrics-message"]').text()).toBe('This song has no lyrics.')
  })

  it('lights word-timed lyrics word by word, with no frame loop', async () => {
    lyric = { normal: '', wordforword: '[00:01.00](0)Hel(300)lo (600)world\n[00:04.00](0)Bye\n' }
    const raf = vi.spyOn(window, 'requestAnimationFrame')
    const { wrapper, player, audio } = await mountView()
    audio.advance(1.4)
    await flushPromises()
    const sung = () => wrapper.findAll('[data-testid="lyrics-word"].sung').map((w) => w.text())
    expect(sung()).toEqual(['Hel', 'lo'])
    audio.advance(1.7)
    await flushPromises()
    expect(sung()).toEqual(['Hel', 'lo', 'world'])
    player.pause()
    await flushPromises()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(sung()).toEqual(['Hel', 'lo', 'world'])
    expect(raf).not.toHaveBeenCalled()
  })

  it('runs no frame loop for lyrics without word timing', async () => {
    const raf = vi.spyOn(window, 'requestAnimationFrame')
    await mountView()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(raf).not.toHaveBeenCalled()
  })
})

describe('NowPlayingScreen lyrics scrolling', () => {
  it('stops following the song while the user scrolls, and follows again a few seconds later', async () => {
    const scrollTo = vi.fn()
    Object.defineProperty(HTMLElement.prototype, 'scrollTo', {
      value: scrollTo,
      configurable: true,
      writable: true,
    })
    const { wrapper, audio } = await mountView()
    audio.advance(1.5)
    await flushPromises()
    // A line change centres its line at once; following again after the user's scroll is smooth.
    expect(scrollTo).toHaveBeenLastCalledWith(expect.objectContaining({ behavior: 'auto' }))

    vi.useFakeTimers()
    await wrapper.get('[data-testid="lyrics-scroller"]').trigger('wheel')
    scrollTo.mockClear()
    audio.advance(6)
    await flushPromises()
    expect(current(wrapper).text()).toContain('Second line')
    expect(scrollTo).not.toHaveBeenCalled()
    vi.advanceTimersByTime(4000)
    expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ behavior: 'smooth' }))
    vi.useRealTimers()
  })
})

describe('NowPlayingScreen', () => {
  it('shows the large cover, the title, and the artists and album as links that close it', async () => {
    const { wrapper, screen, router } = await mountView()
    expect(wrapper.get('[data-testid="now-playing-cover"]').attributes('src')).toBe(
      'http://127.0.0.1/cover/1.png',
    )
    expect(wrapper.get('[data-testid="now-playing-title"]').text()).toBe('Song 1')
    const album = wrapper.get('[data-testid="now-playing-album"]')
    expect(album.text()).toBe('Album 1')
    expect(album.attributes('href')).toBe('/album/201?name=Album+1&artist=Artist+1')
    const artist = wrapper.get('[data-testid="now-playing-artist"]')
    expect(artist.text()).toBe('Artist 1')
    await artist.trigger('click')
    await flushPromises()
    expect(router.currentRoute.value.fullPath).toBe('/artist/101')
    expect(screen.open).toBe(false)
  })

  it('closes with the chevron, and with Esc, which closes an open queue first', async () => {
    const { wrapper, screen } = await mountView()
    expect(document.activeElement).toBe(wrapper.get('[data-testid="now-playing-close"]').element)
    await wrapper.get('[data-testid="now-playing-queue"]').trigger('click')
    expect(wrapper.find('#now-playing-queue').exists()).toBe(true)
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', cancelable: true }))
    await flushPromises()
    expect(wrapper.find('#now-playing-queue').exists()).toBe(false)
    expect(screen.open).toBe(true)
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', cancelable: true }))
    expect(screen.open).toBe(false)
    screen.show()
    await wrapper.get('[data-testid="now-playing-close"]').trigger('click')
    expect(screen.open).toBe(false)
  })

  it('has the controls: pause and play from the screen', async () => {
    const { wrapper, player } = await mountView()
    expect(player.playing).toBe(true)
    await wrapper.get('[data-testid="player-toggle"]').trigger('click')
    expect(player.playing).toBe(false)
    expect(wrapper.find('[data-testid="player-seek"]').exists()).toBe(true)
  })
})
