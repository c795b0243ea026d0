import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startDataSource } from '../../server/index'
import { data, type Json } from '../conformance/helpers'
import { embedCover, makePicture as picture, makeTrack } from '../support/library-files'
import { OWNER_PASSPHRASE } from '../support/phone'

/** What the importer reads besides tags: covers embedded or beside the files, lyrics (issue 36). */
const root = mkdtempSync(join(tmpdir(), 'cadence-library-read-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('library covers and lyrics', () => {
  it('takes the embedded cover, else cover.* or folder.* beside the files; lyrics from a sidecar and tags', async () => {
    const music = join(root, 'music')
    mkdirSync(join(music, 'Embedded'), { recursive: true })
    mkdirSync(join(music, 'Beside'), { recursive: true })
    mkdirSync(join(music, 'Folder Jpg'), { recursive: true })
    const red = picture(join(root, 'red.png'), 'red')
    const bare = join(root, 'bare.mp3')
    makeTrack(bare, { title: 'Has Picture', artist: 'Painter', album: 'Embedded Album' }, 1)
    embedCover(bare, join(root, 'red.png'), join(music, 'Embedded', 'one.mp3'))
    makeTrack(
      join(music, 'Beside', 'one.flac'),
      { title: 'Beside One', artist: 'Painter', album: 'Beside Album', lyrics: '[00:00.20]Tagged line' },
      2,
    )
    const blue = picture(join(music, 'Beside', 'Cover.png'), 'blue')
    makeTrack(
      join(music, 'Folder Jpg', 'one.mp3'),
      { title: 'Folder One', artist: 'Painter', album: 'Folder Album' },
      3,
    )
    const green = picture(join(music, 'Folder Jpg', 'folder.jpg'), 'green')
    makeTrack(
      join(music, 'Folder Jpg', 'two.mp3'),
      { title: 'Folder Two', artist: 'Painter', album: 'Folder Album' },
      4,
    )

    const server = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir: join(root, 'data'),
      library: music,
      demo: 0,
    })
    try {
      const cover = async (album: string) => {
        const [found] = (
          (await data(server.url, `/search?keywords=${encodeURIComponent(album)}`)).albums as Json[]
        ).filter((a) => a.name === album)
        const res = await fetch(`${server.url}/media/cover/album/${found.id}`)
        return { type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) }
      }
      expect(await cover('Embedded Album')).toEqual({ type: 'image/png', bytes: red })
      expect(await cover('Beside Album')).toEqual({ type: 'image/png', bytes: blue })
      expect(await cover('Folder Album')).toEqual({ type: 'image/jpeg', bytes: green })

      const [tagged] = (await data(server.url, '/search?keywords=Beside%20One')).songs as Json[]
      const detail = await data(server.url, `/song/detail?id=${tagged.id}&uid=1`)
      expect(detail.meta.lyric.normal).toContain('Tagged line')
    } finally {
      await server.close()
    }
  })
})
