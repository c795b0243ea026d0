import { parseContentRange, rangeHeader } from '@shared/http/range'
import type { Logger } from '../log'
import type { Timers } from '../ports'
import { BlockedAddressError } from '../net'
import type { FillOptions, MediaOrigin } from './cache-types'
import { MediaCacheError } from './cache-types'
import type { CacheFileHandle, CacheFs } from './fs-port'
import type { LiveFill } from './live-fill'
import type { MediaLimits } from './limits'
import { formatDuration, formatSize, totalDeadlineMs } from './limits'
import type { Prefix, Validator } from './partial'
import { discardPartial, freshPrefix, ifRange, readPrefix, writeValidator } from './partial'

/** How often one transfer asks again for the rest after the connection dropped (bytes had arrived). */
export const MAX_RESUMES = 3
/** The free space is looked at again after this many bytes were written. */
export const SPACE_CHECK_BYTES = 4 * 1024 * 1024

export interface TransferOptions {
  fs: CacheFs
  fetch: typeof fetch
  origin: MediaOrigin
  /** The `.partial` file. */
  partial: string
  /** What readers see while it arrives. */
  live: LiveFill
  fill: FillOptions
  maxBytes: () => number
  log: Logger
  /** The folder is there (made while the request goes out): awaited before anything is written. */
  folder: Promise<unknown>
  /** Told how many bytes an earlier try left (0: none). */
  onPrefix?: (size: number) => void
  /** The file counts against the cache's cap (a played song, not a download): asked at each check. */
  capped: () => boolean
  /** The byte cap, free-space reserve and deadlines. */
  limits: MediaLimits
  /** Free bytes on the cache's disk (undefined: unknown, not checked). */
  freeSpace: () => Promise<number | undefined>
  timers: Timers
}

export interface Transferred {
  size: number
  md5: string
  contentType?: string
}

/**
 * Fetches the origin's file into the `.partial`, checking its size and md5 as it goes. A partial file
 * from an earlier try is continued with `Range: bytes=<size>-` (and `If-Range`): a 206 for that offset is
 * appended, a 200 (a server without ranges, or a file that changed) starts again from zero on the same
 * answer, a 206 for another offset or size, or a 416, start again from zero. A connection that drops after
 * bytes came is asked again for the rest, `MAX_RESUMES` times. The caller renames or deletes the file.
 *
 * Bounded whatever the source does (`limits`): never more bytes than the declared size, or than
 * `unsizedMaxBytes` without one (`too-large`); never below `reserveBytes` of free disk, looked at before the
 * request, when the answer says its length and every `SPACE_CHECK_BYTES` (`disk-full`); no byte for
 * `idleMs`, or the whole file not there by its total deadline, stops it (`network`).
 */
export async function transfer(o: TransferOptions): Promise<Transferred> {
  const cap = o.origin.size ?? o.limits.unsizedMaxBytes
  const prefix = await readPrefix(o.fs, o.partial, cap)
  o.onPrefix?.(prefix.size)
  await checkSpace(o, (o.origin.size ?? 0) - prefix.size)
  const guard = deadlines(o, cap)
  try {
    return await transferWithin(o, prefix, guard)
  } catch (error) {
    throw guard.error() ?? error
  } finally {
    guard.stop()
  }
}

