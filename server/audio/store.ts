import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, realpathSync, renameSync, statSync, unlinkSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join, resolve, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { DB } from '../db/sqlite'
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../data-dir'
import { md5OfFile } from '../library/cached-file'
import { decodePath, isInside } from '../library/paths'
import { DEMO_FORMATS, wavSize } from './formats'
import { synthesizeWav, type SongSound } from './synth'

/** Default size quota of the synthesised-audio cache (`--audio-cache-mb`). */
export const DEFAULT_AUDIO_CACHE_BYTES = 512 * 1024 * 1024
/**
 * Audio the server makes (and writes) for requests without a login, in all, per start: past it only
 * signed-in listeners get new files (`--anonymous-audio-mb`). 48 MB, so that with the database's journal
 * (a few MB of md5s and play counts) anonymous requests write under 64 MB.
 */
export const DEFAULT_ANONYMOUS_AUDIO_BYTES = 48 * 1024 * 1024

/** A request without a login asked for audio that would have to be made, past the anonymous bound. */
export class SignInToMakeAudio extends Error {
  constructor() {
    super('This song is played only for signed-in listeners for now. Sign in, then play it again.')
  }
}

/** Who asks: a request without a login may only make audio within the anonymous bound. */
export interface AudioRequest {
  anonymous?: boolean
}

/** Renders demo audio; the default runs in a worker thread so the event loop stays free. */
export interface Synthesizer {
  synthesize(sound: SongSound, rate: number, channels: number): Promise<Buffer>
  close(): Promise<void>
}

/**
 * The worker's file: the built out/main/synth-worker.js beside the bundle, or the TypeScript source. In an
 * installed app the bundle lies in `resources/app.asar`, from which a worker thread cannot start (Electron's
 * asar support does not reach worker_threads): electron-builder.yml unpacks the worker and its chunk to
 * `app.asar.unpacked`, which is taken first. `fs` sees inside the archive, so the packed copy "exists" too.
 */
export function workerFile(base: string = import.meta.url): URL | undefined {
  for (const candidate of ['./synth-worker.js', '../synth-worker.js', './synth-worker.ts']) {
    const url = new URL(candidate, base)
    if (url.protocol !== 'file:') continue
    const unpacked = unpackedPath(fileURLToPath(url))
    if (unpacked && existsSync(unpacked)) return pathToFileURL(unpacked)
    if (existsSync(fileURLToPath(url))) return url
  }
  return undefined
}

/** A path inside an asar archive as its copy in `<archive>.unpacked`; undefined for any other path. */
export function unpackedPath(path: string): string | undefined {
  const parts = path.split(sep)
  const at = parts.findIndex((part, index) => index > 0 && part.endsWith('.asar'))
  if (at < 0) return undefined
  return [...parts.slice(0, at), `${parts[at]}.unpacked`, ...parts.slice(at + 1)].join(sep)
}

/** How long the synthesis worker may sit idle before it ends (`createWorkerSynthesizer`). */
export const SYNTH_IDLE_MS = 30_000

/**
 * The worker's V8 heap: synthesis keeps little on it (the sample buffers are ArrayBuffers, outside it), so
 * a small young generation is enough; measured 17.5 -> 8.3 MB heap after ten lossless files, no slower.
 */
const SYNTH_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 }

export interface WorkerSynthesizer extends Synthesizer {
  /** Whether a worker thread is alive now (it ends after `idleMs` without a job, and starts again on use). */
  readonly running: boolean
}

/**
 * One worker thread, started on first use, jobs answered in any order, ended after `idleMs` without a job:
 * a live worker holds its own V8 heap and its sample buffers (tens of MB after lossless files), which a
 * server that plays now and then should not keep for days. Without a worker file (an unusual bundle) or
 * when the worker dies, synthesis runs inline: slower for other requests, never wrong.
 */
