import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { effectScope } from 'vue'
import { DEFAULT_SETTINGS } from '@shared/settings'
import type { Settings } from '@shared/settings'
import { createAppI18n } from '@renderer/i18n'
import { usePlayerStore } from '@renderer/stores/player'
import { useSettingsStore } from '@renderer/stores/settings'
import { useWindowModeStore } from '@renderer/stores/window-mode'
import { useDesktopLyricsFeed } from '@renderer/composables/desktop-lyrics-feed'
import { startMediaIntegration } from '@renderer/services/player/media-session'
import DesktopLyricsApp from '@renderer/components/desktop-lyrics/DesktopLyricsApp.vue'
import MiniPlayer from '@renderer/components/mini-player/MiniPlayer.vue'
import SettingsListening from '@renderer/components/settings/SettingsListening.vue'
import { audios, lastAudio, resolved, song } from './player-fakes'

const invoke = vi.fn()
const listeners = new Map<string, (payload: unknown) => void>()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: (event: string, listener: (payload: unknown) => void) => {
    listeners.set(event, listener)
    return () => listeners.delete(event)
  },
}))
const PNG = 'data:image/png;base64,iVBORw0KGgo='
vi.mock('@renderer/services/cover-image', () => ({ coverPng: async () => PNG }))
vi.mock('@renderer/services/player/engine', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@renderer/services/player/engine')>()),
  createPlayerOutput: (await import('./player-fakes')).createFakeAudio,
}))

const LYRIC = {
  normal: '[00:01.00]First line\n[00:05.00]Second line\n[00:09.00]Third line\n',
  translation: '[00:01.00]Première\n[00:05.00]Deuxième\n[00:09.00]Troisième\n',
}
let settings: Settings

function calls(channel: string) {
  return invoke.mock.calls.filter(([name]) => name === channel).map(([, args]) => args)
}

beforeEach(() => {
  document.body.innerHTML = ''
  setActivePinia(createPinia())
  audios.length = 0
  listeners.clear()
  settings = structuredClone(DEFAULT_SETTINGS)
  invoke.mockReset()
  invoke.mockImplementation(async (channel: string, args: Record<string, unknown>) => {
    switch (channel) {
      case 'settings:get':
        return settings
      case 'settings:update':
        settings = {
          ...settings,
          ...args,
          lyrics: { ...settings.lyrics, ...(args.lyrics as object) },
        } as Settings
        return settings
      case 'player:resolve':
        return resolved(song(args.id as number), { lyric: LYRIC })
      case 'window:set-mini':
        return { mini: args.mini }
      case 'lyrics:current-line':
        return null
      default:
        return undefined
    }
  })
})
afterEach(() => vi.useRealTimers())
enableAutoUnmount(afterEach)

const plugins = () => [createAppI18n()]

describe('desktop lyrics feed', () => {
  it('sends the current line, its translation and the next line to main, once per line, only while on', async () => {
    const scope = effectScope()
    scope.run(() => useDesktopLyricsFeed())
    const player = usePlayerStore()
    await player.playSongs([song(1)])
    await flushPromises()
    lastAudio().advance(5.5)
    await flushPromises()
    expect(calls('lyrics:report-line')).toEqual([])

    await useSettingsStore().update({ lyrics: { desktop: true } })
    await flushPromises()
    expect(calls('lyrics:report-line').at(-1)).toEqual({
      current: 'Second line',
      translation: 'Deuxième',
      next: 'Third line',
    })
    const count = calls('lyrics:report-line').length
    lastAudio().advance(6)
    lastAudio().advance(7)
    await flushPromises()
    expect(calls('lyrics:report-line')).toHaveLength(count)
    lastAudio().advance(9.5)
    await flushPromises()
    expect(calls('lyrics:report-line').at(-1)).toEqual({
      current: 'Third line',
      translation: 'Troisième',
      next: '',
    })
    scope.stop()
  })
})

