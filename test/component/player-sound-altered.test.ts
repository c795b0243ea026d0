import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { h } from 'vue'
import { createMemoryHistory, createRouter } from 'vue-router'
import { DEFAULT_SETTINGS } from '@shared/settings'
import type { Settings } from '@shared/settings'
import NowPlayingBar from '@renderer/components/player/NowPlayingBar.vue'
import { createAppI18n } from '@renderer/i18n'
import { useSettingsStore } from '@renderer/stores/settings'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => undefined,
}))

let settings: Settings
enableAutoUnmount(afterEach)

beforeEach(() => {
  document.body.innerHTML = ''
  settings = { ...DEFAULT_SETTINGS }
  invoke.mockReset()
  invoke.mockImplementation(async (channel: string) => {
    if (channel === 'settings:get') return settings
    if (channel === 'player:load-session') return null
    return undefined
  })
})

async function mountBar() {
  const pinia = createPinia()
  setActivePinia(pinia)
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [{ path: '/', component: { render: () => h('div') } }],
  })
  await router.push('/')
  const wrapper = mount(NowPlayingBar, { global: { plugins: [pinia, createAppI18n(), router] } })
  await useSettingsStore().load()
  await flushPromises()
  return wrapper
}

describe('the Sound button', () => {
  it('shows a dot and says so when speed or the equaliser change the sound, and none when they do not', async () => {
    const wrapper = await mountBar()
    const button = () => wrapper.get('[data-testid="player-sound"]')
    const dot = () => button().find('[data-testid="player-sound-altered"]').exists()
    expect(dot()).toBe(false)
    expect(button().attributes('title')).toBe('Sound')

    const store = useSettingsStore()
    store.settings = { ...store.settings, speed: 1.25 }
    await flushPromises()
    expect(dot()).toBe(true)
    expect(button().attributes('title')).toBe('Sound: speed 1.25×')

    const equaliser = { ...DEFAULT_SETTINGS.equaliser, enabled: true, gains: [3, 0, 0, 0, 0, 0, 0, 0, 0, 0] }
    store.settings = { ...store.settings, equaliser }
    await flushPromises()
    expect(button().attributes('title')).toBe('Sound: speed 1.25×, equaliser on')
    expect(button().attributes('aria-label')).toBe('Sound: speed 1.25×, equaliser on')

    // An equaliser that is on but flat, at 1×, changes nothing.
    store.settings = {
      ...store.settings,
      speed: 1,
      equaliser: { ...equaliser, gains: equaliser.gains.map(() => 0) },
    }
    await flushPromises()
    expect(dot()).toBe(false)
    expect(button().attributes('title')).toBe('Sound')
  })
})
