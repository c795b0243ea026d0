import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

/**
 * A stand-in Electron distribution for electron-builder's `electronDist`: the layout of Electron's Linux
 * zip (`electron`, `resources/`, `locales/`, `LICENSE`, `version`), whose `electron` is a launcher that
 * starts the stand-in (test/electron/stand-in/packaged-boot.ts) on the app beside it, under Node 24.
 * electron-builder copies it, renames `electron` to the app's executable (`cadence`) and puts
 * `resources/app.asar` next to it, so the package starts as a user's would: `./cadence`.
 * The launcher names the stand-in by absolute path: a package built with it runs on this checkout only.
 */

const ROOT = resolve(import.meta.dirname, '../..')

export function electronVersion(): string {
  return (
    JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
  ).version
}

export function writeStandInElectronDist(dir: string, node = process.execPath): string {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(join(dir, 'resources'), { recursive: true })
  mkdirSync(join(dir, 'locales'), { recursive: true })
  const standIn = join(ROOT, 'test/electron/stand-in')
  const launcher = join(dir, 'electron')
  writeFileSync(
    launcher,
    `#!/bin/sh
# The stand-in Electron (test/package/electron-dist.ts): runs the app in resources/ under Node 24 with the
# stand-in electron module and Electron's asar rules. CADENCE_STANDIN_NODE picks another Node 24.
here="$(dirname "$(readlink -f "$0")")"
exec "\${CADENCE_STANDIN_NODE:-${node}}" --import "${join(standIn, 'register.ts')}" "${join(standIn, 'packaged-boot.ts')}" "$here/resources" "$@"
`,
  )
  chmodSync(launcher, 0o755)
  // Electron's zip has one .pak per language; electron-builder's `electronLanguages` prunes them.
  writeFileSync(join(dir, 'locales/en-US.pak'), '')
  writeFileSync(join(dir, 'LICENSE'), 'The stand-in Electron distribution (Cadence tests); not Electron.\n')
  writeFileSync(join(dir, 'version'), electronVersion())
  return dir
}