describe('DesktopLyricsApp', () => {
  it('shows the relayed line and the next in the chosen size and colour; unlocked it offers lock and hide', async () => {
    settings.lyrics = { ...settings.lyrics, desktop: true, desktopFontSize: 40, desktopColor: '#7ee0ff' }
    const wrapper = mount(DesktopLyricsApp, {
      attachTo: document.body,
      global: { plugins: [createPinia(), ...plugins()] },
    })
    await flushPromises()
    expect(document.documentElement.classList.contains('transparent-window')).toBe(true)
    listeners.get('lyrics:line')!({ current: 'First line', translation: 'Première', next: 'Second line' })
    await flushPromises()
    expect(wrapper.get('[data-testid="desktop-lyrics-current"]').text()).toBe('First line')
    expect(wrapper.get('[data-testid="desktop-lyrics-translation"]').text()).toBe('Première')
    expect(wrapper.get('[data-testid="desktop-lyrics-next"]').text()).toBe('Second line')
    const style = wrapper.get('[data-testid="desktop-lyrics"]').attributes('style')
    expect(style).toContain('--size: 40px')
    expect(style).toContain('--colour: #7ee0ff')
    await wrapper.get('[data-testid="desktop-lyrics-lock"]').trigger('click')
    await flushPromises()
    expect(calls('settings:update')).toContainEqual({ lyrics: { desktopLocked: true } })
    expect(wrapper.find('[data-testid="desktop-lyrics-lock"]').exists()).toBe(false)
    expect(wrapper.get('[data-testid="desktop-lyrics"]').attributes('data-locked')).toBe('true')
  })
})

describe('mini player', () => {
  it('shows the song and the controls, and asks main for the full window back', async () => {
    const pinia = createPinia()
    setActivePinia(pinia)
    const player = usePlayerStore(pinia)
    await player.playSongs([song(1), song(2)])
    await flushPromises()
    const mode = useWindowModeStore(pinia)
    await mode.setMini(true)
    expect(mode.mini).toBe(true)
    const wrapper = mount(MiniPlayer, { attachTo: document.body, global: { plugins: [pinia, ...plugins()] } })
    expect(wrapper.get('[data-testid="mini-player-title"]').text()).toBe('Song 1')
    expect(wrapper.get('[data-testid="mini-player-cover"]').attributes('src')).toBe(
      'http://127.0.0.1/cover/1.png',
    )
    await wrapper.get('[data-testid="player-next"]').trigger('click')
    await flushPromises()
    expect(wrapper.get('[data-testid="mini-player-title"]').text()).toBe('Song 2')
    await wrapper.get('[data-testid="mini-player-leave"]').trigger('click')
    await flushPromises()
    expect(calls('window:set-mini')).toEqual([{ mini: true }, { mini: false }])
    expect(mode.mini).toBe(false)
    // Main can switch it too (the mode event reaches every window).
    listeners.get('window:mode')!({ mini: true })
    expect(mode.mini).toBe(true)
  })
})

describe('track-change report', () => {
  it('tells main once per song that starts playing, with the cover address', async () => {
    const player = usePlayerStore()
    const stop = startMediaIntegration(player, { mediaSession: undefined })
    await player.playSongs([song(1), song(2)])
    await flushPromises()
    player.pause()
    await flushPromises()
    await player.play()
    await flushPromises()
    await player.next()
    await flushPromises()
    expect(calls('notify:track-changed')).toEqual([
      {
        id: 1,
        name: 'Song 1',
        artists: 'Artist 1',
        album: 'Album 1',
        cover: 'http://127.0.0.1/cover/1.png',
        coverImage: PNG,
      },
      {
        id: 2,
        name: 'Song 2',
        artists: 'Artist 2',
        album: 'Album 2',
        cover: 'http://127.0.0.1/cover/2.png',
        coverImage: PNG,
      },
    ])
    stop()
  })
})

describe('SettingsListening', () => {
  it('turns desktop lyrics on, locks them, picks a size and a colour, and turns the notification on', async () => {
    const pinia = createPinia()
    setActivePinia(pinia)
    await useSettingsStore(pinia).load()
    const wrapper = mount(SettingsListening, {
      attachTo: document.body,
      global: { plugins: [pinia, ...plugins()] },
    })
    expect(wrapper.find('[data-testid="settings-notify-track"]').element).toHaveProperty('checked', false)
    await wrapper.get('[data-testid="settings-desktop-lyrics"]').setValue(true)
    await wrapper.get('[data-testid="settings-desktop-lyrics-locked"]').setValue(true)
    const size = wrapper.get('[data-testid="settings-desktop-lyrics-size"]')
    ;(size.element as HTMLInputElement).value = '48'
    await size.trigger('change')
    await wrapper.get('[data-testid="settings-desktop-lyrics-colour-ffffff"]').trigger('click')
    await wrapper.get('[data-testid="settings-notify-track"]').setValue(true)
    await flushPromises()
    expect(calls('settings:update')).toEqual([
      { lyrics: { desktop: true } },
      { lyrics: { desktopLocked: true } },
      { lyrics: { desktopFontSize: 48 } },
      { lyrics: { desktopColor: '#ffffff' } },
      { notifyTrackChange: true },
    ])
    expect(
      wrapper.get('[data-testid="settings-desktop-lyrics-colour-ffffff"]').attributes('aria-checked'),
    ).toBe('true')
  })
})
