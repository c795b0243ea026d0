import { describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import { AUTOPLAY_BATCH, autoplayWanted, chooseAutoplay } from '@renderer/services/player/autoplay'

const song = (id: string | number, over: Partial<Song> = {}): Song =>
  ({
    id,
    name: `Song ${id}`,
    tns: [],
    artists: [{ id: 1, name: 'Mira Vale' }],
    duration: 180_000,
    ...over,
  }) as Song
const ids = (songs: Song[]) => songs.map((s) => String(s.id))
const none = new Set<string>()

describe('autoplay', () => {
  it('wants more when two or fewer songs are left, the setting on, and not under repeat-all', () => {
    const base = { enabled: true, repeat: 'off' as const, left: 2, hasSong: true }
    expect(autoplayWanted(base)).toBe(true)
    expect(autoplayWanted({ ...base, left: 3 })).toBe(false)
    expect(autoplayWanted({ ...base, repeat: 'all' })).toBe(false)
    expect(autoplayWanted({ ...base, repeat: 'one' })).toBe(true)
    expect(autoplayWanted({ ...base, enabled: false })).toBe(false)
    expect(autoplayWanted({ ...base, hasSong: false })).toBe(false)
  })

  it('takes the artists’ hot songs first, then recommended, then liked, each song once', () => {
    const chosen = chooseAutoplay(
      { artists: [song(1), song(2)], recommended: [song(2), song(3)], liked: [song(4), song(1)] },
      { queued: none, heard: none },
    )
    expect(ids(chosen)).toEqual(['1', '2', '3', '4'])
  })

  it('never a queued song, one heard in the last hour, one that cannot play, or the free-app placeholder', () => {
    const chosen = chooseAutoplay(
      {
        artists: [song(1), song(2, { privilege: { playable: false, reason: 'VIP' } } as Partial<Song>)],
        recommended: [song('free-app', { duration: 4000 }), song(3), song(4)],
        liked: [song(5)],
      },
      { queued: new Set(['1']), heard: new Set(['3']) },
    )
    expect(ids(chosen)).toEqual(['4', '5'])
  })

  it('offline, only songs on disk', () => {
    const chosen = chooseAutoplay(
      { artists: [song(1), song(2)], recommended: [song(3)], liked: [song(4)] },
      { queued: none, heard: none, onDisk: new Set(['2', '4']) },
    )
    expect(ids(chosen)).toEqual(['2', '4'])
  })

  it('adds a batch at most', () => {
    const many = Array.from({ length: 40 }, (_, i) => song(i + 1))
    expect(
      chooseAutoplay({ artists: many, recommended: [], liked: [] }, { queued: none, heard: none }),
    ).toHaveLength(AUTOPLAY_BATCH)
  })
})
