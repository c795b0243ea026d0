import { existsSync, readFileSync } from 'node:fs'
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

/** What the stand-in build changes in the shipped electron-builder.yml (and nothing else). */
export const STAND_IN_OVERRIDES = {
  // Fuses live in Electron's binary; the stand-in's launcher has none (the shipped config keeps them).
  electronFuses: null,
} as const

async function buildWith(targets: string[], output: string, hook?: (options: unknown) => Promise<boolean>) {
  if (!existsSync(join(ROOT, 'out/main/index.js'))) throw new Error('Build the app first: npm run build')
  const electronDist = writeStandInElectronDist(join(ROOT, 'test-results/stand-in-electron-dist'))
  await build({
    projectDir: ROOT,
    targets: Platform.LINUX.createTarget(targets, Arch.x64),
    publish: 'never',
    config: { ...STAND_IN_OVERRIDES, electronDist, directories: { output } },
    effectiveOptionComputed: hook,
  })
}

export async function buildStandInPackage(targets: string[] = ['dir']): Promise<string> {
  await buildWith(targets, STAND_IN_OUTPUT)
  return UNPACKED
}

/** What electron-builder hands fpm for the deb: its arguments and the files they name, read as they are. */
export interface StagedDeb {
  /** `source=destination` file mappings. */
  files: Record<string, string>
  desktopEntry: string
  afterInstall: string
  /** The AppArmor profile the after-install script installs (staged as resources/apparmor-profile). */
  appArmorProfile: string
  unpacked: string
}

/**
 * Runs electron-builder's deb target up to the point where it would start fpm (a Ruby tool it downloads,
 * which cannot be fetched here), through electron-builder's own `effectiveOptionComputed` hook, which
 * receives fpm's arguments and stops the target there. The deb itself is not made.
 */
export async function stageDeb(): Promise<StagedDeb> {
  const output = join(ROOT, 'dist/stand-in-deb')
  let staged: Omit<StagedDeb, 'appArmorProfile' | 'unpacked'> | undefined
  await buildWith(['deb'], output, async (options) => {
    if (!Array.isArray(options) || !Array.isArray(options[0])) return false
    const [args, desktopFile] = options as [string[], string]
    const files = Object.fromEntries(
      args.filter((arg) => /^\/.+=\//.test(arg)).map((arg) => [arg.split('=')[1], arg.split('=')[0]]),
    )
    const afterInstall = args[args.indexOf('--after-install') + 1]
    staged = {
      files,
      desktopEntry: readFileSync(desktopFile, 'utf8'),
      afterInstall: readFileSync(afterInstall, 'utf8'),
    }
    return true
  })
  if (!staged) throw new Error('electron-builder did not reach fpm for the deb')
  const unpacked = join(output, 'linux-unpacked')
  return {
    ...staged,
    unpacked,
    appArmorProfile: readFileSync(join(unpacked, 'resources/apparmor-profile'), 'utf8'),
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildStandInPackage(process.argv.includes('--tar') ? ['dir', 'tar.gz'] : ['dir'])
}
