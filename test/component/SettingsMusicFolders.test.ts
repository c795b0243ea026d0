import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import SettingsMusicFolders from '@renderer/components/settings/SettingsMusicFolders.vue'
import type { MusicFoldersState } from '@shared/ipc/music-folders'
import { plugins } from './support'

const invoke = vi.fn()
let push: ((state: MusicFoldersState) => void) | undefined
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: (_event: string, listener: (state: MusicFoldersState) => void) => {
    push = listener
    return () => (push = undefined)
  },
}))

const folder = (path: string, songs: number | null, more: Partial<MusicFoldersState['folders'][0]> = {}) => ({
  path,
  songs,
  scannedAt: songs === null ? null : Date.UTC(2026, 10, 27, 9, 30),
  missing: false,
  unreadable: [],
  unreadableCount: 0,
  ...more,
})

describe('Settings → Music on this computer', () => {
  let state: MusicFoldersState
  beforeEach(() => {
    state = { folders: [], importing: null, message: null }
    invoke.mockReset()
    invoke.mockImplementation(async (channel: string, args?: { path: string }) => {
      if (channel === 'library:add-folder') {
        state = { folders: [folder('/music/Mine', null)], importing: { found: 0, read: 0 }, message: null }
      }
      if (channel === 'library:remove-folder') {
        state = { ...state, folders: state.folders.filter((f) => f.path !== args!.path) }
      }
      return state
    })
  })

  it('adds a folder, shows the import going and then each folder with its songs and unreadable files, removes it', async () => {
    const p = plugins()
    const wrapper = mount(SettingsMusicFolders, { global: { plugins: [p.pinia, p.i18n, p.router] } })
    await flushPromises()
    expect(wrapper.text()).toContain('No folder chosen.')

    await wrapper.get('[data-testid="music-folders-add"]').trigger('click')
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('library:add-folder')
    expect(wrapper.get('[data-testid="music-folder-path"]').text()).toBe('/music/Mine')
    expect(wrapper.get('[data-testid="music-folders-progress"]').text()).toContain('Looking for music files')

    push!({ ...state, importing: { found: 120, read: 40 } })
    await flushPromises()
    expect(wrapper.get('[data-testid="music-folders-progress"]').text()).toContain('40 of 120 files read')
    await wrapper.get('[data-testid="music-folders-cancel"]').trigger('click')
    expect(invoke).toHaveBeenCalledWith('library:cancel-import')

    state = {
      folders: [
        folder('/music/Mine', 118, {
          unreadable: [{ path: '/music/Mine/bad.mp3', error: 'no audio duration could be read' }],
          unreadableCount: 2,
          missing: true,
        }),
      ],
      importing: null,
      message: null,
    }
    push!(state)
    await flushPromises()
    expect(wrapper.find('[data-testid="music-folders-progress"]').exists()).toBe(false)
    expect(wrapper.get('[data-testid="music-folder-summary"]').text()).toMatch(/^118 songs · Last import /)
    expect(wrapper.get('[data-testid="music-folder-unreadable"]').text()).toContain('Could not read 2 files')
    expect(wrapper.get('[data-testid="music-folder-unreadable"]').text()).toContain(
      '/music/Mine/bad.mp3: no audio duration could be read',
    )
    expect(wrapper.find('[data-testid="music-folder-missing"]').exists()).toBe(true)

    await wrapper.get('[data-testid="music-folder-remove"]').trigger('click')
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('library:remove-folder', { path: '/music/Mine' })
    expect(wrapper.findAll('[data-testid="music-folder"]')).toHaveLength(0)
  })
})
