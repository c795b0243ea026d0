import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import type { VueWrapper } from '@vue/test-utils'
import SettingsShortcuts from '@renderer/components/settings/SettingsShortcuts.vue'
import { useSettingsStore } from '@renderer/stores/settings'
import { DEFAULT_SETTINGS } from '@shared/settings'
import type { Settings } from '@shared/settings'
import { DEFAULT_SHORTCUTS } from '@shared/global-shortcuts'
import type { ShortcutsState } from '@shared/global-shortcuts'
import { plugins } from './support'

/** Settings → Keyboard shortcuts → Global shortcuts: record, cancel, clear, reset all, taken ones shown. */

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => {},
}))

let saved: Settings
let state: ShortcutsState
const updates: unknown[] = []

const row = (wrapper: VueWrapper, action: string) => wrapper.get(`[data-shortcut="${action}"]`)
const keys = (wrapper: VueWrapper, action: string) =>
  row(wrapper, action).get('[data-testid="shortcut-keys"]').text()
const keydown = async (init: KeyboardEventInit) => {
  window.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init }))
  await flushPromises()
}

async function mountIt() {
  const p = plugins()
  const wrapper = mount(SettingsShortcuts, {
    global: { plugins: [p.pinia, p.i18n, p.router] },
    attachTo: document.body,
  })
  await useSettingsStore(p.pinia).load()
  await flushPromises()
  return wrapper
}

describe('Settings → global shortcuts', () => {
  beforeEach(() => {
    saved = structuredClone(DEFAULT_SETTINGS)
    state = {
      'play-pause': 'unset',
      next: 'unset',
      previous: 'unset',
      like: 'unset',
      'volume-up': 'unset',
      'volume-down': 'unset',
      'desktop-lyrics': 'registered',
    }
    updates.length = 0
    invoke.mockReset()
    invoke.mockImplementation(async (channel: string, args: unknown) => {
      if (channel === 'settings:get') return saved
      if (channel === 'settings:update') {
        updates.push(args)
        saved = { ...saved, ...(args as Partial<Settings>) }
        return saved
      }
      if (channel === 'shortcuts:state' || channel === 'shortcuts:retry') return state
      return undefined
    })
  })

  it('records the keys pressed after Change and saves them; the player does not see those keys', async () => {
    const wrapper = await mountIt()
    expect(keys(wrapper, 'play-pause')).toBe('Not set')
    expect(keys(wrapper, 'desktop-lyrics')).toBe('Ctrl+Alt+L')
    const seen: string[] = []
    const listener = (event: KeyboardEvent) => seen.push(event.key)
    window.addEventListener('keydown', listener)

    await row(wrapper, 'play-pause').get('[data-testid="shortcut-change"]').trigger('click')
    expect(row(wrapper, 'play-pause').find('[data-testid="shortcut-recording"]').exists()).toBe(true)
    await keydown({ key: 'Control', code: 'ControlLeft', ctrlKey: true })
    await keydown({ key: 'p', code: 'KeyP', ctrlKey: true, altKey: true })
    expect(updates).toEqual([{ shortcuts: { ...DEFAULT_SHORTCUTS, 'play-pause': 'CommandOrControl+Alt+P' } }])
    expect(keys(wrapper, 'play-pause')).toBe('Ctrl+Alt+P')
    expect(row(wrapper, 'play-pause').find('[data-testid="shortcut-recording"]').exists()).toBe(false)
    expect(seen).toEqual([])
    window.removeEventListener('keydown', listener)
    wrapper.unmount()
  })

  it('Escape cancels without a change; a letter alone or keys another action uses are refused with a reason', async () => {
    const wrapper = await mountIt()
    await row(wrapper, 'next').get('[data-testid="shortcut-change"]').trigger('click')
    await keydown({ key: 'Escape', code: 'Escape' })
    expect(updates).toEqual([])
    expect(keys(wrapper, 'next')).toBe('Not set')

    await row(wrapper, 'next').get('[data-testid="shortcut-change"]').trigger('click')
    await keydown({ key: 'n', code: 'KeyN' })
    expect(wrapper.get('[data-testid="shortcut-message"]').text()).toContain('Add Ctrl, Alt')
    // Still recording: the next try counts.
    await keydown({ key: 'l', code: 'KeyL', ctrlKey: true, altKey: true })
    expect(wrapper.get('[data-testid="shortcut-message"]').text()).toBe(
      'Those keys are already used for Show or hide desktop lyrics.',
    )
    expect(updates).toEqual([])
    wrapper.unmount()
  })

  it('clears one shortcut and resets all to the defaults', async () => {
    saved = { ...saved, shortcuts: { ...DEFAULT_SHORTCUTS, next: 'CommandOrControl+Alt+Right' } }
    const wrapper = await mountIt()
    expect(keys(wrapper, 'next')).toBe('Ctrl+Alt+→')
    await row(wrapper, 'desktop-lyrics').get('[data-testid="shortcut-clear"]').trigger('click')
    await flushPromises()
    expect(keys(wrapper, 'desktop-lyrics')).toBe('Not set')
    expect(
      row(wrapper, 'desktop-lyrics').get('[data-testid="shortcut-clear"]').attributes('disabled'),
    ).toBeDefined()
    await wrapper.get('[data-testid="shortcut-reset"]').trigger('click')
    await flushPromises()
    expect(updates.at(-1)).toEqual({ shortcuts: DEFAULT_SHORTCUTS })
    expect(keys(wrapper, 'next')).toBe('Not set')
    expect(keys(wrapper, 'desktop-lyrics')).toBe('Ctrl+Alt+L')
    wrapper.unmount()
  })

  it('shows a shortcut another application holds as taken, and tries again on request', async () => {
    saved = { ...saved, shortcuts: { ...DEFAULT_SHORTCUTS, next: 'CommandOrControl+Alt+Right' } }
    state = { ...state, next: 'taken' }
    const wrapper = await mountIt()
    expect(row(wrapper, 'next').get('[data-testid="shortcut-taken"]').text()).toBe(
      'Taken by another application',
    )
    expect(row(wrapper, 'desktop-lyrics').find('[data-testid="shortcut-taken"]').exists()).toBe(false)
    state = { ...state, next: 'registered' }
    await wrapper.get('[data-testid="shortcut-retry"]').trigger('click')
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('shortcuts:retry')
    expect(wrapper.find('[data-testid="shortcut-taken"]').exists()).toBe(false)
    wrapper.unmount()
  })
})
