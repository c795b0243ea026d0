import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startDataSource, type DataSourceHandle } from '@server/index'
import { AudioStore, createWorkerSynthesizer, type Synthesizer } from '@server/audio/store'
import { openDatabase } from '@server/db/open'
import { synthesizeWav } from '@server/audio/synth'
import { OWNER_PASSPHRASE } from '../support/phone'

/**
 * Demo audio as an anonymous client can drive it (issue 12): synthesis off the event loop, one synthesis
 * per file however many ask, and a cache that stays within its size quota.
 */
let server: DataSourceHandle | undefined
let dataDir = ''

afterEach(async () => {
  await server?.close()
  server = undefined
  rmSync(dataDir, { recursive: true, force: true })
})

async function start(audioCacheBytes?: number) {
  dataDir = mkdtempSync(join(tmpdir(), 'cadence-audio-'))
  server = await startDataSource({
    ownerPassphrase: OWNER_PASSPHRASE,
    dataDir,
    port: 0,
    demo: 40,
    audioCacheBytes,
  })
  return server
}

const audioDirBytes = () =>
  readdirSync(join(dataDir, 'audio')).reduce(
    (sum, name) => sum + statSync(join(dataDir, 'audio', name)).size,
    0,
  )

async function detail(url: string, id: number, br: number) {
  const body = (await (await fetch(`${url}/song/detail?id=${id}&br=${br}`)).json()) as {
    data: { meta?: { url?: string; size?: number } } | null
  }
  return body.data?.meta
}

async function playableIds(url: string, count: number): Promise<number[]> {
  const ids: number[] = []
  for (let id = 1; ids.length < count && id < 200; id++) {
    const res = (await (await fetch(`${url}/song/detail?id=${id}&br=128000`)).json()) as {
      data: { meta?: { url?: string } } | null
    }
    if (res.data?.meta?.url) ids.push(id)
  }
  return ids
}

describe('demo audio cache', () => {
  it('stays within its quota however many files an anonymous client asks for, and serves each', async () => {
    // Learn one 320k file's size, then allow the cache about three of them.
    const probe = await start()
    const ids = await playableIds(probe.url, 12)
    const size = (await detail(probe.url, ids[0], 320000))!.size!
    await probe.close()
    server = undefined
    rmSync(dataDir, { recursive: true, force: true })

    const quota = Math.ceil(size * 3.5)
    const own = await start(quota)
    for (const id of ids) {
      const meta = await detail(own.url, id, 320000)
      expect(meta?.url).toBeTruthy()
      const audio = await fetch(meta!.url!)
      expect(audio.status).toBe(200)
      expect((await audio.arrayBuffer()).byteLength).toBe(meta!.size)
      expect(audioDirBytes()).toBeLessThanOrEqual(quota)
    }
    // An evicted file is made again when it is asked for.
    const first = await detail(own.url, ids[0], 320000)
    expect((await fetch(first!.url!)).status).toBe(200)
    expect(audioDirBytes()).toBeLessThanOrEqual(quota)
  })

  it('synthesises off the event loop: other requests are answered while a lossless file is made', async () => {
    const own = await start()
    const [id] = await playableIds(own.url, 1)
    const order: string[] = []
    const lossless = detail(own.url, id, 1411200).then(() => order.push('lossless'))
    // Give the synthesis a moment to start, then ask something quick.
    await new Promise((resolve) => setTimeout(resolve, 20))
    const health = fetch(`${own.url}/health`).then(() => order.push('health'))
    await Promise.all([lossless, health])
    expect(order).toEqual(['health', 'lossless'])
  })

  it('makes one file once when many ask for it at the same time', async () => {
    await start()
    // A second store over the same data dir (WAL allows another connection), counting what it renders.
    const real = createWorkerSynthesizer()
    let renders = 0
    const counting: Synthesizer = {
      synthesize: (...args) => {
        renders++
        return real.synthesize(...args)
      },
      close: () => real.close(),
    }
    const db = openDatabase(dataDir)
    const store = new AudioStore(db, dataDir, undefined, counting)
    try {
      const { song_id: id, bitrate } = db
        .prepare(
          `SELECT f.song_id, f.bitrate FROM song_files f JOIN songs s ON s.id = f.song_id
           WHERE s.playable = 1 AND f.md5 IS NULL ORDER BY f.bitrate DESC LIMIT 1`,
        )
        .get() as { song_id: number; bitrate: number }
      const files = await Promise.all(Array.from({ length: 8 }, () => store.ensure(id, bitrate)))
      expect(renders).toBe(1)
      expect(new Set(files.map((f) => f?.md5)).size).toBe(1)
      expect(statSync(files[0]!.path).size).toBe(files[0]!.size)
    } finally {
      await store.close()
      db.close()
    }
  })

  it('ends the synthesis worker when idle and starts it again for the next song, with the same bytes', async () => {
    const synth = createWorkerSynthesizer({ idleMs: 50 })
    const sound = { seed: 1234, tempo: 100, durationMs: 2000 }
    try {
      const first = await synth.synthesize(sound, 8000, 1)
      expect(synth.running).toBe(true)
      await vi.waitFor(() => expect(synth.running).toBe(false), { timeout: 5000, interval: 20 })
      const again = await synth.synthesize(sound, 8000, 1)
      expect(synth.running).toBe(true)
      expect(again.equals(first)).toBe(true)
      expect(first.equals(synthesizeWav(sound, 8000, 1))).toBe(true)
    } finally {
      await synth.close()
    }
  })
})
