import { describe, expect, it } from 'vitest'
import type { Playlist } from '@shared/api/models'
import { findLikedPlaylist } from '@main/core/likes'

const playlist = (
  id: string | number,
  creator: string | number,
  meta?: Record<string, unknown>,
): Playlist => ({
  id,
  name: String(id),
  cover: undefined,
  size: 1,
  creator: { id: creator, name: 'x', avatar: undefined, description: undefined },
  songs: undefined,
  type: 'normal',
  description: undefined,
  meta,
})

describe('findLikedPlaylist', () => {
  it("takes the playlist a server marks, else the user's first real one (NeteaseMusicAdapter's virtual lists first)", () => {
    expect(findLikedPlaylist([playlist(3, 7), playlist(9, 7, { kind: 'liked' })], 7)).toBe(9)
    const netease = [
      playlist('key_daily_songs', 7),
      playlist('key_personal_fm', 7),
      playlist('key_cloud_disk', 7),
      playlist('key_heartbeat_5001_7', 7),
      playlist(5001, 7),
      playlist(5002, 7),
    ]
    expect(findLikedPlaylist(netease, 7)).toBe(5001)
    // Someone else's playlist (a subscribed one) is never taken for the user's liked songs.
    expect(findLikedPlaylist([playlist(8, 99), playlist('6000', 7)], 7)).toBe('6000')
    expect(findLikedPlaylist([playlist('key_daily_songs', 7)], 7)).toBeUndefined()
  })
})
