import { createHash } from 'node:crypto'
import type { FillOptions, MediaOrigin } from './cache-types'
import { MediaCacheError } from './cache-types'
import type { CacheFs } from './fs-port'

const HASH_CHUNK = 256 * 1024

/** The md5 of a file, read in chunks. */
export const md5Of = async (fs: CacheFs, path: string): Promise<string> => {
  const hash = createHash('md5')
  const handle = await fs.open(path, 'r')
  try {
    const buffer = new Uint8Array(HASH_CHUNK)
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, HASH_CHUNK, null)
      if (bytesRead === 0) break
      hash.update(buffer.subarray(0, bytesRead))
    }
  } finally {
    await handle.close()
  }
  return hash.digest('hex')
}

/** Writes the response body to `part`, checking size and md5 as it goes. */
export const writeBody = async (
  fs: CacheFs,
  maxBytes: () => number,
  response: Response,
  part: string,
  origin: MediaOrigin,
  fill: FillOptions,
): Promise<{ size: number; md5: string }> => {
  const lengthHeader = Number(response.headers.get('content-length'))
  const total = origin.size ?? (Number.isFinite(lengthHeader) && lengthHeader > 0 ? lengthHeader : undefined)
  const hash = createHash('md5')
  let received = 0
  const handle = await fs.open(part, 'w')
  try {
    if (!response.body) throw new MediaCacheError('network', 'The answer had no body')
    const reader = response.body.getReader()
    try {
      for (;;) {
        if (fill.signal?.aborted) throw new MediaCacheError('cancelled', 'Cancelled')
        const { done, value } = await reader.read()
        if (done) break
        received += value.byteLength
        if (origin.size !== undefined && received > origin.size) {
          throw new MediaCacheError('corrupt', `More bytes than the ${origin.size} announced`)
        }
        if (!fill.pin && received > maxBytes()) {
          throw new MediaCacheError('too-large', 'The file is larger than the whole cache')
        }
        hash.update(value)
        await handle.write(value)
        fill.onProgress?.(received, total)
      }
    } finally {
      await reader.cancel().catch(() => undefined)
    }
  } finally {
    await handle.close().catch(() => undefined)
  }
  const md5 = hash.digest('hex')
  if (origin.size !== undefined && received !== origin.size) {
    throw new MediaCacheError('corrupt', `Received ${received} bytes of ${origin.size}`)
  }
  if (origin.md5 && origin.md5.toLowerCase() !== md5) {
    throw new MediaCacheError('corrupt', 'The file does not match its md5')
  }
  return { size: received, md5 }
}
