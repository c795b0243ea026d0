import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { resolveInArchive } from '../electron/stand-in/asar-rules.ts'

/**
 * Run by the package tests in a child process with the stand-in's asar rules
 * (`node --import stand-in/register.ts --import stand-in/asar-register.ts probe.ts <command> <app.asar> …`),
 * as a main or utility process of the installed app would be; prints one JSON answer.
 * - `modules <spec>…`: resolves each bare specifier from out/main/index.js inside the archive (ES module
 *   conditions, as the built main imports them) and imports it from there;
 * - `rules`: what Electron's asar rules allow and refuse, tried on the package's own files.
 */
const [, , command, archive, ...rest] = process.argv

async function modules(specifiers: string[]) {
  const parent = pathToFileURL(join(archive, 'out/main/index.js')).href
  const results: Record<string, { url?: string; error?: string }> = {}
  for (const specifier of specifiers) {
    try {
      const url = resolveInArchive(specifier, parent, ['node', 'import', 'module-sync'])
      await import(url)
      results[specifier] = { url }
    } catch (error) {
      results[specifier] = { error: error instanceof Error ? error.message : String(error) }
    }
  }
  return results
}

/** Starts a synthesis worker and asks it for 10 ms of sound: `answered`, or how it failed. */
function startWorker(file: string): Promise<string> {
  return new Promise((done) => {
    let worker: Worker
    try {
      worker = new Worker(pathToFileURL(file))
    } catch (error) {
      return done(`throws: ${(error as Error).message}`)
    }
    worker.once('message', (answer: { bytes?: Uint8Array }) => {
      void worker.terminate()
      done(answer.bytes ? 'answered' : 'failed job')
    })
    worker.once('error', (error) => done(`error: ${error.message}`))
    worker.postMessage({ id: 1, sound: { seed: 1, tempo: 100, durationMs: 10 }, rate: 8000, channels: 1 })
  })
}

function attempt(work: () => unknown): string {
  try {
    work()
    return 'ok'
  } catch (error) {
    return `throws: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`
  }
}

async function rules() {
  const packedWorker = join(archive, 'out/main/synth-worker.js')
  const unpackedWorker = join(`${archive}.unpacked`, 'out/main/synth-worker.js')
  return {
    readInside: attempt(() => JSON.parse(readFileSync(join(archive, 'package.json'), 'utf8'))),
    existsInside: existsSync(packedWorker),
    workerFromArchive: await startWorker(packedWorker),
    workerFromUnpacked: await startWorker(unpackedWorker),
    spawnWithCwdInside: attempt(() => spawn('true', [], { cwd: join(archive, 'out') })),
    spawnSyncScriptInside: attempt(() => spawnSync(join(archive, 'out/main/index.js'))),
  }
}

const answer = command === 'modules' ? await modules(rest) : await rules()
process.stdout.write(JSON.stringify(answer))
process.exit(0)
