import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { Arch, Platform, build } from 'electron-builder'
import { writeStandInElectronDist } from './electron-dist.ts'

/**
 * Builds Cadence's Linux package here, offline, with electron-builder and the shipped
 * electron-builder.yml, changed in two places only: `electronDist` is the stand-in Electron distribution
 * (the real zip cannot be downloaded here) and `electronFuses` is left out (fuses are bytes in Electron's
 * binary; the stand-in's launcher is a shell script, so there is nothing to flip). Targets: `dir` (the
 * unpacked app, `dist/stand-in/linux-unpacked`), and with `--tar` also `tar.gz`.
 * Usage: `tsx test/package/build.ts [--tar]` after `npm run build`.
 */

const ROOT = resolve(import.meta.dirname, '../..')
export const STAND_IN_OUTPUT = join(ROOT, 'dist/stand-in')
export const UNPACKED = join(STAND_IN_OUTPUT, 'linux-unpacked')

export async function buildStandInPackage(targets: string[] = ['dir']): Promise<string> {
  if (!existsSync(join(ROOT, 'out/main/index.js'))) throw new Error('Build the app first: npm run build')
  const electronDist = writeStandInElectronDist(join(ROOT, 'test-results/stand-in-electron-dist'))
  await build({
    projectDir: ROOT,
    targets: Platform.LINUX.createTarget(targets, Arch.x64),
    publish: 'never',
    config: {
      electronDist,
      // Fuses live in Electron's binary; the stand-in's launcher has none (the shipped config keeps them).
      electronFuses: null,
      directories: { output: STAND_IN_OUTPUT },
    },
  })
  return UNPACKED
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildStandInPackage(process.argv.includes('--tar') ? ['dir', 'tar.gz'] : ['dir'])
}
