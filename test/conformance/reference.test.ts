import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe } from 'vitest'
import { startDataSource, type DataSourceHandle } from '../../server/index'
import { conformanceSuite } from './suite'

describe('reference data source conformance', () => {
  let handle: DataSourceHandle
  let dir: string
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cadence-conformance-'))
    handle = await startDataSource({ dataDir: dir, demo: 300 })
  })
  afterAll(async () => {
    await handle?.close()
    rmSync(dir, { recursive: true, force: true })
  })
  conformanceSuite(() => handle.url, { phoneConfirm: true, reference: true })
})
