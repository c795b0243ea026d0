import type { ReadRange } from '@shared/audio/codec'

/** A compressed file read by ranges: its first bytes (already fetched), its length, and more of it. */
export interface CodecFile {
  head: Uint8Array
  size: number
  read: ReadRange
}

/**
 * The bytes of the file around the read position (`frame-decoder.ts`): fetched ahead in blocks, let go
 * once read. What the file's first bytes already hold is taken from them.
 */
export class ByteWindow {
  base = 0
  bytes = new Uint8Array(0)
  constructor(
    private readonly file: CodecFile,
    private readonly end: number,
  ) {}

  get eof() {
    return this.base + this.bytes.length >= this.end
  }

  /** Makes the window start at `at` (keeping what it has from there on). */
  moveTo(at: number) {
    if (at >= this.base && at <= this.base + this.bytes.length)
      this.bytes = this.bytes.subarray(at - this.base)
    else this.bytes = new Uint8Array(0)
    this.base = at
  }

  /** Appends about `size` more bytes; answers false at the end. */
  async more(size: number): Promise<boolean> {
    const from = this.base + this.bytes.length
    if (from >= this.end) return false
    const head = this.file.head
    // What the first bytes already hold is taken from them (a song's start asks for nothing more).
    const to =
      from < head.length ? Math.min(head.length, from + size) - 1 : Math.min(this.end, from + size) - 1
    const got = to < head.length ? head.subarray(from, to + 1) : await this.file.read(from, to)
    if (got.length === 0) return false
    const joined = new Uint8Array(this.bytes.length + got.length)
    joined.set(this.bytes)
    joined.set(got, this.bytes.length)
    this.bytes = joined
    return true
  }
}
