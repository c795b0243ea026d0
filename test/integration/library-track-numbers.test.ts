import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { songSchema } from '@shared/api/models'
import { startDataSource } from '../../server/index'
import { data, type Json } from '../conformance/helpers'
import { makeTrack } from '../support/library-files'
import { OWNER_PASSPHRASE } from '../support/phone'

/**
 * A music folder's songs carry their track and disc numbers (`no`, `cd`, as NeteaseMusicAdapter names
 * them) in lists and in their details, so the player can tell an album played in its order (ReplayGain's
 * album mode); a song without a track number has neither.
 */
const root = mkdtempSync(join(tmpdir(), 'cadence-library-track-numbers-'))
const music = join(root, 'music')
let url = ''
let close: (() => Promise<void>) | undefined

beforeAll(async () => {
  mkdirSync(music)
  const album = { artist: 'Numbered', albumArtist: 'Numbered', album: 'Numbered Album' }
  makeTrack(join(music, 'a.flac'), { ...album, title: 'Numbered One', disc: 1, track: 7 }, 1)
  makeTrack(join(music, 'b.flac'), { ...album, title: 'Numbered Two', disc: 2, track: 1 }, 2)
  makeTrack(join(music, 'c.flac'), { artist: 'Numbered', title: 'Numbered Loose' }, 3)
  const server = await startDataSource({
    ownerPassphrase: OWNER_PASSPHRASE,
    dataDir: join(root, 'data'),
    library: music,
    demo: 0,
  })
  url = server.url
  close = () => server.close()
}, 120_000)
afterAll(async () => {
  await close?.()
  rmSync(root, { recursive: true, force: true })
})

describe('library songs: track and disc numbers', () => {
  it('gives no and cd in search results and song details, as the app reads them', async () => {
    const found = (await data(url, '/search?keywords=Numbered')).songs as Json[]
    const places = Object.fromEntries(
      found.map((s) => {
        const song = songSchema.parse(s)
        return [song.name, [song.no, song.cd]]
      }),
    )
    expect(places).toEqual({
      'Numbered One': [7, '1'],
      'Numbered Two': [1, '2'],
      'Numbered Loose': [undefined, undefined],
    })
    const one = found.find((s) => s.name === 'Numbered One')!
    const detail = songSchema.parse(await data(url, `/song/detail?id=${one.id}`))
    expect([detail.no, detail.cd]).toEqual([7, '1'])
  })
})
