import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { launchApp, type StandInApp } from './harness'

/**
 * The built-in data source runs with the V8 flags that bound its memory with a large library
 * (shared/data-source-process.ts; measured by test/bench/library.ts): main passes them to its utility
 * process, and the process really runs with them.
 */
describe('the built-in data source process', () => {
  let app: StandInApp | undefined
  afterAll(() => app?.close())

  it('is started with a bounded young generation', async () => {
    app = await launchApp()
    const fork = await app.waitFor('utility-fork', undefined, 120_000)
    const { pid, execArgv } = fork.data as { pid: number; execArgv?: string[] }
    expect(execArgv).toContain('--max-semi-space-size=2')
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    expect(cmdline).toContain('--max-semi-space-size=2')
  }, 180_000)
})
