import { id3v2Size } from './container'
import type { Container, ReadRange } from './container'
import { openFlac } from './flac'
import { openMp3 } from './mp3'
import { openMp4 } from './mp4'

/** Bytes read once after an ID3v2 tag longer than the first bytes, for every reader to look at. */
const AFTER_TAG_BYTES = 64 * 1024

/**
 * The container of a file from its first bytes (FLAC, AAC in MP4, MP3), or undefined when none reads
 * it. `size`: the file's length; `read`: more of it by range.
 */
export async function openContainer(
  head: Uint8Array,
  size: number,
  read: ReadRange,
): Promise<Container | undefined> {
  const shared = readAfterTag(head, size, read)
  return (
    (await openFlac(head, size, shared)) ??
    (await openMp4(head, size, shared)) ??
    (await openMp3(head, size, shared))
  )
}

/**
 * `read`, but where the file starts with an ID3v2 tag longer than `head` (an MP3's embedded cover),
 * the bytes after the tag are asked once: the FLAC and the MP3 reader both look there, and each
 * request is a round trip to the data source before the song can start.
 */
function readAfterTag(head: Uint8Array, size: number, read: ReadRange): ReadRange {
  const tag = id3v2Size(head)
  if (tag + 4 <= head.length || tag >= size) return read
  let after: Promise<Uint8Array> | undefined
  return async (start, end) => {
    if (start >= tag && end < tag + AFTER_TAG_BYTES) {
      after ??= read(tag, Math.min(size, tag + AFTER_TAG_BYTES) - 1)
      const bytes = await after
      if (end - tag < bytes.length) return bytes.subarray(start - tag, end - tag + 1)
    }
    return read(start, end)
  }
}
