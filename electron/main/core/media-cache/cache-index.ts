import { createHash } from 'node:crypto'
import type { CacheFs } from './fs-port'
import { errorCode } from './fs-port'

/** Which file: one data source's song at one bitrate. */
export interface CacheKey {
  sourceId: string
  songId: string
  bitrate: number
}

export interface CacheEntry extends CacheKey {
  /** File name inside the cache folder. */
  file: string
  size: number
  /** The server's `meta.md5` when it gave one (lower case); the file was checked against it. */
  md5?: string
  /** The file's mtime when we wrote it: a file changed behind our back is not served. */
  mtimeMs: number
  /** Last time it was played (or written), ms since the epoch: the least recent is evicted first. */
  lastPlayed: number
  /** A download: never evicted, not counted against the cap. */
  pinned: boolean
  contentType?: string
}

export const INDEX_FILE = 'index.json'
export const AUDIO_EXT = '.audio'
export const PART_EXT = '.part'
const INDEX_VERSION = 1

export const keyString = (key: CacheKey) => `${key.sourceId}\u0000${key.songId}\u0000${key.bitrate}`

/**
 * The file name says which song it holds, so a lost or damaged index can be rebuilt from the folder.
 * Keys too long for a file name get a hash (such files cannot be adopted back and are dropped then).
 */
export function fileNameFor(key: CacheKey): string {
  const readable = Buffer.from(keyString(key), 'utf8').toString('base64url')
  if (readable.length <= 180) return readable + AUDIO_EXT
  return 'h-' + createHash('sha256').update(keyString(key)).digest('hex') + AUDIO_EXT
}

export function keyFromFileName(file: string): CacheKey | undefined {
  if (!file.endsWith(AUDIO_EXT) || file.startsWith('h-')) return undefined
  const parts = Buffer.from(file.slice(0, -AUDIO_EXT.length), 'base64url').toString('utf8').split('\u0000')
  if (parts.length !== 3) return undefined
  const bitrate = Number(parts[2])
  if (!parts[0] || !parts[1] || !Number.isInteger(bitrate) || bitrate < 0) return undefined
  const key = { sourceId: parts[0], songId: parts[1], bitrate }
  return fileNameFor(key) === file ? key : undefined
}

/** One row per entry (arrays, not objects: an index of 10,000 songs stays near 1 MB on disk). */
type Row = [string, string, number, string, number, string | null, number, number, 0 | 1, string | null]

const toRow = (e: CacheEntry): Row => [
  e.sourceId,
  e.songId,
  e.bitrate,
  e.file,
  e.size,
  e.md5 ?? null,
  e.mtimeMs,
  e.lastPlayed,
  e.pinned ? 1 : 0,
  e.contentType ?? null,
]

function fromRow(row: unknown): CacheEntry | undefined {
  if (!Array.isArray(row) || row.length !== 10) return undefined
  const [sourceId, songId, bitrate, file, size, md5, mtimeMs, lastPlayed, pinned, contentType] =
    row as unknown[]
  if (typeof sourceId !== 'string' || typeof songId !== 'string' || typeof file !== 'string') return undefined
  if (!Number.isInteger(bitrate) || !Number.isInteger(size) || (size as number) < 0) return undefined
  if (typeof mtimeMs !== 'number' || typeof lastPlayed !== 'number') return undefined
  const entry: CacheEntry = {
    sourceId,
    songId,
    bitrate: bitrate as number,
    file,
    size: size as number,
    mtimeMs,
    lastPlayed,
    pinned: pinned === 1,
  }
  if (fileNameFor(entry) !== file) return undefined
  if (typeof md5 === 'string') entry.md5 = md5
  if (typeof contentType === 'string') entry.contentType = contentType
  return entry
}

export function serialiseIndex(entries: Iterable<CacheEntry>): string {
  const rows: Row[] = []
  for (const e of entries) rows.push(toRow(e))
  return JSON.stringify({ version: INDEX_VERSION, entries: rows })
}

/**
 * Reads the index and reconciles it with the folder: entries whose file is gone are dropped, `.part`
 * files (a write cut short by a crash) are deleted, audio files the index does not know (a damaged or
 * lost index) are adopted with their size and mtime, and unreadable audio names are deleted.
 * A missing folder is an empty cache.
 */
export async function loadIndex(
  fs: CacheFs,
  dir: string,
): Promise<{ entries: CacheEntry[]; rebuilt: boolean }> {
  let names: string[]
  try {
    names = await fs.readdir(dir)
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { entries: [], rebuilt: false }
    throw error
  }
  const present = new Set(names)
  const byFile = new Map<string, CacheEntry>()
  let rebuilt = false
  try {
    const parsed = JSON.parse(await fs.readFile(`${dir}/${INDEX_FILE}`, 'utf8')) as { entries?: unknown }
    if (!Array.isArray(parsed.entries)) throw new Error('no entries')
    for (const row of parsed.entries) {
      const entry = fromRow(row)
      if (entry && present.has(entry.file)) byFile.set(entry.file, entry)
      else rebuilt = true
    }
  } catch {
    rebuilt = present.has(INDEX_FILE) || names.some((n) => n.endsWith(AUDIO_EXT))
  }
  for (const name of names) {
    if (name.endsWith(PART_EXT) || name === `${INDEX_FILE}${PART_EXT}`) {
      await fs.rm(`${dir}/${name}`, { force: true })
      continue
    }
    if (!name.endsWith(AUDIO_EXT) || byFile.has(name)) continue
    const key = keyFromFileName(name)
    const st = key ? await fs.stat(`${dir}/${name}`).catch(() => undefined) : undefined
    if (!key || !st) {
      await fs.rm(`${dir}/${name}`, { force: true })
      continue
    }
    rebuilt = true
    byFile.set(name, {
      ...key,
      file: name,
      size: st.size,
      mtimeMs: st.mtimeMs,
      lastPlayed: st.mtimeMs,
      pinned: false,
    })
  }
  return { entries: [...byFile.values()], rebuilt }
}

/** Writes the index next to the files: a temporary file renamed over the old one, so it is whole or old. */
export async function saveIndex(fs: CacheFs, dir: string, entries: Iterable<CacheEntry>): Promise<void> {
  await fs.mkdir(dir, { recursive: true })
  const temp = `${dir}/${INDEX_FILE}${PART_EXT}`
  try {
    await fs.writeFile(temp, serialiseIndex(entries))
    await fs.rename(temp, `${dir}/${INDEX_FILE}`)
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined)
    throw error
  }
}
