import { createHash } from 'node:crypto'
import { close, createReadStream, fstat, open, read, type Stats } from 'node:fs'
import type { RawPath } from './paths'

/** What one block read from the disk holds: tag parsers read a few bytes at a time, the disk is asked in blocks. */
export const BLOCK = 64 * 1024

/** Blocks kept per open file: the head (tags), the tail (ID3v1, APE, MP4's `moov` at the end) and some room. */
const KEEP = 8

/** Reads from the disk while a scan runs: what a figure of the import counts. */
export interface ReadCounts {
  opens: number
  reads: number
  bytes: number
}

export const readCounts: ReadCounts = { opens: 0, reads: 0, bytes: 0 }

/**
 * One audio file opened once for the whole of its reading (tags, duration, identity): reads of any size at
 * any offset, answered from 64 KB blocks read once each. music-metadata's tokenizer asks for a token of a
 * few bytes at a time, each of which was a read through the thread pool; here a small file is one read.
 * Has the `read`/`stat`/`close` of a `FileHandle` that strtok3's `FileTokenizer` and identity.ts use;
 * `close` is a no-op for them (the owner ends it with `release`).
 */
export class CachedFile {
  private readonly blocks = new Map<number, Buffer>()

  private constructor(
    private readonly fd: number,
    readonly stats: Stats,
  ) {}

  // On the callback API with a plain descriptor: a `FileHandle`'s promises cost more than the reads.
  static open(path: RawPath): Promise<CachedFile> {
    return new Promise((resolvePromise, reject) =>
      open(path, 'r', (error, fd) => {
        if (error) return reject(error)
        readCounts.opens++
        fstat(fd, (statError, stats) => {
          if (statError) close(fd, () => reject(statError))
          else resolvePromise(new CachedFile(fd, stats))
        })
      }),
    )
  }

  private readAt(
    target: NodeJS.ArrayBufferView,
    offset: number,
    length: number,
    at: number,
  ): Promise<number> {
    return new Promise((resolvePromise, reject) =>
      read(this.fd, target, offset, length, at, (error, bytesRead) => {
        if (error) return reject(error)
        readCounts.reads++
        readCounts.bytes += bytesRead
        resolvePromise(bytesRead)
      }),
    )
  }

  get size(): number {
    return this.stats.size
  }

  stat(): Promise<Stats> {
    return Promise.resolve(this.stats)
  }

  private async block(index: number): Promise<Buffer> {
    const kept = this.blocks.get(index)
    if (kept) {
      // Most recently used last.
      this.blocks.delete(index)
      this.blocks.set(index, kept)
      return kept
    }
    const buf = Buffer.allocUnsafe(Math.max(0, Math.min(BLOCK, this.stats.size - index * BLOCK)))
    let filled = 0
    while (filled < buf.length) {
      const bytesRead = await this.readAt(buf, filled, buf.length - filled, index * BLOCK + filled)
      if (bytesRead === 0) break
      filled += bytesRead
    }
    const got = buf.subarray(0, filled)
    this.blocks.set(index, got)
    if (this.blocks.size > KEEP) this.blocks.delete(this.blocks.keys().next().value!)
    return got
  }

  /** As `FileHandle.read`: up to `length` bytes at `position` into `buffer` at `offset`; fewer at the end. */
  async read<T extends NodeJS.ArrayBufferView>(
    buffer: T,
    offset = 0,
    length = buffer.byteLength - offset,
    position: number | null = 0,
  ): Promise<{ bytesRead: number; buffer: T }> {
    const at = position ?? 0
    const target = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
    const end = Math.min(at + length, this.stats.size)
    // A long read past what is kept (a whole frame run) goes to the disk at once.
    if (end - at > KEEP * BLOCK) {
      const bytesRead = await this.readAt(target, offset, end - at, at)
      return { bytesRead, buffer }
    }
    let done = 0
    while (at + done < end) {
      const index = Math.floor((at + done) / BLOCK)
      const block = await this.block(index)
      const from = at + done - index * BLOCK
      if (from >= block.length) break
      const n = Math.min(block.length - from, end - at - done)
      target.set(block.subarray(from, from + n), offset + done)
      done += n
    }
    return { bytesRead: done, buffer }
  }

  /** For the tokenizer's close: the file stays open for the next reader. */
  close(): Promise<void> {
    return Promise.resolve()
  }

  release(): Promise<void> {
    this.blocks.clear()
    return new Promise((resolvePromise) => close(this.fd, () => resolvePromise()))
  }
}

/** The md5 of a whole file, read in a stream (an imported file's, the first time it is asked for). */
export function md5OfFile(path: string | RawPath): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const hash = createHash('md5')
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolvePromise(hash.digest('hex')))
  })
}
