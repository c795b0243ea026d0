import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { STAND_IN_OVERRIDES } from './build'
import { EXECUTABLE, openAppArchive } from './package-files'

const ROOT = resolve(import.meta.dirname, '../..')
const shipped = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')

describe('the stand-in package against the shipped electron-builder.yml', () => {
  it('leaves out only the fuses, which the shipped config keeps: they are bytes in the real Electron binary', () => {
    expect(STAND_IN_OVERRIDES).toEqual({ electronFuses: null })
    for (const fuse of [
      'runAsNode: false',
      'enableNodeOptionsEnvironmentVariable: false',
      'enableNodeCliInspectArguments: false',
      'enableEmbeddedAsarIntegrityValidation: true',
      'onlyLoadAppFromAsar: true',
    ]) {
      expect(shipped).toContain(`  ${fuse}`)
    }
    // The stand-in's executable is a launcher script: there is nothing to flip, so this package cannot
    // show that the fuses hold (a real package built where Electron can be downloaded would).
    expect(readFileSync(EXECUTABLE, 'utf8')).toMatch(/^#!\/bin\/sh/)
  })

  it('unpacks exactly what cannot run from the archive: the synthesis worker and its chunk', () => {
    const unpacked = [...openAppArchive().files()].filter(([, file]) => file.unpacked).map(([path]) => path)
    expect(unpacked).toContain('out/main/synth-worker.js')
    expect(unpacked.filter((path) => !path.startsWith('out/main/chunks/'))).toEqual([
      'out/main/synth-worker.js',
    ])
  })
})
