import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import { coverMediaUrl, parseCoverMediaUrl } from '@shared/player/media-url'
import { createMediaHandler } from '@main/core/media'
import { realCacheFs } from '@main/core/media-cache'
import { createExtrasStore, MAX_COVER_BYTES } from '@main/core/offline/extras'

/**
 * Covers kept beside the songs on disk (issue 23), one file per cover address, and served on the media
 * scheme's `cover` route so the renderer shows them without the data source.
 */

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>'
const song = (id: number, cover?: string): Song => ({
  id,
  name: `Song ${id}`,
  tns: [],
  artists: [],
  album: { id: 1, name: 'Album', cover, artists: [], size: undefined },
  duration: undefined,
  privilege: undefined,
  meta: {
    url: 'http://src/media/x',
    size: 10,
    md5: undefined,
    bitrate: 320000,
    isFavorite: undefined,
    lyric: {
      normal: '[00:01.00]la',
      translation: undefined,
      transliteration: undefined,
      wordforword: undefined,
    },
  },
})
const key = (songId: string) => ({ sourceId: 'builtin', songId, bitrate: 320000 })

let dir: string
let asked: string[]
const images: Record<string, { type: string; body: string | Uint8Array<ArrayBuffer> }> = {}
const fakeFetch = (async (input: string | URL | Request) => {
  const url = String(input)
  asked.push(url)
  const image = images[url]
  if (!image) return new Response('missing', { status: 404 })
  return new Response(image.body, { headers: { 'Content-Type': image.type } })
}) as typeof fetch

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cadence-covers-'))
  asked = []
  images['http://src/cover/1.svg'] = { type: 'image/svg+xml', body: SVG }
  images['http://src/cover/2.png'] = {
    type: 'image/png; charset=binary',
    body: new Uint8Array([137, 80, 78, 71]),
  }
  images['http://src/cover/big.png'] = { type: 'image/png', body: new Uint8Array(MAX_COVER_BYTES + 1) }
  images['http://src/cover/page'] = { type: 'text/html', body: '<script>alert(1)</script>' }
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const open = () => createExtrasStore({ fs: realCacheFs, dir, fetch: fakeFetch })

describe('kept covers', () => {
  it('keeps one file per cover address, fetched once for every song of the album, with the lyrics', async () => {
    const extras = open()
    await extras.keep(key('1'), song(1, 'http://src/cover/1.svg'))
    await extras.keep(key('2'), song(2, 'http://src/cover/1.svg'))
    expect(asked).toEqual(['http://src/cover/1.svg'])
    expect(readdirSync(join(dir, 'extras', 'covers'))).toHaveLength(1)
    const kept = await extras.read(key('2'))
    expect(kept?.cover).toMatchObject({ type: 'image/svg+xml', url: 'http://src/cover/1.svg' })
    expect(kept?.lyric?.normal).toBe('[00:01.00]la')
    expect(kept?.song.meta?.url).toBeUndefined()
  })

  it('fetches a cover once when the songs of its album are kept at the same time', async () => {
    const extras = open()
    await Promise.all([1, 2, 3].map((id) => extras.keep(key(String(id)), song(id, 'http://src/cover/1.svg'))))
    expect(asked).toEqual(['http://src/cover/1.svg'])
    for (const id of ['1', '2', '3'])
      expect((await extras.read(key(id)))?.cover).toMatchObject({ url: 'http://src/cover/1.svg' })
    expect(readdirSync(join(dir, 'extras', 'covers'))).toHaveLength(1)
  })

  it('keeps no cover that is not an image, or larger than 2 MiB', async () => {
    const extras = open()
    await extras.keep(key('1'), song(1, 'http://src/cover/page'))
    await extras.keep(key('2'), song(2, 'http://src/cover/big.png'))
    await extras.keep(key('3'), song(3, 'http://src/cover/none.png'))
    expect((await extras.read(key('1')))?.cover).toBeUndefined()
    expect((await extras.read(key('2')))?.cover).toBeUndefined()
    expect(await extras.cover('http://src/cover/page')).toBeUndefined()
    expect(readdirSync(join(dir, 'extras')).filter((n) => n !== 'covers' && !n.endsWith('.json'))).toEqual([])
  })

  it('serves a kept cover on the media scheme, with its type and without the data source', async () => {
    const extras = open()
    await extras.keep(key('1'), song(1, 'http://src/cover/2.png'))
    const handle = createMediaHandler({
      source: { open: () => Promise.reject(new Error('no song expected')) },
      covers: (src) => extras.cover(src),
    })
    const address = coverMediaUrl('http://src/cover/2.png')
    expect(parseCoverMediaUrl(address)).toBe('http://src/cover/2.png')
    const answer = await handle(new Request(address))
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('image/png')
    expect(answer.headers.get('access-control-allow-origin')).toBe('*')
    expect(answer.headers.get('content-security-policy')).toContain('sandbox')
    expect([...new Uint8Array(await answer.arrayBuffer())]).toEqual([137, 80, 78, 71])
    expect(asked).toEqual(['http://src/cover/2.png'])

    expect((await handle(new Request(coverMediaUrl('http://src/cover/other.png')))).status).toBe(404)
    expect((await handle(new Request(address, { method: 'POST' }))).status).toBe(405)
    // Only a data source's http(s) image address names a cover.
    expect(parseCoverMediaUrl(coverMediaUrl('file:///etc/passwd'))).toBeUndefined()
    expect((await handle(new Request(coverMediaUrl('file:///etc/passwd')))).status).toBe(400)
  })

  it('deletes a cover once no kept song refers to it', async () => {
    const extras = open()
    await extras.keep(key('1'), song(1, 'http://src/cover/1.svg'))
    await extras.keep(key('2'), song(2, 'http://src/cover/1.svg'))
    await extras.keep(key('3'), song(3, 'http://src/cover/2.png'))
    expect(await extras.sweep()).toBe(0) // nothing went since the last sweep: nothing read
    await extras.forget(key('1'))
    await extras.forget(key('3'))
    expect(await extras.sweep()).toBe(1)
    expect(await extras.cover('http://src/cover/1.svg')).toBeDefined() // song 2 still has it
    expect(await extras.cover('http://src/cover/2.png')).toBeUndefined()
  })

  it("keeps a downloaded list's header cover while a download refers to it", async () => {
    const extras = open()
    await extras.keepCover('http://src/cover/2.png')
    await extras.keepCover('http://src/cover/2.png')
    await extras.keepCover('file:///etc/passwd')
    expect(asked).toEqual(['http://src/cover/2.png']) // fetched once, and only from http(s)
    expect(await extras.cover('http://src/cover/2.png')).toMatchObject({ type: 'image/png' })

    // No song refers to it, a download's list does: it stays.
    await extras.markSweep()
    expect(await extras.sweep(['http://src/cover/2.png'])).toBe(0)
    expect(await extras.cover('http://src/cover/2.png')).toBeDefined()

    // That download was removed: it goes.
    await extras.markSweep()
    expect(await extras.sweep([])).toBe(1)
    expect(await extras.cover('http://src/cover/2.png')).toBeUndefined()
  })
})
