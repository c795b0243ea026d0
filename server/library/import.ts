import type { DB } from '../db/open'

export interface ImportReport {
  added: number
  updated: number
  removed: number
  unchanged: number
  failed: Array<{ path: string; error: string }>
}

export async function importLibrary(_db: DB, _dir: string, _dataDir: string): Promise<ImportReport> {
  return { added: 0, updated: 0, removed: 0, unchanged: 0, failed: [] }
}
