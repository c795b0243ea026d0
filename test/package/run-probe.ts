import { execFileSync } from 'node:child_process'
import { join, resolve } from 'node:path'
import { APP_ASAR } from './package-files.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const STAND_IN = join(ROOT, 'test/electron/stand-in')

/** Runs probe.ts in a Node 24 child with the stand-in and the asar rules; its JSON answer. */
export function runProbe(command: 'modules' | 'rules', ...args: string[]): unknown {
  const out = execFileSync(
    process.execPath,
    [
      '--import',
      join(STAND_IN, 'register.ts'),
      '--import',
      join(STAND_IN, 'asar-register.ts'),
      join(ROOT, 'test/package/probe.ts'),
      command,
      APP_ASAR,
      ...args,
    ],
    {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, CADENCE_STANDIN_HOME: join(ROOT, 'test-results/probe-home') },
    },
  )
  return JSON.parse(out)
}
