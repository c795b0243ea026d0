import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import SongList from '@renderer/components/song/SongList.vue'
import DownloadsView from '@renderer/views/DownloadsView.vue'
import OfflineBanner from '@renderer/components/sources/OfflineBanner.vue'
import DownloadsList from '@renderer/components/downloads/DownloadsList.vue'
import SettingsStorage from '@renderer/components/settings/SettingsStorage.vue'
import CommonCover from '@renderer/components/common/CommonCover.vue'
import DownloadButton from '@renderer/components/downloads/DownloadButton.vue'
import type { DownloadRow, DownloadsSummary, EventMap } from '@shared/ipc/contract'
import { plugins, song } from './support'

const invoke = vi.fn()
const listeners = new Map<string, (payload: unknown) => void>()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: (event: string, listener: (payload: unknown) => void) => {
    listeners.set(event, listener)
    return () => listeners.delete(event)
  },
}))
const emit = <E extends keyof EventMap>(event: E, payload: EventMap[E]) => listeners.get(event)?.(payload)

const summary = (extra: Partial<DownloadsSummary> = {}): DownloadsSummary => ({
  paused: false,
  total: 0,
  queued: 0,
  downloading: 0,
  waiting: 0,
  done: 0,
  failed: 0,
  downloadedBytes: 0,
  revision: 1,
  ...extra,
})
const row = (i: number): DownloadRow => ({
  song: { id: i, name: `Song ${i}`, tns: [], artists: [{ id: 1, name: 'Artist' }], duration: 185_000 },
  sourceId: 'builtin',
  bitrate: 320000,
  state: 'done',
  size: 4_200_000 + i,
  addedAt: 1,
})

/** Main as the renderer sees it: `downloads:list` pages from a list of `total` downloads. */
function answer(total: number) {
  invoke.mockImplementation(async (channel: string, args: { offset: number; limit: number }) => {
    switch (channel) {
      case 'offline:state':
        return { offline: false }
      case 'media:available':
        return { sourceId: 'builtin', downloaded: ['1'], cached: ['2'] }
      case 'downloads:summary':
        return summary({ total, done: total, downloadedBytes: total * 4_200_000 })
      case 'downloads:list': {
        const rows = []
        for (let i = args.offset; i < Math.min(total, args.offset + args.limit); i++) rows.push(row(i + 1))
        return { total, offset: args.offset, rows }
      }
      case 'media:cache-info':
        return {
          cachedBytes: 812_000_000,
          cachedCount: 120,
          downloadedBytes: 4_200_000,
          downloadedCount: 1,
          maxBytes: 2 * 1024 ** 3,
          dir: '/home/me/.config/Cadence/media-cache',
        }
      case 'media:clear-cache':
        return {
          cachedBytes: 0,
          cachedCount: 0,
          downloadedBytes: 4_200_000,
          downloadedCount: 1,
          maxBytes: 2 * 1024 ** 3,
          dir: '/home/me/.config/Cadence/media-cache',
        }
      default:
        return undefined
    }
  })
}

beforeEach(() => {
  invoke.mockReset()
  listeners.clear()
})
afterEach(() => {
  document.body.innerHTML = ''
})