async function transferWithin(o: TransferOptions, prefix: Prefix, guard: Deadlines): Promise<Transferred> {
  let resumes = 0
  const again = (why: string) => {
    if (++resumes > MAX_RESUMES) throw new MediaCacheError('network', why)
    o.log.info('asking again for the rest of a file', { why, from: prefix.size })
  }
  for (;;) {
    const from = prefix.size
    if (from > 0 && from === (o.origin.size ?? prefix.validator?.total)) {
      // An earlier try ended right after the last byte.
      o.live.started(from, prefix.validator?.contentType, from)
      return check(o, prefix, from, prefix.validator?.contentType)
    }
    const response = await request(o, from, prefix.validator, guard)
    guard.alive()
    const status = response.status
    let append = false
    if (from > 0 && status === 206) {
      const range = contentRange(response.headers.get('content-range'))
      const expected = o.origin.size ?? prefix.validator?.total
      if (!range || range.start !== from || (expected !== undefined && range.total !== expected)) {
        await cancel(response)
        await discardPartial(o.fs, o.partial)
        prefix = freshPrefix()
        again('The server answered another part of the file than asked')
        continue
      }
      append = true
    } else if (from > 0 && status === 416) {
      await cancel(response)
      await discardPartial(o.fs, o.partial)
      prefix = freshPrefix()
      again('The server has less of the file than was kept')
      continue
    } else if (status === 200) {
      if (from > 0) {
        // The whole file again: what was kept is replaced from the start of this answer.
        o.live.restart()
        prefix = freshPrefix()
      }
    } else {
      await cancel(response)
      throw new MediaCacheError('http', `The audio answered HTTP ${status}`, status)
    }

    const contentType = response.headers.get('content-type') ?? prefix.validator?.contentType
    const total = o.origin.size ?? totalOf(response) ?? prefix.validator?.total
    if (o.capped() && total !== undefined && total > o.maxBytes()) {
      await cancel(response)
      throw new MediaCacheError('too-large', 'The file is larger than the whole cache')
    }
    if (o.origin.size === undefined && total !== undefined && total > o.limits.unsizedMaxBytes) {
      await cancel(response)
      throw unsizedTooLarge(o.limits)
    }
    if (total !== undefined && total !== o.origin.size) {
      await checkSpace(o, total - prefix.size).catch(async (error: unknown) => {
        await cancel(response)
        throw error
      })
    }
    let noted: Promise<void> = Promise.resolve()
    if (!append) {
      prefix.validator = {
        etag: response.headers.get('etag') ?? undefined,
        lastModified: response.headers.get('last-modified') ?? undefined,
        total,
        contentType: contentType ?? undefined,
      }
      // Written beside the bytes, not before them: readers of the copy do not wait for it.
      const validator = prefix.validator
      noted = o.folder.then(() => writeValidator(o.fs, o.partial, validator))
      noted.catch(() => undefined) // reported below, unless the body failed first
    }
    o.live.started(total, contentType ?? undefined, prefix.size)
    const before = prefix.size
    try {
      await receive(o, response, prefix, append, total, guard)
      await noted
    } catch (error) {
      // The connection dropped after some bytes: ask for the rest (the bytes so far are on disk).
      if (error instanceof Dropped && prefix.size > before && !o.fill.signal?.aborted && !guard.error()) {
        again(error.message)
        continue
      }
      throw error instanceof Dropped ? new MediaCacheError('network', error.message) : error
    }
    return check(o, prefix, total, contentType ?? undefined)
  }
}

/** The connection dropped while the body was being read. */
class Dropped extends Error {}

const unsizedTooLarge = (limits: MediaLimits) =>
  new MediaCacheError(
    'too-large',
    `The data source did not say how large the file is, and it is more than ${formatSize(limits.unsizedMaxBytes)}: not kept`,
  )

/** Refuses to write `need` more bytes (0: any at all) when the disk would be left with less than the reserve. */
async function checkSpace(o: TransferOptions, need: number): Promise<void> {
  const free = await o.freeSpace().catch(() => undefined)
  if (free === undefined || free - Math.max(0, need) >= o.limits.reserveBytes) return
  throw new MediaCacheError(
    'disk-full',
    `Not enough free space (Cadence leaves ${formatSize(o.limits.reserveBytes)} of the disk free)`,
  )
}

/** The idle and total deadlines of one transfer: `signal` aborts its requests when either passes. */
interface Deadlines {
  signal: AbortSignal
  /** A byte (or an answer) came: the idle deadline starts again. */
  alive(): void
  /** Called when a deadline passes (the body being read is cancelled). */
  onPass(callback: () => void): void
  /** Why the transfer was stopped, once a deadline passed. */
  error(): MediaCacheError | undefined
  stop(): void
}

function deadlines(o: TransferOptions, bytes: number): Deadlines {
  const controller = new AbortController()
  const callbacks: Array<() => void> = []
  let why: string | undefined
  const pass = (message: string) => {
    if (why !== undefined) return
    why = message
    o.log.info('a transfer passed its deadline', { why })
    controller.abort()
    for (const callback of callbacks) callback()
  }
  const idleMs = o.limits.idleMs
  const startIdle = () =>
    o.timers.setTimeout(() => pass(`The audio stalled: nothing came for ${formatDuration(idleMs)}`), idleMs)
  let idle = startIdle()
  const totalMs = totalDeadlineMs(o.limits, bytes)
  const total = o.timers.setTimeout(
    () => pass(`The audio took longer than ${formatDuration(totalMs)} to arrive`),
    totalMs,
  )
  return {
    signal: o.fill.signal ? AbortSignal.any([o.fill.signal, controller.signal]) : controller.signal,
    alive() {
      if (why !== undefined) return
      o.timers.clearTimeout(idle)
      idle = startIdle()
    },
    onPass: (callback) => void callbacks.push(callback),
    error: () => (why === undefined ? undefined : new MediaCacheError('network', why)),
    stop() {
      o.timers.clearTimeout(idle)
      o.timers.clearTimeout(total)
    },
  }
}

