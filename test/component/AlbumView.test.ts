import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { CadenceError } from '@shared/errors'
import type { SearchResult } from '@shared/api/models'
import AlbumView from '@renderer/views/AlbumView.vue'
import SongContextMenu from '@renderer/components/song/SongContextMenu.vue'
import DownloadButton from '@renderer/components/downloads/DownloadButton.vue'
import { albumSongsFromSearch } from '@renderer/stores/album'
import { plugins, song } from './support'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => {},
}))

const onAlbum = (id: number, name: string, artist = 'Lumen', albumId = 50) =>
  song(id, {
    name: `Track ${id}`,
    artists: [{ id: 7, name: artist }],
    album: { id: albumId, name, artists: [{ id: 7, name: artist }] },
  })

function mountAlbum(props: { id: string; name?: string; artist?: string }) {
  const p = plugins()
  return mount(AlbumView, { props, global: { plugins: [p.pinia, p.i18n, p.router] } })
}

const rows = (wrapper: ReturnType<typeof mountAlbum>) =>
  wrapper.findAll('[data-testid="song-name"]').map((r) => r.text())

describe('AlbumView', () => {
  beforeEach(() => invoke.mockReset())

  it("lists the album endpoint's tracks in its order, with the album's artist, and no search note", async () => {
    invoke.mockImplementation(async (channel: string) => {
      if (channel === 'capabilities:get') return undefined
      if (channel === 'albums:detail')
        return {
          id: 50,
          name: 'Glass Hours',
          type: 'album',
          size: 3,
          meta: { artists: [{ id: 7, name: 'Lumen' }], subscribed: false },
          songs: [onAlbum(3, 'Glass Hours'), onAlbum(1, 'Glass Hours'), onAlbum(2, 'Glass Hours')],
        }
      return undefined
    })
    const wrapper = mountAlbum({ id: '50', name: 'Glass Hours' })
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('albums:detail', { id: '50' })
    expect(invoke).not.toHaveBeenCalledWith('catalog:search', expect.anything())
    expect(rows(wrapper)).toEqual(['Track 3', 'Track 1', 'Track 2'])
    expect(wrapper.get('[data-testid="playlist-creator"]').text()).toBe('Lumen')
    expect(wrapper.get('.album-view').attributes('data-album-source')).toBe('album-detail')
    expect(wrapper.find('[data-testid="album-by-search"]').exists()).toBe(false)
  })

  it('falls back to the album playlist when the source has no album endpoint', async () => {
    invoke.mockImplementation(async (channel: string) => {
      if (channel === 'albums:detail')
        throw new CadenceError({ kind: 'unavailable', message: 'This data source has no album pages' })
      if (channel === 'catalog:playlist')
        return { id: 50, name: 'Glass Hours', type: 'album', total: 1, rows: [onAlbum(1, 'Glass Hours')] }
      return undefined
    })
    const wrapper = mountAlbum({ id: '50', name: 'Glass Hours', artist: 'Lumen' })
    await flushPromises()
    expect(rows(wrapper)).toEqual(['Track 1'])
    expect(wrapper.get('.album-view').attributes('data-album-source')).toBe('data-source')
  })

  it("shows the data source's album playlist with its songs", async () => {
    invoke.mockImplementation(async (channel: string) => {
      if (channel === 'catalog:playlist')
        return {
          id: 50,
          name: 'Glass Hours',
          type: 'album',
          total: 3,
          rows: [onAlbum(1, 'Glass Hours'), onAlbum(2, 'Glass Hours')],
        }
      if (channel === 'catalog:playlist-rows')
        return { total: 3, offset: 2, rows: [onAlbum(3, 'Glass Hours')] }
      return undefined
    })
    const wrapper = mountAlbum({ id: '50', name: 'Glass Hours', artist: 'Lumen' })
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('catalog:playlist', { id: '50' })
    expect(wrapper.get('[data-testid="playlist-type"]').text()).toBe('Album')
    expect(wrapper.get('[data-testid="playlist-name"]').text()).toBe('Glass Hours')
    expect(wrapper.get('[data-testid="playlist-creator"]').text()).toBe('Lumen')
    // The header came with the first rows; the rest of the album was asked for in a page.
    expect(invoke).toHaveBeenCalledWith('catalog:playlist-rows', { id: '50', offset: 2, limit: 2000 })
    expect(rows(wrapper)).toEqual(['Track 1', 'Track 2', 'Track 3'])
    expect(wrapper.find('[data-testid="album-by-search"]').exists()).toBe(false)
  })

  it('finds the songs by search, and says so, when the id is no album playlist', async () => {
    const result: SearchResult = {
      songs: [
        onAlbum(1, 'Glass Hours'),
        onAlbum(3, 'Glass Hours II', 'Lumen', 51),
        onAlbum(2, 'glass hours ', 'Other'),
      ],
      albums: [{ id: 50, name: 'Glass Hours', cover: 'http://x/c.png', artists: [], size: 2 }],
      artists: [],
      playlists: [],
    }
    invoke.mockImplementation(async (channel: string) => {
      if (channel === 'catalog:playlist')
        throw new CadenceError({ kind: 'api', message: 'No playlist with id 50.' })
      if (channel === 'catalog:search') return result
      return undefined
    })
    const wrapper = mountAlbum({ id: '50', name: 'Glass Hours', artist: 'Lumen' })
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('catalog:search', { keywords: 'Glass Hours', limit: 100 })
    expect(wrapper.get('[data-testid="album-by-search"]').text()).toContain('search')
    // Same album id, so the third song counts even under another artist's name; the sequel does not.
    expect(rows(wrapper)).toEqual(['Track 1', 'Track 2'])
    expect(wrapper.get('[data-testid="playlist-count"]').text()).toBe('2 songs')
  })

  it('shows the error, not a search, when the data source cannot be reached', async () => {
    invoke.mockImplementation(async (channel: string) => {
      if (!String(channel).startsWith('catalog:')) return undefined
      throw new CadenceError({ kind: 'network', message: 'The data source is not available' })
    })
    const wrapper = mountAlbum({ id: '50', name: 'Glass Hours' })
    await flushPromises()
    expect(invoke).not.toHaveBeenCalledWith('catalog:search', expect.anything())
    expect(wrapper.get('[role="alert"]').text()).toContain('cannot be reached')
  })
})

