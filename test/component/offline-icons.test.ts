import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import SongList from '@renderer/components/song/SongList.vue'
import DownloadButton from '@renderer/components/downloads/DownloadButton.vue'
import DownloadsList from '@renderer/components/downloads/DownloadsList.vue'
import type { DownloadRow } from '@shared/ipc/contract'
import { plugins, song } from './support'

/**
 * Issue 34's polish: one symbol no longer means Download, Downloaded and Cached; and a download in
 * progress shows a bar (item 9), or "Paused" while the queue is.
 */

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => undefined,
}))

beforeEach(() => {
  invoke.mockReset()
  invoke.mockImplementation(async (channel: string) => {
    if (channel === 'offline:state') return { offline: false }
    if (channel === 'media:available') return { sourceId: 'builtin', downloaded: ['1'], cached: ['2'] }
    if (channel === 'sources:list')
      return {
        activeId: 'builtin',
        sources: [{ id: 'builtin', name: 'x', url: 'http://127.0.0.1', builtin: true, insecure: false }],
      }
    return undefined
  })
})
afterEach(() => {
  document.body.innerHTML = ''
})

const downloading: DownloadRow = {
  song: { id: 5, name: 'Song 5', tns: [], artists: [{ id: 1, name: 'Artist' }], duration: 185_000 },
  sourceId: 'builtin',
  bitrate: 320000,
  state: 'downloading',
  size: 1000,
  received: 250,
  addedAt: 1,
}

describe('offline icons and download progress', () => {
  it('draws Download, Downloaded and Cached each with its own icon', async () => {
    const p = plugins()
    const list = mount(SongList, {
      props: { songs: [song(1), song(2)], label: 'List' },
      global: { plugins: [p.pinia, p.i18n, p.router] },
    })
    const button = mount(DownloadButton, {
      props: { songs: async () => [song(3)] },
      global: { plugins: [p.pinia, p.i18n, p.router] },
    })
    await flushPromises()
    const icon = (
      wrapper: { get: (selector: string) => { attributes: (name: string) => unknown } },
      testId: string,
    ) => wrapper.get(`[data-testid="${testId}"] [data-icon]`).attributes('data-icon')
    const icons = [
      icon(button, 'download-list'),
      icon(list, 'song-offline-downloaded'),
      icon(list, 'song-offline-cached'),
    ]
    expect(new Set(icons).size).toBe(3)
    expect(list.text()).not.toContain('⤓')
    expect(button.text()).not.toContain('⤓')
  })

  it('shows a bar while a song downloads, and Paused instead while the queue is paused', async () => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(700)
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1000)
    const p = plugins()
    const wrapper = mount(DownloadsList, {
      props: { rows: [downloading] },
      global: { plugins: [p.pinia, p.i18n, p.router] },
      attachTo: document.body,
    })
    await flushPromises()
    const bar = wrapper.get('[data-testid="download-progress"]').element as HTMLProgressElement
    expect(Number(bar.getAttribute('value'))).toBe(0.25)
    expect(wrapper.get('[data-testid="download-state"]').text()).toBe('25 %')
    await wrapper.setProps({ paused: true })
    expect(wrapper.get('[data-testid="download-state"]').text()).toBe('Paused')
    expect(wrapper.find('[data-testid="download-progress"]').exists()).toBe(false)
    expect(wrapper.get('[data-testid="download-source"]').text()).toBe('Built-in library')
    vi.restoreAllMocks()
  })
})
