import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { DEFAULT_SETTINGS } from '@shared/settings'
import LyricsView from '@renderer/views/LyricsView.vue'
import { createAppI18n } from '@renderer/i18n'
import { usePlayerStore } from '@renderer/stores/player'
import { audios, lastAudio, resolved, song } from './player-fakes'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => undefined,
}))
vi.mock('@renderer/composables/player-audio', async () => {
  const fakes = await import('./player-fakes')
  return { createPlayerAudio: fakes.createFakeAudio }
})

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
  const player = usePlayerStore()
  await player.playSongs([song(1)])
  await flushPromises()
  const wrapper = mount(LyricsView, {
    attachTo: document.body,
    global: { plugins: [pinia, createAppI18n()] },
  })
  await flushPromises()
  return { wrapper, player, audio: lastAudio() }
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

describe('LyricsView', () => {
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
    await wrapper.get('[data-testid="lyrics-translation"]').setValue(false)
    await wrapper.get('[data-testid="lyrics-transliteration"]').setValue(true)
    expect(wrapper.text()).not.toContain('Première')
    expect(wrapper.text()).toContain('fur-st')
  })

  it('says so when the song has no lyrics', async () => {
    lyric = undefined
    const { wrapper } = await mountView()
    expect(wrapper.get('[data-testid="lyrics-message"]').text()).toBe('This song has no lyrics.')
  })

  it('lights word-timed lyrics word by word, with a frame loop only while playing', async () => {
    lyric = { normal: '', wordforword: '[00:01.00](0)Hel(300)lo (600)world\n[00:04.00](0)Bye\n' }
    const raf = vi.spyOn(window, 'requestAnimationFrame')
    const cancel = vi.spyOn(window, 'cancelAnimationFrame')
    const { wrapper, player, audio } = await mountView()
    expect(raf).toHaveBeenCalled()
    audio.advance(1.4)
    await flushPromises()
    await new Promise((resolve) => setTimeout(resolve, 50))
    const sung = () => wrapper.findAll('[data-testid="lyrics-word"].sung').map((w) => w.text())
    expect(sung()).toEqual(['Hel', 'lo'])
    player.pause()
    await flushPromises()
    expect(cancel).toHaveBeenCalled()
    raf.mockClear()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(raf).not.toHaveBeenCalled()
  })

  it('runs no frame loop for lyrics without word timing', async () => {
    const raf = vi.spyOn(window, 'requestAnimationFrame')
    await mountView()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(raf).not.toHaveBeenCalled()
  })
})
