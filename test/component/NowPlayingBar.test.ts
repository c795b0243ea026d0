import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createMemoryHistory, createRouter } from 'vue-router'
import { defineComponent, h } from 'vue'
import { DEFAULT_SETTINGS } from '@shared/settings'
import type { Song } from '@shared/api/models'
import NowPlayingBar from '@renderer/components/player/NowPlayingBar.vue'
import { createAppI18n } from '@renderer/i18n'
import { usePlayerStore } from '@renderer/stores/player'
import { usePlayerStartup } from '@renderer/composables/player-startup'
import { useLikesStore } from '@renderer/stores/likes'
import { useNotificationsStore } from '@renderer/stores/notifications'
import { useNowPlayingStore } from '@renderer/stores/now-playing'
import { CadenceError } from '@shared/errors'
import { audios, lastAudio, resolved, song } from './player-fakes'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => undefined,
}))
vi.mock('@renderer/services/player/engine', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@renderer/services/player/engine')>()),
  createPlayerOutput: (await import('./player-fakes')).createFakeAudio,
}))

const Empty = { render: () => h('div') }
/** The bar as the app shows it: the root component starts the player (keys, session, media integration). */
const AppWithBar = defineComponent({
  setup() {
    usePlayerStartup()
    return () => h(NowPlayingBar)
  },
})

/** Opens the queue panel (a lazy chunk: it shows once its module has loaded). */
async function openQueue(wrapper: Awaited<ReturnType<typeof mountBar>>['wrapper']) {
  await wrapper.get('[data-testid="player-queue"]').trigger('click')
  await vi.waitFor(() => expect(wrapper.find('[data-testid="queue-item"]').exists()).toBe(true), {
    timeout: 15_000,
  })
}

async function mountBar() {
  const pinia = createPinia()
  setActivePinia(pinia)
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [{ path: '/', name: 'home', component: Empty }],
  })
  await router.push('/')
  const wrapper = mount(AppWithBar, {
    attachTo: document.body,
    global: { plugins: [pinia, createAppI18n(), router] },
  })
  await flushPromises()
  return { wrapper, router, pinia, player: usePlayerStore(pinia) }
}

const catalogue = [1, 2, 3].map((id) => song(id))

beforeEach(() => {
  document.body.innerHTML = ''
  audios.length = 0
  invoke.mockReset()
  invoke.mockImplementation(async (channel: string, args: { id: number }) => {
    if (channel === 'settings:get') return DEFAULT_SETTINGS
    if (channel === 'player:resolve') return resolved(catalogue.find((s) => s.id === args.id) as Song)
    if (channel === 'player:load-session') return null
    if (channel === 'catalog:like') return { id: args.id, like: (args as unknown as { like: boolean }).like }
    return undefined
  })
})

function key(init: KeyboardEventInit, target: EventTarget = document.body) {
  target.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init }))
}

enableAutoUnmount(afterEach)

