import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import PlaylistHeader from '@renderer/components/playlist/PlaylistHeader.vue'
import type { Playlist } from '@shared/api/models'
import { plugins, song } from './support'

const list = (extra: Partial<Playlist>): Playlist => ({
  id: 1,
  name: 'A',
  type: 'album',
  cover: undefined,
  size: undefined,
  creator: undefined,
  songs: undefined,
  description: undefined,
  meta: undefined,
  ...extra,
})

function mountHeader(props: InstanceType<typeof PlaylistHeader>['$props']) {
  const p = plugins()
  return mount(PlaylistHeader, { props, global: { plugins: [p.pinia, p.i18n, p.router] } })
}
const disabled = (wrapper: ReturnType<typeof mountHeader>, id: string) =>
  wrapper.get(`[data-testid="${id}"]`).attributes('disabled') !== undefined

describe('PlaylistHeader', () => {
  it('offers Play all and Shuffle when its songs play and no one said otherwise', () => {
    const wrapper = mountHeader({
      playlist: list({ songs: [song(1)] }),
      kind: 'Album',
    })
    expect(disabled(wrapper, 'play-all')).toBe(false)
    expect(disabled(wrapper, 'shuffle')).toBe(false)
  })

  it('greys them out when no song plays, or when the list says so', () => {
    const none = song(1, { privilege: { playable: false, bitrates: [] } })
    const wrapper = mountHeader({
      playlist: list({ songs: [none] }),
      kind: 'Album',
    })
    expect(disabled(wrapper, 'play-all')).toBe(true)
    const paged = mountHeader({
      playlist: list({ size: 3 }),
      kind: 'Album',
      playable: false,
    })
    expect(disabled(paged, 'shuffle')).toBe(true)
    const pagedOk = mountHeader({
      playlist: list({ size: 3 }),
      kind: 'Album',
      playable: true,
    })
    expect(disabled(pagedOk, 'shuffle')).toBe(false)
  })

  it('shows a paged list’s total time from main, and none when main does not know it', () => {
    const known = mountHeader({ playlist: { ...list({ size: 300 }), duration: 3_725_000 }, kind: 'Playlist' })
    expect(known.get('[data-testid="playlist-duration"]').text()).toBe('1 h 2 min')
    const unknown = mountHeader({ playlist: list({ size: 3000 }), kind: 'Playlist' })
    expect(unknown.find('[data-testid="playlist-duration"]').exists()).toBe(false)
  })
})
