import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { synthesizeWav } from '../../server/audio/synth'
import { openDatabase } from '../../server/db/open'
import { importLibrary } from '../../server/library/import'
import { startDataSource } from '../../server/index'
import { data, type Json } from '../conformance/helpers'
import { OWNER_PASSPHRASE } from '../support/phone'

/** A WAV file with RIFF INFO tags (title, artist, album, track) appended after the audio. */
function taggedWav(seed: number, durationMs: number, tags: Record<string, string>): Buffer {
  const wav = synthesizeWav({ seed, tempo: 100, durationMs }, 8000, 1)
  const chunks = Object.entries(tags).map(([id, text]) => {
    const value = Buffer.from(text + '\0', 'utf8')
    const padded = value.length % 2 ? Buffer.concat([value, Buffer.alloc(1)]) : value
    const head = Buffer.alloc(8)
    head.write(id, 0, 'ascii')
    head.writeUInt32LE(value.length, 4)
    return Buffer.concat([head, padded])
  })
  const body = Buffer.concat([Buffer.from('INFO', 'ascii'), ...chunks])
  const list = Buffer.alloc(8)
  list.write('LIST', 0, 'ascii')
  list.writeUInt32LE(body.length, 4)
  const out = Buffer.concat([wav, list, body])
  out.writeUInt32LE(out.length - 8, 4)
  return out
}

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe('library import', () => {
  const root = mkdtempSync(join(tmpdir(), 'cadence-library-'))
  dirs.push(root)
  const music = join(root, 'music')
  mkdirSync(join(music, 'Album A'), { recursive: true })
  const first = join(music, 'Album A', '01 First Light.wav')
  writeFileSync(
    first,
    taggedWav(1, 3000, { INAM: 'First Light', IART: 'Test Artist', IPRD: 'Album A', ITRK: '1' }),
  )
  writeFileSync(
    join(music, 'Album A', '01 First Light.lrc'),
    '[00:00.500]Hello from a sidecar\n[00:01.500]Second line\n',
  )
  writeFileSync(
    join(music, 'untagged 夜.wav'),
    synthesizeWav({ seed: 2, tempo: 90, durationMs: 2000 }, 8000, 1),
  )
  writeFileSync(join(music, 'broken.mp3'), Buffer.from('this is not audio at all '.repeat(50)))
  writeFileSync(join(music, 'notes.txt'), 'ignored')

  it('imports tags, duration, bitrate and sidecar lyrics; skips garbage; serves the file bytes', async () => {
    const server = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir: join(root, 'data'),
      library: music,
      demo: 0,
    })
    try {
      const found = await data(server.url, '/search?keywords=First%20Light')
      expect(found.songs).toHaveLength(1)
      const song = found.songs[0]
      expect(song.artists.map((a: Json) => a.name)).toEqual(['Test Artist'])
      expect(song.album.name).toBe('Album A')
      const albums = await data(server.url, '/search?keywords=Album%20A')
      expect(albums.albums.map((a: Json) => a.name)).toContain('Album A')
      const album = await data(server.url, `/playlist/detail?id=${song.album.id}`)
      expect(album.type).toBe('album')
      expect(album.songs.map((s: Json) => s.id)).toEqual([song.id])
      const detail = await data(server.url, `/song/detail?id=${song.id}&uid=1`)
      expect(detail.duration).toBe(3000)
      expect(detail.privilege.bitrates).toEqual([128000])
      expect(detail.meta.bitrate).toBe(128000)
      expect(detail.meta.lyric.normal).toContain('Hello from a sidecar')
      const bytes = Buffer.from(await (await fetch(detail.meta.url)).arrayBuffer())
      expect(bytes.equals(readFileSync(first))).toBe(true)
      expect(detail.meta.md5).toBe(createHash('md5').update(bytes).digest('hex'))
      expect(detail.meta.size).toBe(bytes.length)

      const untagged = await data(server.url, '/search?keywords=%E5%A4%9C')
      expect(untagged.songs.map((s: Json) => s.name)).toContain('untagged 夜')
      expect(untagged.songs[0].artists[0].name).toBe('Unknown Artist')
      const broken = await data(server.url, '/search?keywords=broken')
      expect(broken.songs).toHaveLength(0)
    } finally {
      await server.close()
    }
  })

  it('rescans only changed files, and removes deleted ones', async () => {
    const db = openDatabase(join(root, 'data'))
    try {
      const again = await importLibrary(db, music, join(root, 'data'))
      expect(again).toMatchObject({ added: 0, updated: 0, removed: 0, unchanged: 2 })
      expect(again.failed.map((f) => f.path)).toEqual([join(music, 'broken.mp3')])

      writeFileSync(
        first,
        taggedWav(3, 4000, { INAM: 'First Light (Remix)', IART: 'Test Artist', IPRD: 'Album A' }),
      )
      utimesSync(first, new Date(), new Date(Date.now() + 5000))
      unlinkSync(join(music, 'untagged 夜.wav'))
      const changed = await importLibrary(db, music, join(root, 'data'))
      expect(changed).toMatchObject({ added: 0, updated: 1, removed: 1, unchanged: 0 })
      const row = db.prepare("SELECT name, duration_ms FROM songs WHERE source = 'library'").all()
      expect(row).toEqual([{ name: 'First Light (Remix)', duration_ms: 4000 }])
    } finally {
      db.close()
    }
  })
})
