import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe } from 'vitest'
import { startDataSource, type DataSourceHandle } from '../../server/index'
import { conformanceSuite } from './suite'
import { OWNER_PASSPHRASE } from '../support/phone'

describe('reference data source conformance', () => {
  let handle: DataSourceHandle
  let dir: string
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cadence-conformance-'))
    handle = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir: dir, demo: 300 })
  })
  afterAll(async () => {
    await handle?.close()
    rmSync(dir, { recursive: true, force: true })
  })
  conformanceSuite(() => handle.url, { phoneConfirm: { passphrase: OWNER_PASSPHRASE }, reference: true })
})
