import { describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import { isUrlFresh, playableUrl, SIGNED_URL_MAX_AGE_MS } from '@shared/player/signed-url'
import { createUrlCache } from '@main/core/media/song-url'

const song = (over: Partial<Song> = {}): Song => ({
  id: 1,
  name: 'a',
  tns: [],
  artists: [],
  album: undefined,
  duration: undefined,
  privilege: { playable: true, reason: undefined, bitrates: [320000], maxBitrate: 320000 },
  meta: {
    isFavorite: false,
    url: 'http://x/1.mp3',
    size: 10,
    md5: undefined,
    bitrate: 320000,
    lyric: undefined,
  },
  ...over,
})

describe('playableUrl', () => {
  it('gives the signed URL of a playable song, and none for a refused song or one without a URL', () => {
    expect(playableUrl(song())).toBe('http://x/1.mp3')
    expect(
      playableUrl(
        song({ privilege: { playable: false, reason: 'no', bitrates: [], maxBitrate: undefined } }),
      ),
    ).toBeUndefined()
    expect(playableUrl(song({ meta: undefined }))).toBeUndefined()
    expect(playableUrl(song({ meta: { ...song().meta!, url: '' } }))).toBeUndefined()
  })
})

describe('isUrlFresh', () => {
  it('keeps a URL younger than the signed-URL age and drops it at that age', () => {
    expect(isUrlFresh(1000, 1000 + SIGNED_URL_MAX_AGE_MS - 1)).toBe(true)
    expect(isUrlFresh(1000, 1000 + SIGNED_URL_MAX_AGE_MS)).toBe(false)
  })
})

describe('createUrlCache', () => {
  it('answers a remembered URL while it is young, then no more', () => {
    let now = 0
    const cache = createUrlCache<{ url: string; at: number }>({ now: () => now })
    cache.remember('a', { url: 'u', at: 0 })
    now = SIGNED_URL_MAX_AGE_MS - 1
    expect(cache.get('a')?.url).toBe('u')
    now = SIGNED_URL_MAX_AGE_MS
    expect(cache.get('a')).toBeUndefined()
  })

  it('forgets a URL once taken, and the oldest past its size', () => {
    const cache = createUrlCache<{ url: string; at: number }>({ now: () => 0, max: 2 })
    cache.remember('a', { url: 'a', at: 0 })
    cache.remember('b', { url: 'b', at: 0 })
    cache.remember('c', { url: 'c', at: 0 })
    expect(cache.get('a')).toBeUndefined()
    expect(cache.take('b')?.url).toBe('b')
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('c')?.url).toBe('c')
  })

  it('asks once however many wait for the same key, and remembers the answer', async () => {
    const cache = createUrlCache<{ url: string; at: number }>({ now: () => 0 })
    let asked = 0
    const run = async () => {
      asked++
      return { url: 'r', at: 0 }
    }
    const [a, b] = await Promise.all([cache.resolve('k', run), cache.resolve('k', run)])
    expect([a.url, b.url, asked]).toEqual(['r', 'r', 1])
    expect(cache.get('k')?.url).toBe('r')
  })

  it('remembers nothing when the resolve fails, and asks again next time', async () => {
    const cache = createUrlCache<{ url: string; at: number }>({ now: () => 0 })
    await expect(cache.resolve('k', () => Promise.reject(new Error('no')))).rejects.toThrow('no')
    expect(cache.get('k')).toBeUndefined()
    await expect(cache.resolve('k', async () => ({ url: 'r', at: 0 }))).resolves.toMatchObject({ url: 'r' })
  })
})
