import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import SearchBox from '@renderer/components/search/SearchBox.vue'
import { useSearchStore } from '@renderer/stores/search'
import { plugins } from './support'

const invoke = vi.fn()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: () => () => {},
}))

const empty = { songs: [], artists: [], albums: [], playlists: [] }

function mountBox() {
  const p = plugins()
  const wrapper = mount(SearchBox, {
    global: { plugins: [p.pinia, p.i18n, p.router] },
    attachTo: document.body,
  })
  return { wrapper, input: wrapper.get('input'), store: useSearchStore(p.pinia) }
}
const searched = () => invoke.mock.calls.filter(([c]) => c === 'catalog:search').map(([, a]) => a.keywords)

describe('SearchBox', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    invoke.mockReset()
    invoke.mockResolvedValue(empty)
    localStorage.clear()
  })
  afterEach(() => vi.useRealTimers())

  it('searches once, ~250 ms after the last keystroke', async () => {
    const { input } = mountBox()
    for (const text of ['n', 'ni', 'nig', 'night']) {
      await input.setValue(text)
      vi.advanceTimersByTime(100)
    }
    expect(searched()).toEqual([])
    vi.advanceTimersByTime(150)
    expect(searched()).toEqual(['night'])
  })

  it('does not search in the middle of an IME composition', async () => {
    const { input } = mountBox()
    await input.trigger('compositionstart')
    for (const text of ['h', 'ha', 'hai', '海']) {
      ;(input.element as HTMLInputElement).value = text
      await input.trigger('input', { isComposing: true })
      vi.advanceTimersByTime(400)
    }
    expect(searched()).toEqual([])
    ;(input.element as HTMLInputElement).value = '海风'
    await input.trigger('compositionend')
    vi.advanceTimersByTime(250)
    expect(searched()).toEqual(['海风'])
  })

  it('searches at once on Enter and clears on Escape', async () => {
    const { input, store } = mountBox()
    await input.setValue('dream')
    await input.trigger('keydown', { key: 'Enter' })
    expect(searched()).toEqual(['dream'])
    await input.trigger('keydown', { key: 'Escape' })
    expect((input.element as HTMLInputElement).value).toBe('')
    expect(store.status).toBe('idle')
  })
})

describe('search store', () => {
  beforeEach(() => {
    vi.useRealTimers()
    invoke.mockReset()
    localStorage.clear()
  })

  it('keeps the newest answer when an older one arrives later', async () => {
    const resolvers: Record<string, (v: unknown) => void> = {}
    invoke.mockImplementation(
      (_c: string, { keywords }: { keywords: string }) => new Promise((r) => (resolvers[keywords] = r)),
    )
    const { store } = mountBox()
    const older = store.search('sea')
    const newer = store.search('sea breeze')
    resolvers['sea breeze']({ ...empty, songs: [{ id: 2, name: 'Newer', tns: [], artists: [] }] })
    await newer
    resolvers['sea']({ ...empty, songs: [{ id: 1, name: 'Older', tns: [], artists: [] }] })
    await older
    await flushPromises()
    expect(store.result?.songs[0].name).toBe('Newer')
    expect(store.status).toBe('ready')
  })

  it('remembers recent searches in localStorage, newest first, without duplicates', async () => {
    invoke.mockResolvedValue(empty)
    const { store } = mountBox()
    await store.search('a')
    await store.search('b')
    await store.search('a')
    expect(store.recent).toEqual(['a', 'b'])
    expect(JSON.parse(localStorage.getItem('cadence.recentSearches')!)).toEqual(['a', 'b'])
  })
})
