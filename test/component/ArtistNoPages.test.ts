import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { CadenceError } from '@shared/errors'
import ArtistView from '@renderer/views/ArtistView.vue'
import SongList from '@renderer/components/song/SongList.vue'
import { plugins, song } from './support'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => {},
}))

describe('ArtistView on a data source without artist pages', () => {
  beforeEach(() => invoke.mockReset())

  it('says the data source has no artist pages when the route is missing, and song rows stop linking to them', async () => {
    invoke.mockImplementation(async (channel: string) => {
      if (channel === 'catalog:artist')
        throw new CadenceError({
          name: 'DataSourceError',
          kind: 'http',
          status: 404,
          endpoint: '/artist/detail',
          message: 'The data source answered HTTP 404 Not Found',
        })
      if (channel === 'sources:list') return { sources: [], activeId: 'qq' }
      return undefined
    })
    const p = plugins()
    const global = { plugins: [p.pinia, p.i18n, p.router] }
    const list = mount(SongList, { props: { songs: [song(1)], label: 'Songs' }, global })
    expect(list.find('a[data-artist]').exists()).toBe(true)

    const view = mount(ArtistView, { props: { id: '7' }, global })
    await flushPromises()
    expect(view.get('[data-testid="artist-no-pages"]').text()).toContain('no artist pages')
    expect(view.find('[role="alert"]').exists()).toBe(false)
    await flushPromises()
    expect(list.find('a[data-artist]').exists()).toBe(false)
    expect(list.text()).toContain('Artist 1')
  })

  it('shows an unknown artist as an error with Retry, not as missing pages', async () => {
    invoke.mockImplementation(async (channel: string) => {
      if (channel === 'catalog:artist')
        throw new CadenceError({
          kind: 'api',
          code: 404,
          status: 404,
          endpoint: '/artist/detail',
          message: 'No such artist',
        })
      return undefined
    })
    const p = plugins()
    const view = mount(ArtistView, { props: { id: '7' }, global: { plugins: [p.pinia, p.i18n, p.router] } })
    await flushPromises()
    expect(view.find('[data-testid="artist-no-pages"]').exists()).toBe(false)
    expect(view.get('[role="alert"]').text()).toContain('No such artist')
  })
})
