import { createHash } from 'node:crypto'
import type { Hash } from 'node:crypto'
import type { CacheFs } from './fs-port'
import { errorCode } from './fs-port'
import { hashInto } from './file-io'
import type { CacheKey } from './cache-index'
import { fileNameFor } from './cache-index'

/**
 * A file being fetched is written to `<name>.audio.partial` (one name per song, so a later try finds it),
 * beside `<name>.audio.partial.json`: what the server said about the file (its validator, size and type),
 * so a resumed request can ask for the rest of *that* file (`If-Range`). A download keeps both across a
 * pause, a failure or a restart; anything else deletes them when it stops.
 */
export const PARTIAL_EXT = '.partial'
export const SIDECAR_EXT = '.partial.json'

export const partialPath = (audioPath: string) => audioPath + PARTIAL_EXT
export const sidecarPath = (partial: string) => partial + '.json'

/** What the first answer said about the file: asked again with `If-Range` when resuming. */
export interface Validator {
  etag?: string
  lastModified?: string
  total?: number
  contentType?: string
}

/** The bytes already on disk and their running md5. */
export interface Prefix {
  size: number
  hash: Hash
  validator?: Validator
}

export const freshPrefix = (): Prefix => ({ size: 0, hash: createHash('md5') })

/**
 * The partial file left by an earlier try, hashed so far (the md5 of the whole file is checked at the
 * end), or a fresh start when there is none, it is empty, or it is longer than the file can be.
 */
export async function readPrefix(fs: CacheFs, partial: string, maxSize?: number): Promise<Prefix> {
  let size: number
  try {
    size = (await fs.stat(partial)).size
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return freshPrefix()
    throw error
  }
  let validator: Validator | undefined
  try {
    validator = parseValidator(JSON.parse(await fs.readFile(sidecarPath(partial), 'utf8')))
  } catch {
    validator = undefined
  }
  if (size === 0 || (maxSize !== undefined && size > maxSize) || (validator?.total ?? size) < size) {
    await discardPartial(fs, partial)
    return freshPrefix()
  }
  const hash = createHash('md5')
  const hashed = await hashInto(fs, partial, hash, size)
  return { size: hashed, hash, validator }
}

export async function writeValidator(fs: CacheFs, partial: string, validator: Validator): Promise<void> {
  await fs.writeFile(sidecarPath(partial), JSON.stringify(validator))
}

export async function discardPartial(fs: CacheFs, partial: string): Promise<void> {
  await fs.rm(partial, { force: true }).catch(() => undefined)
  await fs.rm(sidecarPath(partial), { force: true }).catch(() => undefined)
}

function parseValidator(value: unknown): Validator | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const v = value as Record<string, unknown>
  const out: Validator = {}
  if (typeof v.etag === 'string') out.etag = v.etag
  if (typeof v.lastModified === 'string') out.lastModified = v.lastModified
  if (typeof v.total === 'number' && Number.isInteger(v.total) && v.total >= 0) out.total = v.total
  if (typeof v.contentType === 'string') out.contentType = v.contentType
  return out
}

/** The `If-Range` to send: a strong ETag, else the date (a weak ETag may not be used for ranges). */
export function ifRange(validator: Validator | undefined): string | undefined {
  if (validator?.etag && !validator.etag.startsWith('W/')) return validator.etag
  return validator?.lastModified
}

/**
 * Deletes the partial files (and their sidecars) in `dir` but those of `keep`'s songs. Matched by file
 * name, not by decoding it: a key too long for a readable name has a hashed one, which cannot be decoded
 * but must resume all the same.
 */
export async function prunePartials(fs: CacheFs, dir: string, keep: Iterable<CacheKey>) {
  const kept = new Set<string>()
  for (const key of keep) kept.add(fileNameFor(key))
  const names = await fs.readdir(dir).catch(() => [] as string[])
  for (const name of names) {
    const base = name.endsWith(SIDECAR_EXT)
      ? name.slice(0, -SIDECAR_EXT.length)
      : name.endsWith(PARTIAL_EXT)
        ? name.slice(0, -PARTIAL_EXT.length)
        : undefined
    if (base === undefined || kept.has(base)) continue
    await fs.rm(`${dir}/${name}`, { force: true }).catch(() => undefined)
  }
}