export function createWorkerSynthesizer({ idleMs = SYNTH_IDLE_MS } = {}): WorkerSynthesizer {
  let worker: Worker | undefined
  let broken = false
  let next = 0
  let idle: NodeJS.Timeout | undefined
  const jobs = new Map<number, { resolve: (b: Buffer) => void; reject: (e: Error) => void }>()
  const retire = () => {
    idle = undefined
    const w = worker
    if (!w || jobs.size > 0) return
    worker = undefined
    void w.terminate()
  }
  const start = (): Worker | undefined => {
    clearTimeout(idle)
    idle = undefined
    if (worker || broken) return worker
    const file = workerFile()
    if (!file) {
      broken = true
      return undefined
    }
    const w = new Worker(file, { resourceLimits: SYNTH_RESOURCE_LIMITS })
    w.unref()
    w.on('message', (m: { id: number; bytes?: Uint8Array; error?: string }) => {
      const job = jobs.get(m.id)
      jobs.delete(m.id)
      if (jobs.size === 0 && worker === w) {
        clearTimeout(idle)
        idle = setTimeout(retire, idleMs).unref()
      }
      if (!job) return
      if (m.bytes) job.resolve(Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength))
      else job.reject(new Error(m.error ?? 'synthesis failed'))
    })
    const fail = (error: Error) => {
      // A worker ended on purpose (idle, close) is no failure.
      if (worker !== w) return
      // Said once: every later song is made inline, on the server's event loop.
      process.stderr.write(
        `[cadence-server] the synthesis worker failed (${error.message}); synthesising inline\n`,
      )
      broken = true
      worker = undefined
      for (const job of jobs.values()) job.reject(error)
      jobs.clear()
    }
    w.on('error', fail)
    w.on('exit', (code) => code !== 0 && fail(new Error(`the synthesis worker exited with code ${code}`)))
    worker = w
    return w
  }
  return {
    get running() {
      return worker !== undefined
    },
    synthesize(sound, rate, channels) {
      const w = start()
      if (!w) return Promise.resolve(synthesizeWav(sound, rate, channels))
      const id = ++next
      return new Promise<Buffer>((resolve, reject) => {
        jobs.set(id, { resolve, reject })
        w.postMessage({ id, sound, rate, channels })
      }).catch(() => synthesizeWav(sound, rate, channels))
    },
    async close() {
      clearTimeout(idle)
      const w = worker
      worker = undefined
      broken = true
      await w?.terminate()
      // Jobs still out are made inline (their promise falls back on rejection).
      for (const job of jobs.values()) job.reject(new Error('the synthesizer closed'))
      jobs.clear()
    },
  }
}

export interface MediaFile {
  /** A string, or the exact bytes of an imported file whose name is not UTF-8 (library/paths.ts). */
  path: string | Buffer
  size: number
  md5: string
  mime: string
}

interface FileRow {
  size: number
  md5: string | null
  path: string | null
  mime: string
  seed: number
  tempo: number
  duration_ms: number
  source: string
}

/**
 * Resolves a (song id, bitrate) pair to bytes on disk. Demo audio is synthesised on first use (in a worker,
 * one synthesis per file however many ask at once) and cached under `<dataDir>/audio` within a size quota:
 * past it the least recently used files are deleted (and made again if asked for). Its md5 is stored in the
 * database. Paths never come from the client.
 */
export class AudioStore {
  private readonly dir: string
  private readonly lookup
  private readonly saveMd5
  /** Cached files by name, least recently used first (a Map keeps insertion order). */
  private readonly cached = new Map<string, number>()
  private cachedBytes = 0
  private readonly inFlight = new Map<string, Promise<MediaFile | null>>()
  /** Bytes made for requests without a login since start (counted when a synthesis starts). */
  private anonymousBytes = 0

