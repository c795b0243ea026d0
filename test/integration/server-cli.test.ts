import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
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
    const timer = setTimeout(() => reject(new Error(`no Listening line: ${out}`)), 80_000)
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
  }, 90_000)
  it('utility-entry without a parentPort prints the Listening line and exits on SIGTERM', async () => {
    await runUntilListening('server/utility-entry.ts')
  }, 90_000)

  it('utility-entry with a parentPort posts ready and stops on a stop message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cadence-utility-'))
    dirs.push(dir)
    // Stand-in for Electron's process.parentPort, over Node's child-process IPC channel.
    const preload = join(dir, 'parent-port.mjs')
    writeFileSync(
      preload,
      `process.parentPort = {
        postMessage: (m) => process.send(m),
        on: (event, fn) => process.on('message', (data) => fn({ data })),
      }\n`,
    )
    const child = spawn(
      process.execPath,
      [
        '--import',
        preload,
        '--import',
        'tsx',
        'server/utility-entry.ts',
        '--port',
        '0',
        '--data',
        join(dir, 'd'),
        '--demo',
        '20',
      ],
      { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
    )
    const ready = await new Promise<{ type: string; url: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no ready message')), 80_000)
      child.on('message', (m) => {
        clearTimeout(timer)
        resolve(m as { type: string; url: string })
      })
      child.on('exit', (code) => reject(new Error(`exited ${code}`)))
    })
    expect(ready.type).toBe('ready')
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const body = (await (await fetch(`${ready.url}/connect/qr/key`)).json()) as { code: number }
    expect(body.code).toBe(0)
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    child.send({ type: 'stop' })
    expect(await exit).toBe(0)
  }, 90_000)
})