describe('offline in the renderer', () => {
  it('marks in song lists what plays offline: downloaded, or only cached', async () => {
    answer(1)
    const p = plugins()
    const wrapper = mount(SongList, {
      props: { songs: [song(1), song(2), song(3)], label: 'List' },
      global: { plugins: [p.pinia, p.i18n, p.router] },
    })
    await flushPromises()
    const rows = wrapper.findAll('[data-testid="song-row"]')
    expect(rows[0].find('[data-testid="song-offline-downloaded"]').attributes('title')).toMatch(/Downloaded/)
    expect(rows[1].find('[data-testid="song-offline-cached"]').exists()).toBe(true)
    expect(rows[2].find('[class*="offline-badge"]').exists()).toBe(false)
    // A download finishing elsewhere updates the badges.
    emit('media:available-changed', { sourceId: 'builtin', downloaded: ['1', '3'], cached: [] })
    await flushPromises()
    expect(wrapper.findAll('[data-testid="song-offline-downloaded"]')).toHaveLength(2)
    expect(wrapper.find('[data-testid="song-offline-cached"]').exists()).toBe(false)
  })

  it('opens Downloaded with 10,000 songs keeping a few rows in the DOM, with their sizes', async () => {
    const height = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(700)
    const width = vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1000)
    answer(10_000)
    const p = plugins()
    const wrapper = mount(DownloadsView, {
      global: { plugins: [p.pinia, p.i18n, p.router] },
      attachTo: document.body,
    })
    await flushPromises()
    const rows = wrapper.findAll('[data-testid="download-row"]')
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.length).toBeLessThanOrEqual(100)
    expect(rows[0].get('[data-testid="download-state"]').text()).toBe('4 MB')
    expect(wrapper.get('[data-testid="downloads-summary"]').text()).toContain(
      '10,000 songs on this computer, 39.1 GB',
    )
    // Only the first page was asked for, not the whole list.
    const pages = invoke.mock.calls.filter(([channel]) => channel === 'downloads:list')
    expect(pages.length).toBeLessThanOrEqual(2)

    // Scrolled far down, then the queue changes: the rows in view are asked for again, never dropped.
    const list = wrapper.findComponent(DownloadsList)
    list.vm.$emit('need', 5000, 5040)
    await flushPromises()
    expect(list.props('rows')[5000]?.song.id).toBe(5001)
    emit('downloads:changed', summary({ total: 10_000, done: 10_000, revision: 2 }))
    await flushPromises()
    expect(list.props('rows')[5000]?.song.id).toBe(5001)
    expect(list.props('rows')[0]?.song.id).toBe(1)
    wrapper.unmount()
    height.mockRestore()
    width.mockRestore()
  })

  it('shows covers from the copy main keeps when offline, or when the data source’s image fails', async () => {
    answer(0)
    const p = plugins()
    const cover = 'http://127.0.0.1:9/media/cover/album/1'
    const onDisk = `cadence-media://cover/?src=${encodeURIComponent(cover)}`
    const withCover = (id: number) => song(id, { album: { id: 1, name: 'Album', artists: [], cover } })
    const list = mount(SongList, {
      props: { songs: [withCover(1), withCover(2)], label: 'List' },
      global: { plugins: [p.pinia, p.i18n, p.router] },
      attachTo: document.body,
    })
    const playlistCover = 'http://127.0.0.1:9/media/cover/playlist/1'
    const header = mount(CommonCover, { props: { src: playlistCover }, global: { plugins: [p.pinia] } })
    await flushPromises()
    const thumbs = () => list.findAll('[data-testid="song-thumb"]').map((t) => t.attributes('src'))
    expect(thumbs()).toEqual([cover, cover])
    expect(header.get('img').attributes('src')).toBe(playlistCover)

    // The data source's image fails (the app does not know it is offline yet): the kept copy is tried,
    // wherever that cover shows.
    await list.findAll('[data-testid="song-thumb"]')[0].trigger('error')
    expect(thumbs()).toEqual([onDisk, onDisk])
    await header.get('img').trigger('error')
    expect(header.get('img').attributes('src')).toBe(
      `cadence-media://cover/?src=${encodeURIComponent(playlistCover)}`,
    )
    // The kept copy fails too: the placeholder.
    await header.get('img').trigger('error')
    expect(header.find('img').exists()).toBe(false)
    expect(header.find('[data-testid="cover-placeholder"]').exists()).toBe(true)

    // Back online, covers come from the data source again; offline, from disk at once.
    emit('offline:changed', { offline: true, since: 1, reason: 'fetch failed' })
    emit('offline:changed', { offline: false })
    await flushPromises()
    expect(thumbs()).toEqual([cover, cover])
    emit('offline:changed', { offline: true, since: 2, reason: 'fetch failed' })
    await flushPromises()
    expect(thumbs()).toEqual([onDisk, onDisk])
    const other = mount(CommonCover, { props: { src: cover }, global: { plugins: [p.pinia] } })
    expect(other.get('img').attributes('src')).toBe(onDisk)
    list.unmount()
  })

  it('downloads a list with its header cover, so main keeps it for the page offline', async () => {
    answer(0)
    const main = invoke.getMockImplementation()!
    invoke.mockImplementation(async (channel: string, args: never) =>
      channel === 'downloads:add' ? summary({ total: 2, queued: 2 }) : main(channel, args),
    )
    const p = plugins()
    const cover = 'http://127.0.0.1:9/media/cover/playlist/1'
    const button = (src?: string) =>
      mount(DownloadButton, {
        props: { songs: async () => [song(1), song(2)], cover: src },
        global: { plugins: [p.pinia, p.i18n, p.router] },
      })
    const added = () => invoke.mock.calls.filter(([channel]) => channel === 'downloads:add').map(([, a]) => a)
    await button(cover).get('[data-testid="download-list"]').trigger('click')
    await flushPromises()
    expect(added()).toEqual([{ songs: [expect.objectContaining({ id: 1 }), expect.anything()], cover }])
    // A cover that is not the data source's (none, or a local one) is not sent.
    await button('data:image/png;base64,AA').get('[data-testid="download-list"]').trigger('click')
    await flushPromises()
    expect(added()[1]).toEqual({ songs: expect.any(Array) })
  })

  it('says once that the source cannot be reached, and clears it when it is back', async () => {
    answer(0)
    const p = plugins()
    const wrapper = mount(OfflineBanner, { global: { plugins: [p.pinia, p.i18n, p.router] } })
    await flushPromises()
    expect(wrapper.find('[data-testid="offline-banner"]').exists()).toBe(false)
    emit('offline:changed', { offline: true, since: 1, reason: 'fetch failed' })
    await flushPromises()
    expect(wrapper.get('[data-testid="offline-banner"]').text()).toMatch(
      /Offline: the data source cannot be reached/,
    )
    emit('offline:changed', { offline: false })
    await flushPromises()
    expect(wrapper.find('[data-testid="offline-banner"]').exists()).toBe(false)
  })

  it('shows in Settings what the cache holds and clears it', async () => {
    answer(0)
    const p = plugins()
    const wrapper = mount(SettingsStorage, { global: { plugins: [p.pinia, p.i18n, p.router] } })
    await flushPromises()
    expect(wrapper.get('[data-testid="settings-cache-usage"]').text()).toBe(
      'Songs played recently: 774 MB of 2 GB (120 songs)',
    )
    expect(wrapper.get('[data-testid="settings-downloads-usage"]').text()).toContain('4 MB (1 songs)')
    await wrapper.get('[data-testid="settings-cache-clear"]').trigger('click')
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('media:clear-cache', undefined)
    expect(wrapper.get('[data-testid="settings-cache-usage"]').text()).toBe(
      'Songs played recently: 0 B of 2 GB (0 songs)',
    )
  })
})
