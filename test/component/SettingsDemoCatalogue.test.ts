import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import SettingsMusicFolders from '@renderer/components/settings/SettingsMusicFolders.vue'
import type { MusicFoldersState } from '@shared/ipc/music-folders'
import { plugins } from './support'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => undefined,
}))

/** Settings → Music on this computer → "Show the demo catalogue", as main answers it. */
describe('Settings → Music on this computer: the demo catalogue switch', () => {
  let shown: boolean
  let state: MusicFoldersState
  beforeEach(() => {
    shown = true
    state = { folders: [], importing: null, message: null }
    invoke.mockReset()
    invoke.mockImplementation(async (channel: string, args?: { shown: boolean }) => {
      if (channel === 'library:demo') return { shown }
      if (channel === 'library:set-demo') {
        shown = args!.shown
        return { shown }
      }
      if (channel === 'library:add-folder') {
        state = {
          ...state,
          folders: [
            { path: '/m', songs: null, scannedAt: null, missing: false, unreadable: [], unreadableCount: 0 },
          ],
        }
        // Main's default follows the folders: off once one is chosen.
        shown = false
      }
      return state
    })
  })

  it('shows main’s answer, turns the demo off and on, and follows a folder being added', async () => {
    const wrapper = mount(SettingsMusicFolders, { global: { plugins: Object.values(plugins()) } })
    await flushPromises()
    const toggle = () => wrapper.get<HTMLInputElement>('[data-testid="music-folders-demo"]')
    expect(wrapper.text()).toContain('Show the demo catalogue')
    expect(toggle().element.checked).toBe(true)

    await toggle().setValue(false)
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('library:set-demo', { shown: false })
    expect(toggle().element.checked).toBe(false)

    await toggle().setValue(true)
    await flushPromises()
    expect(invoke).toHaveBeenLastCalledWith('library:set-demo', { shown: true })
    expect(toggle().element.checked).toBe(true)

    await wrapper.get('[data-testid="music-folders-add"]').trigger('click')
    await flushPromises()
    expect(toggle().element.checked).toBe(false)
  })
})