async function request(o: TransferOptions, from: number, validator: Validator | undefined, guard: Deadlines) {
  const headers: Record<string, string> = {}
  if (from > 0) {
    headers.Range = rangeHeader(from)
    const condition = ifRange(validator)
    if (condition) headers['If-Range'] = condition
  }
  try {
    return await o.fetch(o.origin.url, { headers, signal: guard.signal })
  } catch (error) {
    if (o.fill.signal?.aborted) throw new MediaCacheError('cancelled', 'Cancelled')
    if (error instanceof BlockedAddressError) throw new MediaCacheError('refused', error.message)
    const passed = guard.error()
    if (passed) throw passed
    throw new MediaCacheError('network', `The audio could not be fetched: ${String(error)}`)
  }
}

/** Writes the body after what `prefix` holds, counting and hashing it. */
async function receive(
  o: TransferOptions,
  response: Response,
  prefix: Prefix,
  append: boolean,
  total: number | undefined,
  guard: Deadlines,
): Promise<void> {
  if (!response.body) throw new MediaCacheError('network', 'The answer had no body')
  await o.folder
  const handle: CacheFileHandle = await o.fs.open(o.partial, append ? 'a' : 'w')
  const reader = response.body.getReader()
  // A deadline that passes while a read waits ends it (whether or not the fetch heeds its signal).
  guard.onPass(() => void reader.cancel().catch(() => undefined))
  let spaceCheckedAt = prefix.size
  try {
    for (;;) {
      if (o.fill.signal?.aborted) throw new MediaCacheError('cancelled', 'Cancelled')
      let chunk: ReadableStreamReadResult<Uint8Array>
      try {
        chunk = await reader.read()
      } catch (error) {
        if (o.fill.signal?.aborted) throw new MediaCacheError('cancelled', 'Cancelled')
        throw (
          guard.error() ?? new Dropped(`The connection dropped after ${prefix.size} bytes (${String(error)})`)
        )
      }
      const passed = guard.error()
      if (passed) throw passed
      if (chunk.done) break
      guard.alive()
      const value = chunk.value
      const size = prefix.size + value.byteLength
      if (o.origin.size !== undefined && size > o.origin.size) {
        throw new MediaCacheError('corrupt', `More bytes than the ${o.origin.size} announced`)
      }
      if (o.origin.size === undefined && size > o.limits.unsizedMaxBytes) throw unsizedTooLarge(o.limits)
      if (o.capped() && size > o.maxBytes()) {
        throw new MediaCacheError('too-large', 'The file is larger than the whole cache')
      }
      if (size - spaceCheckedAt >= SPACE_CHECK_BYTES) {
        spaceCheckedAt = size
        await checkSpace(o, 0)
      }
      await handle.write(value)
      prefix.hash.update(value)
      prefix.size = size
      o.live.advance(size, value)
      o.fill.onProgress?.(size, total)
    }
  } finally {
    await reader.cancel().catch(() => undefined)
    await handle.close().catch(() => undefined)
  }
}

/** The size and md5 checks of a complete file. */
function check(
  o: TransferOptions,
  prefix: Prefix,
  total: number | undefined,
  contentType: string | undefined,
): Transferred {
  const md5 = prefix.hash.digest('hex')
  const expected = o.origin.size ?? total
  if (expected !== undefined && prefix.size !== expected) {
    throw new MediaCacheError('corrupt', `Received ${prefix.size} bytes of ${expected}`)
  }
  if (o.origin.md5 && o.origin.md5.toLowerCase() !== md5) {
    throw new MediaCacheError('corrupt', 'The file does not match its md5')
  }
  return { size: prefix.size, md5, contentType }
}

async function cancel(response: Response) {
  await response.body?.cancel().catch(() => undefined)
}

/** An answer's `Content-Range`: where its bytes start and the whole file's size. */
export function contentRange(header: string | null): { start: number; total?: number } | undefined {
  const range = parseContentRange(header)
  if (range?.start === undefined) return undefined
  return { start: range.start, total: range.total }
}

/** The whole file's size from an answer: a 206's `Content-Range`, a 200's `Content-Length`. */
function totalOf(response: Response): number | undefined {
  if (response.status === 206) return contentRange(response.headers.get('content-range'))?.total
  const length = Number(response.headers.get('content-length'))
  return response.headers.has('content-length') && Number.isInteger(length) && length >= 0
    ? length
    : undefined
}
