import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LrclibLyrics } from '@shared/ipc/discord-lrclib'
import { parseRecord } from './client'

/** What is kept of one song: the record chosen (null: LRCLIB had none), hidden or not, and when. */
export interface KeptLyrics {
  lyrics: LrclibLyrics | null
  hidden: boolean
  at: number
}

export interface LyricsKeep {
  read(key: string): Promise<KeptLyrics | undefined>
  write(key: string, kept: KeptLyrics): Promise<void>
}

/**
 * LRCLIB's lyrics kept with each song for offline use, keyed by `<sourceId>:<songId>`: one JSON file per
 * song in `dir` (the app: `<userData>/lrclib`, apart from the media cache, which "Clear cache" empties);
 * without a folder, in memory. A file that does not read back as one is as good as none.
 */
export function createLyricsKeep(dir?: string): LyricsKeep {
  if (!dir) {
    const memory = new Map<string, KeptLyrics>()
    return {
      read: async (key) => memory.get(key),
      write: async (key, kept) => void memory.set(key, kept),
    }
  }
  const file = (key: string) =>
    join(dir, `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.json`)
  return {
    async read(key) {
      try {
        const raw = JSON.parse(await readFile(file(key), 'utf8')) as Record<string, unknown>
        if (raw.key !== key || typeof raw.at !== 'number') return undefined
        return {
          lyrics: raw.lyrics === null ? null : parseRecord(raw.lyrics),
          hidden: raw.hidden === true,
          at: raw.at,
        }
      } catch {
        return undefined
      }
    },
    async write(key, kept) {
      await mkdir(dir, { recursive: true })
      const target = file(key)
      const temp = `${target}.${process.pid}.tmp`
      await writeFile(temp, JSON.stringify({ key, ...kept }))
      await rename(temp, target)
    },
  }
}