  constructor(
    db: DB,
    dataDir: string,
    private readonly quotaBytes = DEFAULT_AUDIO_CACHE_BYTES,
    private readonly synth: Synthesizer = createWorkerSynthesizer(),
    private readonly anonymousQuotaBytes = DEFAULT_ANONYMOUS_AUDIO_BYTES,
  ) {
    this.dir = join(dataDir, 'audio')
    mkdirSync(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE })
    const files = readdirSync(this.dir)
      .filter((name) => name.endsWith('.wav'))
      .map((name) => ({ name, st: statSync(join(this.dir, name)) }))
      .sort((a, b) => a.st.mtimeMs - b.st.mtimeMs)
    for (const { name, st } of files) this.remember(name, st.size)
    this.evict()
    this.lookup = db.prepare(
      `SELECT f.size, f.md5, f.path, f.mime, s.seed, s.tempo, s.duration_ms, s.source
       FROM song_files f JOIN songs s ON s.id = f.song_id WHERE f.song_id = ? AND f.bitrate = ? AND s.playable = 1`,
    )
    this.saveMd5 = db.prepare('UPDATE song_files SET md5 = ?, size = ? WHERE song_id = ? AND bitrate = ?')
  }

  /** Bytes the cache holds now (synthesised files on disk). */
  get cacheBytes(): number {
    return this.cachedBytes
  }

  close(): Promise<void> {
    return this.synth.close()
  }

  /**
   * The chosen music folders (as resolved when set): an imported file is served only when its real path
   * (links followed) is inside one of them, so no link, no `..` and no stale entry leads the media route
   * anywhere else.
   */
  setLibraryRoots(roots: string[]): void {
    this.libraryRoots = roots.flatMap((root) => {
      try {
        return [realpathSync.native(Buffer.from(resolve(root)), { encoding: 'buffer' })]
      } catch {
        return [] // not there now: none of its files is served
      }
    })
  }

  private libraryRoots: Buffer[] = []

  private insideLibrary(path: string | Buffer): boolean {
    try {
      const real = realpathSync.native(path, { encoding: 'buffer' })
      return this.libraryRoots.some((root) => isInside(real, root))
    } catch {
      return false
    }
  }

  /** Bytes made for requests without a login since start. */
  get anonymousBytesMade(): number {
    return this.anonymousBytes
  }

  /**
   * Size and md5 without touching the disk when they are known already (for an anonymous request, only
   * when the file is in the cache too: otherwise its URL would make it). Rejects with `SignInToMakeAudio`
   * when an anonymous request would make a file past the anonymous bound.
   */
  async describe(songId: number, bitrate: number, who: AudioRequest = {}): Promise<MediaFile | null> {
    const row = this.lookup.get(songId, bitrate) as FileRow | undefined
    if (!row) return null
    if (row.md5 && row.path) {
      const path = decodePath(row.path)
      if (!this.insideLibrary(path)) return null
      return { path, size: row.size, md5: row.md5, mime: row.mime }
    }
    if (
      row.md5 &&
      row.source === 'demo' &&
      (!who.anonymous || this.cached.has(this.demoName(songId, bitrate)))
    ) {
      return { path: this.demoPath(songId, bitrate), size: row.size, md5: row.md5, mime: row.mime }
    }
    return this.ensure(songId, bitrate, who)
  }

  /**
   * The file, generated if it is a demo song whose bytes are missing. For an anonymous request that would
   * make one past the anonymous bound: rejects with `SignInToMakeAudio`, before anything is made.
   */
  ensure(songId: number, bitrate: number, who: AudioRequest = {}): Promise<MediaFile | null> {
    const key = `${songId}-${bitrate}`
    let pending = this.inFlight.get(key)
    if (!pending) {
      if (who.anonymous && !this.chargeAnonymous(songId, bitrate)) {
        return Promise.reject(new SignInToMakeAudio())
      }
      pending = this.load(songId, bitrate).finally(() => this.inFlight.delete(key))
      this.inFlight.set(key, pending)
    }
    return pending
  }

  /**
   * Counts the file an anonymous request is about to make against the anonymous bound, before it is made
   * (so requests at once cannot all pass): false when it would go past. A file already cached, or not
   * made here (imported), costs nothing.
   */
  private chargeAnonymous(songId: number, bitrate: number): boolean {
    const row = this.lookup.get(songId, bitrate) as FileRow | undefined
    if (!row || row.source !== 'demo' || !DEMO_FORMATS[bitrate]) return true
    if (row.md5 && this.cached.has(this.demoName(songId, bitrate))) return true
    const size = wavSize(row.duration_ms, bitrate)
    if (this.anonymousBytes + size > this.anonymousQuotaBytes) return false
    this.anonymousBytes += size
    return true
  }

  private async load(songId: number, bitrate: number): Promise<MediaFile | null> {
    const row = this.lookup.get(songId, bitrate) as FileRow | undefined
    if (!row) return null
    if (row.source !== 'demo') {
      if (!row.path) return null
      try {
        const path = decodePath(row.path)
        if (!this.insideLibrary(path)) return null
        const st = statSync(path)
        if (!st.isFile()) return null
        // An imported file's md5 is made the first time it is asked for: the import reads no file whole.
        const md5 = row.md5 ?? (await md5OfFile(path))
        if (!row.md5) this.saveMd5.run(md5, st.size, songId, bitrate)
        return { path, size: st.size, md5, mime: row.mime }
      } catch {
        return null
      }
    }
    const format = DEMO_FORMATS[bitrate]
    if (!format) return null
    const path = this.demoPath(songId, bitrate)
    const name = `${songId}-${bitrate}.wav`
    if (row.md5 && this.cached.has(name)) {
      try {
        if (statSync(path).size === row.size) {
          this.remember(name, row.size)
          return { path, size: row.size, md5: row.md5, mime: row.mime }
        }
      } catch {
        // missing: generate below
      }
    }
    const bytes = await this.synth.synthesize(
      { seed: row.seed, tempo: row.tempo, durationMs: row.duration_ms },
      format.rate,
      format.channels,
    )
    const md5 = createHash('md5').update(bytes).digest('hex')
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`
    await writeFile(tmp, bytes, { mode: PRIVATE_FILE_MODE })
    renameSync(tmp, path)
    this.saveMd5.run(md5, bytes.length, songId, bitrate)
    this.remember(name, bytes.length)
    this.evict(name)
    return { path, size: bytes.length, md5, mime: row.mime }
  }

  /** Marks a cached file as just used (moves it to the end of the LRU order). */
  private remember(name: string, size: number): void {
    const had = this.cached.get(name)
    if (had !== undefined) {
      this.cachedBytes -= had
      this.cached.delete(name)
    }
    this.cached.set(name, size)
    this.cachedBytes += size
  }

  /** Deletes least recently used files until the cache fits its quota (never `keep`, the newest). */
  private evict(keep?: string): void {
    for (const [name, size] of this.cached) {
      if (this.cachedBytes <= this.quotaBytes) break
      if (name === keep) continue
      try {
        unlinkSync(join(this.dir, name))
      } catch {
        // already gone
      }
      this.cached.delete(name)
      this.cachedBytes -= size
    }
  }

  private demoName(songId: number, bitrate: number): string {
    return `${songId}-${bitrate}.wav`
  }

  private demoPath(songId: number, bitrate: number): string {
    return join(this.dir, this.demoName(songId, bitrate))
  }
}