describe('albumSongsFromSearch', () => {
  it('matches by name and artist when the songs carry no album id', () => {
    const a = song(1, {
      album: { id: undefined, name: 'Blue', artists: [] },
      artists: [{ id: 1, name: 'Ana' }],
    })
    const b = song(2, {
      album: { id: undefined, name: 'Blue', artists: [] },
      artists: [{ id: 2, name: 'Bo' }],
    })
    const result = { songs: [a, b], albums: [], artists: [], playlists: [] }
    expect(albumSongsFromSearch(result, { name: 'blue', artist: 'ana' }).map((s) => s.id)).toEqual([1])
    expect(albumSongsFromSearch(result, { name: 'Blue' }).map((s) => s.id)).toEqual([1, 2])
  })
})

describe('SongContextMenu', () => {
  it('goes to the album page from "Go to album"', async () => {
    const p = plugins()
    const wrapper = mount(SongContextMenu, {
      props: { song: song(1), at: { x: 0, y: 0 } },
      global: { plugins: [p.pinia, p.i18n, p.router] },
      attachTo: document.body,
    })
    document.querySelector<HTMLButtonElement>('[data-menu-item="album"]')!.click()
    await flushPromises()
    expect(p.router.currentRoute.value.fullPath).toBe('/album/201?name=Album+1&artist=Artist+1')
    wrapper.unmount()
  })

  it('likes the song, and copies its link at the active data source', async () => {
    invoke.mockImplementation(async (channel: string, args: { id: number; like: boolean }) => {
      if (channel === 'catalog:like') return { id: args.id, like: args.like }
      if (channel === 'sources:list')
        return {
          activeId: 'lan',
          sources: [
            { id: 'lan', name: 'LAN', url: 'http://192.168.1.9:4000', builtin: false, insecure: true },
          ],
        }
      return undefined
    })
    const p = plugins()
    const open = () =>
      mount(SongContextMenu, {
        props: { song: song(1), at: { x: 0, y: 0 } },
        global: { plugins: [p.pinia, p.i18n, p.router] },
        attachTo: document.body,
      })
    const first = open()
    const like = document.querySelector<HTMLButtonElement>('[data-menu-item="like"]')!
    expect(like.textContent?.trim()).toBe('Like')
    like.click()
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('catalog:like', { id: 1, like: true })
    first.unmount()
    const second = open()
    expect(document.querySelector('[data-menu-item="like"]')!.textContent?.trim()).toBe('Unlike')
    document.querySelector<HTMLButtonElement>('[data-menu-item="copy-link"]')!.click()
    await flushPromises()
    expect(invoke).toHaveBeenCalledWith('app:copy-text', { text: 'http://192.168.1.9:4000/song/detail?id=1' })
    second.unmount()
  })
})

describe("AlbumView's Download button", () => {
  it('keeps the same song loader when the header re-renders, and a new one when the songs change', async () => {
    let tracks = [onAlbum(1, 'Glass Hours'), onAlbum(2, 'Glass Hours')]
    invoke.mockReset()
    invoke.mockImplementation(async (channel: string) => {
      if (channel === 'albums:detail')
        return { id: 50, name: 'Glass Hours', type: 'album', size: tracks.length, meta: {}, songs: tracks }
      return undefined
    })
    const p = plugins()
    const wrapper = mount(AlbumView, {
      props: { id: '50', name: 'Glass Hours' },
      global: { plugins: [p.pinia, p.i18n, p.router] },
    })
    await flushPromises()
    const loader = () => wrapper.getComponent(DownloadButton).props('songs')
    const first = loader()
    expect((await first()).map((s) => s.id)).toEqual([1, 2])

    // Another language re-renders the header's actions (their labels): the same list, the same loader.
    p.i18n.global.locale.value = 'zh-CN'
    await flushPromises()
    expect(loader()).toBe(first)

    tracks = [onAlbum(3, 'Glass Hours')]
    await wrapper.setProps({ id: '51' })
    await flushPromises()
    expect(loader()).not.toBe(first)
    expect((await loader()()).map((s) => s.id)).toEqual([3])
  })
})
