import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createMemoryHistory, createRouter } from 'vue-router'
import { defineComponent, h } from 'vue'
import { DEFAULT_SETTINGS } from '@shared/settings'
import NowPlayingBar from '@renderer/components/player/NowPlayingBar.vue'
import { createAppI18n } from '@renderer/i18n'
import { usePlayerStore } from '@renderer/stores/player'
import { usePlayerStartup } from '@renderer/composables/player-startup'
import { useNowPlayingStore } from '@renderer/stores/now-playing'
import { audios, lastAudio, resolved, song } from './player-fakes'

/**
 * The player bar under the now-playing screen (which covers the whole window) keeps still: its seek bar
 * does not re-render each second for a bar no one sees, and shows the clock again once the screen closes.
 */
const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => undefined,
}))
vi.mock('@renderer/services/player/engine', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@renderer/services/player/engine')>()),
  createPlayerOutput: (await import('./player-fakes')).createFakeAudio,
}))

const AppWithBar = defineComponent({
  setup() {
    usePlayerStartup()
    return () => h(NowPlayingBar)
  },
})

beforeEach(() => {
  document.body.innerHTML = ''
  audios.length = 0
  invoke.mockReset()
  invoke.mockImplementation(async (channel: string) => {
    if (channel === 'settings:get') return DEFAULT_SETTINGS
    if (channel === 'player:resolve') return resolved(song(1))
    if (channel === 'player:load-session') return null
    return undefined
  })
})
enableAutoUnmount(afterEach)

describe('NowPlayingBar under the now-playing screen', () => {
  it('changes nothing in its seek bar while the screen covers it, and follows the clock again after', async () => {
    const pinia = createPinia()
    setActivePinia(pinia)
    const router = createRouter({
      history: createMemoryHistory(),
      routes: [{ path: '/', component: { render: () => h('div') } }],
    })
    await router.push('/')
    const wrapper = mount(AppWithBar, {
      attachTo: document.body,
      global: { plugins: [pinia, createAppI18n(), router] },
    })
    await flushPromises()
    await usePlayerStore(pinia).playSongs([song(1)])
    await flushPromises()
    const audio = lastAudio()
    audio.advance(2.2)
    await flushPromises()
    const position = wrapper.get('[data-testid="player-position"]')
    expect(position.text()).toBe('0:02')

    const screen = useNowPlayingStore(pinia)
    screen.show()
    await flushPromises()
    const seekBar = wrapper.get('.player-seek-bar').element
    let changes = 0
    const observer = new MutationObserver((records) => (changes += records.length))
    observer.observe(seekBar, { subtree: true, childList: true, characterData: true, attributes: true })
    // Eight output ticks over two seconds, two whole seconds shown by the clock.
    for (let tick = 1; tick <= 8; tick++) {
      audio.advance(2.2 + tick * 0.25)
      await flushPromises()
    }
    await new Promise((done) => setTimeout(done, 0))
    expect(changes).toBe(0)
    expect(position.text()).toBe('0:02')

    screen.hide()
    await flushPromises()
    expect(position.text()).toBe('0:04')
    expect(wrapper.get('[data-testid="player-seek"]').attributes('aria-valuetext')).toBe('0:04 / 0:30')
    observer.disconnect()
  })
})
