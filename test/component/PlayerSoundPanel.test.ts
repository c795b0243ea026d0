import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createMemoryHistory, createRouter } from 'vue-router'
import { h } from 'vue'
import { DEFAULT_SETTINGS } from '@shared/settings'
import type { Settings } from '@shared/settings'
import NowPlayingBar from '@renderer/components/player/NowPlayingBar.vue'
import { createAppI18n } from '@renderer/i18n'
import { EQ_PRESETS } from '@renderer/services/player/audio/equaliser'
import { useSettingsStore } from '@renderer/stores/settings'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => undefined,
}))
vi.mock('@renderer/services/player/engine', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@renderer/services/player/engine')>()),
  createPlayerOutput: (await import('./player-fakes')).createFakeAudio,
}))
vi.mock('@renderer/services/player/audio/output-devices', () => ({
  outputDevicesPort: () => ({
    supported: true,
    list: async () => [{ kind: 'audiooutput', deviceId: 'usb-dac', label: 'USB DAC' }],
    onChange: () => () => undefined,
  }),
}))

let settings: Settings
const updates = () =>
  invoke.mock.calls.filter(([channel]) => channel === 'settings:update').map(([, patch]) => patch)
const Empty = { render: () => h('div') }

async function mountBar() {
  const pinia = createPinia()
  setActivePinia(pinia)
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', name: 'home', component: Empty },
      { path: '/settings', name: 'settings', component: Empty },
    ],
  })
  await router.push('/')
  const wrapper = mount(NowPlayingBar, {
    attachTo: document.body,
    global: { plugins: [pinia, createAppI18n(), router] },
  })
  await useSettingsStore().load()
  await flushPromises()
  return { wrapper, router }
}
/** Opens the sound panel from the bar (a lazy chunk: it shows once its module has loaded). */
async function openSound(wrapper: Awaited<ReturnType<typeof mountBar>>['wrapper']) {
  await wrapper.get('[data-testid="player-sound"]').trigger('click')
  await vi.waitFor(() => expect(wrapper.find('[data-testid="sound-panel"]').exists()).toBe(true))
  await flushPromises()
}

enableAutoUnmount(afterEach)

beforeEach(() => {
  document.body.innerHTML = ''
  settings = { ...DEFAULT_SETTINGS }
  invoke.mockReset()
  invoke.mockImplementation(async (channel: string, args: never) => {
    if (channel === 'settings:get') return settings
    if (channel === 'settings:update') return (settings = { ...settings, ...(args as Partial<Settings>) })
    if (channel === 'player:load-session') return null
    return undefined
  })
})

describe('the player bar sound panel', () => {
  it('opens in one click with the device, equaliser, speed, crossfade and loudness, focus inside', async () => {
    const { wrapper } = await mountBar()
    const button = wrapper.get('[data-testid="player-sound"]')
    expect(button.attributes('aria-expanded')).toBe('false')
    await openSound(wrapper)
    expect(button.attributes('aria-expanded')).toBe('true')
    const panel = wrapper.get('[data-testid="sound-panel"]')
    for (const testid of [
      'sound-device',
      'sound-eq-enabled',
      'sound-eq-preset',
      'sound-speed',
      'sound-crossfade',
    ])
      expect(panel.find(`[data-testid="${testid}"]`).exists(), testid).toBe(true)
    expect(panel.findAll('input[type="radio"][name="loudness-panel"]')).toHaveLength(3)
    expect(
      panel
        .get('[data-testid="sound-device"]')
        .findAll('option')
        .map((o) => o.text()),
    ).toEqual(['System default', 'USB DAC'])
    expect(document.activeElement).toBe(panel.get('[data-testid="sound-device"]').element)
  })

  it('changes the preset and the speed from the panel', async () => {
    const { wrapper } = await mountBar()
    await openSound(wrapper)
    await wrapper.get('[data-testid="sound-eq-preset"]').setValue('electronic')
    await flushPromises()
    expect(updates().at(-1)).toEqual({
      equaliser: { enabled: true, preset: 'electronic', gains: [...EQ_PRESETS.electronic], preamp: -5 },
    })
    const speed = wrapper.get('[data-testid="sound-speed"]')
    await speed.setValue('0.75')
    await speed.trigger('change')
    await flushPromises()
    expect(updates().at(-1)).toEqual({ speed: 0.75 })
    expect(speed.element.closest('label')!.textContent).toContain('0.75×')
  })

  it('closes on Escape and gives the focus back to its button', async () => {
    const { wrapper } = await mountBar()
    await openSound(wrapper)
    await wrapper.get('[data-testid="sound-speed"]').trigger('keydown', { key: 'Escape' })
    expect(wrapper.find('[data-testid="sound-panel"]').exists()).toBe(false)
    expect(document.activeElement).toBe(wrapper.get('[data-testid="player-sound"]').element)
    expect(wrapper.get('[data-testid="player-sound"]').attributes('aria-expanded')).toBe('false')
  })

  it('closes on a click elsewhere, and gives its place to the queue', async () => {
    const { wrapper } = await mountBar()
    await openSound(wrapper)
    document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }))
    await flushPromises()
    expect(wrapper.find('[data-testid="sound-panel"]').exists()).toBe(false)
    await openSound(wrapper)
    await wrapper.get('[data-testid="player-queue"]').trigger('click')
    expect(wrapper.find('[data-testid="sound-panel"]').exists()).toBe(false)
    // And the button toggles it closed again.
    await openSound(wrapper)
    await wrapper.get('[data-testid="player-sound"]').trigger('click')
    expect(wrapper.find('[data-testid="sound-panel"]').exists()).toBe(false)
  })

  it('leads to all the sound settings', async () => {
    const { wrapper, router } = await mountBar()
    await openSound(wrapper)
    await wrapper.get('[data-testid="sound-more"]').trigger('click')
    await flushPromises()
    expect(router.currentRoute.value.name).toBe('settings')
    expect(wrapper.find('[data-testid="sound-panel"]').exists()).toBe(false)
  })
})
