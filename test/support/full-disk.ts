import { realCacheFs } from '@main/core/media-cache'
import type { CacheFs } from '@main/core/media-cache'

/**
 * The real file system with a disk that fills up: writes fail with ENOSPC once `room` bytes have been
 * written (reads are untouched). `room` can be raised again, as when the user frees space.
 */
export function fillingDisk(room: number): { fs: CacheFs; setRoom(bytes: number): void } {
  let left = room
  const fs: CacheFs = {
    ...realCacheFs,
    async open(path, flags) {
      const handle = await realCacheFs.open(path, flags)
      if (flags === 'r') return handle
      return {
        read: handle.read.bind(handle),
        close: handle.close.bind(handle),
        async write(buffer: Uint8Array) {
          left -= buffer.byteLength
          if (left < 0) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })
          return handle.write(buffer)
        },
      }
    },
  }
  return { fs, setRoom: (bytes) => void (left = bytes) }
}
