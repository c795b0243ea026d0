import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { unpackedPath, workerFile } from '@server/audio/store'

describe('the synthesis worker file', () => {
  it('maps a path inside an asar archive to its copy in <archive>.unpacked, and nothing else', () => {
    expect(unpackedPath('/opt/Cadence/resources/app.asar/out/main/synth-worker.js')).toBe(
      '/opt/Cadence/resources/app.asar.unpacked/out/main/synth-worker.js',
    )
    expect(unpackedPath('/home/me/cadence/out/main/synth-worker.js')).toBeUndefined()
  })

  it('takes the unpacked copy first when the bundle lies in an archive (a worker cannot load from one)', () => {
    const resources = mkdtempSync(join(tmpdir(), 'cadence-worker-file-'))
    // Stands for app.asar as fs sees it under Electron (a folder), and app.asar.unpacked beside it.
    for (const dir of ['app.asar/out/main', 'app.asar.unpacked/out/main']) {
      mkdirSync(join(resources, dir), { recursive: true })
      writeFileSync(join(resources, dir, 'synth-worker.js'), '')
    }
    const bundle = pathToFileURL(join(resources, 'app.asar/out/main/data-source.js')).href
    expect(workerFile(bundle)?.href).toBe(
      pathToFileURL(join(resources, 'app.asar.unpacked/out/main/synth-worker.js')).href,
    )
    const plain = pathToFileURL(join(resources, 'app.asar.unpacked/out/main/data-source.js')).href
    expect(workerFile(plain)?.href).toBe(
      pathToFileURL(join(resources, 'app.asar.unpacked/out/main/synth-worker.js')).href,
    )
  })
})
