import { describe, expect, it } from 'vitest'
import { runProbe } from './run-probe'

describe("the stand-in's asar rules, on the package's own app.asar", () => {
  it('reads inside the archive but starts no worker thread from it; app.asar.unpacked is a plain folder', () => {
    expect(runProbe('rules')).toMatchObject({
      readInside: 'ok',
      // fs sees the packed copy of the worker (so a check for the file finds it) …
      existsInside: true,
      // … but a worker thread cannot load it, as in Electron (electron/electron#22446) …
      workerFromArchive: expect.stringMatching(/^error: /),
      // … while the copy electron-builder.yml unpacks starts.
      workerFromUnpacked: 'answered',
      // The OS sees app.asar as a file: no working directory or program inside it.
      spawnWithCwdInside: 'throws: ENOTDIR',
      spawnSyncScriptInside: 'throws: ENOTDIR',
    })
  })
})
