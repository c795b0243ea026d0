import { createHash } from 'node:crypto'
import type { Hash } from 'node:crypto'
import type { CacheFs } from './fs-port'

const HASH_CHUNK = 256 * 1024

/** Feeds a file's first `limit` bytes (all of it by default) to `hash`; answers how many were read. */
export async function hashInto(fs: CacheFs, path: string, hash: Hash, limit = Infinity): Promise<number> {
  const handle = await fs.open(path, 'r')
  let hashed = 0
  try {
    const buffer = new Uint8Array(HASH_CHUNK)
    while (hashed < limit) {
      const want = Math.min(HASH_CHUNK, limit - hashed)
      const { bytesRead } = await handle.read(buffer, 0, want, hashed)
      if (bytesRead === 0) break
      hash.update(buffer.subarray(0, bytesRead))
      hashed += bytesRead
    }
  } finally {
    await handle.close().catch(() => undefined)
  }
  return hashed
}

/** The md5 of a file, read in chunks. */
export const md5Of = async (fs: CacheFs, path: string): Promise<string> => {
  const hash = createHash('md5')
  await hashInto(fs, path, hash)
  return hash.digest('hex')
}
