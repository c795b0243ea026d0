import type { CacheFs } from './fs-port'

export type LiveFillState = 'running' | 'done' | 'failed'

/** The first bytes of a fetch kept in memory for readers: a WAV header read and the first chunks. */
export const HEAD_BYTES = 256 * 1024

/**
 * A song being written into the cache, as others may read it while it arrives: the bytes from 0 to
 * `received` are on disk in `path` (the `.partial` file, then the finished file). The media scheme
 * serves the player from it, so the first play of a song fetches it once (docs/playback.md "Offline").
 *
 * `received` only grows, except when the transfer starts again from zero (a server that answered a
 * resume with the whole file, or a second try after a failed check): readers waiting past it wait on.
 */
export class LiveFill {
  received = 0
  /** The whole file's size, once the answer's headers are in (undefined: the server did not say). */
  total: number | undefined
  contentType: string | undefined
  state: LiveFillState = 'running'
  /** Resolves once the headers are in or the fill ended, whichever comes first; never rejects. */
  readonly ready: Promise<void>
  private markReady!: () => void
  private waiters = new Set<() => void>()
  /**
   * The first bytes as they came (at least `HEAD_BYTES` once that many did): a player starting the song
   * reads its header and first chunk from here, not from the disk.
   */
  private head: Uint8Array[] = []
  private headBytes = 0

  /** Where the bytes are: the `.partial` file, then (renamed when complete and checked) `final`. */
  path: string

  constructor(
    private readonly fs: CacheFs,
    partial: string,
    private readonly final: string,
  ) {
    this.path = partial
    this.ready = new Promise((resolve) => (this.markReady = resolve))
  }

  /** The answer's headers are in: what the file is, and how much of it is already on disk. */
  started(total: number | undefined, contentType: string | undefined, onDisk: number) {
    this.total = total
    this.contentType = contentType
    this.received = onDisk
    this.markReady()
    this.wake()
  }

  /** Bytes up to `received` are written; `chunk` is the last of them (the file's head is kept in memory). */
  advance(received: number, chunk?: Uint8Array) {
    if (chunk && received - chunk.byteLength === this.headBytes && this.headBytes < HEAD_BYTES) {
      this.head.push(chunk)
      this.headBytes = received
    }
    this.received = received
    this.wake()
  }

  /** The transfer starts again from zero (what was on disk is being replaced). */
  restart() {
    this.received = 0
    this.head = []
    this.headBytes = 0
    this.wake()
  }

  finish(size: number, contentType?: string) {
    this.path = this.final
    this.received = size
    this.total = size
    this.contentType = contentType ?? this.contentType
    this.state = 'done'
    this.markReady()
    this.wake()
  }

  fail() {
    if (this.state !== 'running') return
    this.state = 'failed'
    this.markReady()
    this.wake()
  }

  /** Resolves once the byte at `offset` is on disk, or the fill ended (check `received` after). */
  waitFor(offset: number): Promise<void> {
    if (this.received > offset || this.state !== 'running') return Promise.resolve()
    return new Promise((resolve) => {
      const check = () => {
        if (this.received > offset || this.state !== 'running') {
          this.waiters.delete(check)
          resolve()
        }
      }
      this.waiters.add(check)
    })
  }

  /**
   * Up to `length` bytes from `position`, never past `received`. The file is opened for each read: it
   * may be renamed (finished) or replaced (started again) between two reads. Throws when it is gone.
   */
  async read(position: number, length: number): Promise<Uint8Array> {
    const count = Math.max(0, Math.min(length, this.received - position))
    if (count === 0) return new Uint8Array(0)
    if (position + count <= this.headBytes) return this.fromHead(position, count)
    const path = this.path
    const handle = await this.fs.open(path, 'r').catch((error: unknown) => {
      // Renamed meanwhile (the bytes are the same at the same offsets): read the finished file.
      if (path !== this.final) return this.fs.open(this.final, 'r')
      throw error
    })
    try {
      const buffer = new Uint8Array(count)
      let filled = 0
      while (filled < count) {
        const { bytesRead } = await handle.read(buffer, filled, count - filled, position + filled)
        if (bytesRead === 0) break
        filled += bytesRead
      }
      return buffer.subarray(0, filled)
    } finally {
      await handle.close().catch(() => undefined)
    }
  }

  private fromHead(position: number, count: number): Uint8Array {
    const out = new Uint8Array(count)
    let at = 0 // offset of the current chunk in the file
    for (const chunk of this.head) {
      const from = Math.max(position, at)
      const to = Math.min(position + count, at + chunk.byteLength)
      if (from < to) out.set(chunk.subarray(from - at, to - at), from - position)
      at += chunk.byteLength
      if (at >= position + count) break
    }
    return out
  }

  private wake() {
    for (const waiter of [...this.waiters]) waiter()
  }
}