describe('NowPlayingBar', () => {
  it('says nothing plays before anything does', async () => {
    const { wrapper } = await mountBar()
    expect(wrapper.text()).toContain('Nothing playing')
  })

  it('shows the song, its artists and cover, the times, and plays and pauses', async () => {
    const { wrapper, player } = await mountBar()
    await player.playSongs(catalogue)
    await flushPromises()
    expect(wrapper.get('[data-testid="player-title"]').text()).toBe('Song 1')
    expect(wrapper.get('[data-testid="player-artists"]').text()).toBe('Artist 1')
    expect(wrapper.get('[data-testid="player-cover"]').attributes('src')).toBe('http://127.0.0.1/cover/1.png')
    expect(wrapper.get('[data-testid="player-duration"]').text()).toBe('0:30')
    lastAudio().advance(65)
    await flushPromises()
    expect(wrapper.get('[data-testid="player-position"]').text()).toBe('1:05')
    const toggle = wrapper.get('[data-testid="player-toggle"]')
    expect(toggle.attributes('aria-label')).toBe('Pause')
    await toggle.trigger('click')
    expect(player.playing).toBe(false)
    expect(toggle.attributes('aria-label')).toBe('Play')
    await wrapper.get('[data-testid="player-next"]').trigger('click')
    await flushPromises()
    expect(wrapper.get('[data-testid="player-title"]').text()).toBe('Song 2')
  })

  it('redraws the seek bar once a second, not on every tick of the clock', async () => {
    const { wrapper, player } = await mountBar()
    await player.playSongs(catalogue)
    await flushPromises()
    const input = wrapper.get('[data-testid="player-seek"]').element as HTMLInputElement
    const own = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!
    const written: string[] = []
    Object.defineProperty(input, 'value', {
      get: () => own.get!.call(input),
      set: (value: string) => {
        written.push(value)
        own.set!.call(input, value)
      },
    })
    const changes: MutationRecord[] = []
    const watcher = new MutationObserver((records) => changes.push(...records))
    watcher.observe(wrapper.element, {
      subtree: true,
      characterData: true,
      childList: true,
      attributes: true,
    })
    for (const at of [5.1, 5.35, 5.6, 5.85]) {
      lastAudio().advance(at)
      await flushPromises()
    }
    // 5.1 s moved the thumb and the time from 0 to 5 s; the ticks after it within second 5 drew nothing.
    expect(wrapper.get('[data-testid="player-position"]').text()).toBe('0:05')
    expect(written).toEqual(['5000'])
    const before = changes.length
    lastAudio().advance(6.1)
    await flushPromises()
    expect(wrapper.get('[data-testid="player-position"]').text()).toBe('0:06')
    expect(written).toEqual(['5000', '6000'])
    expect(changes.length).toBeGreaterThan(before)
    watcher.disconnect()
  })

  it('seeks with the slider and sets the volume and mute', async () => {
    const { wrapper, player } = await mountBar()
    await player.playSongs(catalogue)
    await flushPromises()
    const seek = wrapper.get('[data-testid="player-seek"]')
    ;(seek.element as HTMLInputElement).value = '12000'
    await seek.trigger('change')
    expect(lastAudio().currentTime).toBe(12)
    const volume = wrapper.get('[data-testid="player-volume"]')
    ;(volume.element as HTMLInputElement).value = '30'
    await volume.trigger('input')
    expect(lastAudio().volume).toBe(0.3)
    await wrapper.get('[data-testid="player-mute"]').trigger('click')
    expect(lastAudio().muted).toBe(true)
  })

  it('tells why a song was skipped', async () => {
    catalogue[0] = song(1, { privilege: { playable: false, reason: 'Removed by the label', bitrates: [] } })
    const { wrapper, player } = await mountBar()
    await player.playSongs(catalogue)
    await flushPromises()
    expect(wrapper.get('[data-testid="player-notice"]').text()).toContain(
      'Skipped “Song 1”: Removed by the label',
    )
    catalogue[0] = song(1)
  })

  it('answers keys outside text fields only: Space, Left/Right, Up/Down', async () => {
    const { player } = await mountBar()
    await player.playSongs(catalogue)
    await flushPromises()
    lastAudio().advance(20)
    key({ key: ' ' })
    expect(player.playing).toBe(false)
    key({ key: 'ArrowRight' })
    expect(lastAudio().currentTime).toBe(25)
    key({ key: 'ArrowLeft' })
    key({ key: 'ArrowLeft' })
    expect(lastAudio().currentTime).toBe(15)
    player.setVolume(0.5)
    key({ key: 'ArrowUp' })
    expect(player.volume).toBe(0.55)
    key({ key: 'ArrowDown' })
    key({ key: 'ArrowDown' })
    expect(player.volume).toBe(0.45)

    const input = document.createElement('input')
    document.body.appendChild(input)
    key({ key: ' ' }, input)
    key({ key: 'ArrowLeft' }, input)
    expect(player.playing).toBe(false)
    expect(lastAudio().currentTime).toBe(15)
  })

  it('opens the queue, plays from it, and reorders it with Alt+Up/Down and removes with Delete', async () => {
    const { wrapper, player } = await mountBar()
    await player.playSongs(catalogue)
    await flushPromises()
    await openQueue(wrapper)
    const names = () => wrapper.findAll('[data-testid="queue-item"] .name').map((n) => n.text())
    expect(names()).toEqual(['Song 1', 'Song 2', 'Song 3'])
    await wrapper
      .findAll('[data-testid="queue-item"]')[2]
      .trigger('keydown', { key: 'ArrowUp', altKey: true })
    await flushPromises()
    expect(names()).toEqual(['Song 1', 'Song 3', 'Song 2'])
    expect(document.activeElement?.textContent).toContain('Song 3')
    await wrapper
      .findAll('[data-testid="queue-item"]')[0]
      .trigger('keydown', { key: 'ArrowDown', altKey: true })
    expect(names()).toEqual(['Song 3', 'Song 1', 'Song 2'])
    expect(player.current?.id).toBe(1)
    await wrapper.findAll('[data-testid="queue-item"]')[2].trigger('keydown', { key: 'Delete' })
    expect(names()).toEqual(['Song 3', 'Song 1'])
    await wrapper.findAll('[data-testid="queue-item"] .song')[0].trigger('click')
    await flushPromises()
    expect(player.current?.id).toBe(3)
    await wrapper.get('[data-testid="queue-clear"]').trigger('click')
    expect(wrapper.text()).toContain('The queue is empty')
    await wrapper.get('[data-testid="queue-panel"]').trigger('keydown', { key: 'Escape' })
    expect(wrapper.find('[data-testid="queue-panel"]').exists()).toBe(false)
    expect(document.activeElement?.getAttribute('data-testid')).toBe('player-queue')
  })

  it('reorders the queue by drag and drop', async () => {
    const { wrapper, player } = await mountBar()
    await player.playSongs(catalogue)
    await flushPromises()
    await openQueue(wrapper)
    const items = wrapper.findAll('[data-testid="queue-item"]')
    await items[0].trigger('dragstart')
    await items[2].trigger('drop')
    expect(player.queue.map((s) => s.id)).toEqual([2, 3, 1])
  })

  it('likes the song through the shared likes store, and says so in a toast when refused', async () => {
    const { wrapper, player, pinia } = await mountBar()
    await player.playSongs(catalogue)
    await flushPromises()
    await wrapper.get('[data-testid="player-like"]').trigger('click')
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('catalog:like', { id: 1, like: true })
    expect(useLikesStore(pinia).isLiked(catalogue[0])).toBe(true)
    expect(wrapper.get('[data-testid="player-like"]').attributes('aria-pressed')).toBe('true')

    invoke.mockRejectedValueOnce(new CadenceError({ kind: 'network', message: 'offline' }))
    await wrapper.get('[data-testid="player-like"]').trigger('click')
    await flushPromises()
    expect(wrapper.get('[data-testid="player-like"]').attributes('aria-pressed')).toBe('true')
    expect(useNotificationsStore(pinia).items.map((n) => n.message)).toEqual(['Could not unlike “Song 1”.'])
  })

  it('opens the now-playing screen from the cover and from the lyrics button', async () => {
    const { wrapper, player, pinia } = await mountBar()
    const screen = useNowPlayingStore(pinia)
    await player.playSongs(catalogue)
    await flushPromises()
    await wrapper.get('[data-testid="player-open-now-playing"]').trigger('click')
    expect(screen.open).toBe(true)
    screen.hide()
    await wrapper.get('[data-testid="player-lyrics"]').trigger('click')
    expect(screen.open).toBe(true)
  })
})
