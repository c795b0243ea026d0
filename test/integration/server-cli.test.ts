import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

async function runUntilListening(entry: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cadence-cli-'))
  dirs.push(dir)
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', entry, '--host', '127.0.0.1', '--port', '0', '--data', dir, '--demo', '30'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let out = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no Listening line: ${out}`)), 30_000)
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const m = /^Listening on (http:\/\/127\.0\.0\.1:\d+)\n/m.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)))
  })
  const body = (await (await fetch(`${url}/playlist/recommend`)).json()) as { code: number }
  expect(body.code).toBe(0)
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  child.kill('SIGTERM')
  expect(await exit).toBe(0)
}

describe('server entry points', () => {
  it('cli prints the Listening line, answers, and exits cleanly on SIGTERM', async () => {
    await runUntilListening('server/cli.ts')
  })
  it('utility-entry without a parentPort prints the Listening line and exits on SIGTERM', async () => {
    await runUntilListening('server/utility-entry.ts')
  })
})
