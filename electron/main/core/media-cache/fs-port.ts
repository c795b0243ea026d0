import * as nodeFs from 'node:fs/promises'

/**
 * The file operations the media cache uses: a subset of `node:fs/promises` with the same signatures, so
 * the app passes the real module and a test can wrap it (a write that fails with ENOSPC, a folder that
 * disappears). Paths are absolute.
 */
export interface CacheFileHandle {
  write(buffer: Uint8Array): Promise<unknown>
  read(
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number | null,
  ): Promise<{ bytesRead: number }>
  close(): Promise<void>
}

export interface CacheFs {
  mkdir(path: string, options: { recursive: true }): Promise<unknown>
  /** `w` writes a new file (truncating), `a` appends (a resumed download), `r` reads. */
  open(path: string, flags: 'w' | 'a' | 'r'): Promise<CacheFileHandle>
  rename(from: string, to: string): Promise<void>
  rm(path: string, options: { force: true; recursive?: boolean }): Promise<void>
  stat(path: string): Promise<{ size: number; mtimeMs: number }>
  readFile(path: string, encoding: 'utf8'): Promise<string>
  writeFile(path: string, data: string | Uint8Array): Promise<void>
  readdir(path: string): Promise<string[]>
}

export const realCacheFs: CacheFs = nodeFs as unknown as CacheFs

/** The error code of a failed file operation (`ENOENT`, `ENOSPC`…), if it has one. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
    ? (error as { code: string }).code
    : undefined
}

/** The disk (or the user's quota) is full. */
export const isDiskFull = (error: unknown) => {
  const code = errorCode(error)
  return code === 'ENOSPC' || code === 'EDQUOT'
}
