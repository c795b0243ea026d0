import { existsSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { AsarArchive } from '../electron/stand-in/asar.ts'
import { UNPACKED } from './build.ts'

/** The package `npm run test:package` built (test/package/build.ts) and what is in it. */
export const EXECUTABLE = join(UNPACKED, 'cadence')
export const RESOURCES = join(UNPACKED, 'resources')
export const APP_ASAR = join(RESOURCES, 'app.asar')

export function openAppArchive(): AsarArchive {
  if (!existsSync(APP_ASAR)) throw new Error(`No package at ${UNPACKED}: run \`npm run test:package\``)
  return new AsarArchive(APP_ASAR)
}

/** Whether a path lies inside the package's app.asar (`inner` is then the path inside it). */
export function insideArchive(path: string): { inner: string } | undefined {
  if (!path.startsWith(APP_ASAR + sep)) return undefined
  return { inner: relative(APP_ASAR, path).split(sep).join('/') }
}
