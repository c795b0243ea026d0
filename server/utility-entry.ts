/**
 * Entry point for Electron's utilityProcess: the desktop app runs the built-in data source in a child
 * process. Must not import `electron`; talks to the parent through `process.parentPort` when present.
 */
import { parseArgs } from './args'
import { startDataSource, type DataSourceHandle } from './index'
import { reclaimMemory } from './reclaim'
import type { LibraryReport } from '@shared/ipc/music-folders'

interface ParentPort {
  postMessage(message: unknown): void
  on(event: 'message', listener: (event: { data: unknown }) => void): void
}

const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort

function post(
  message: { type: 'ready'; url: string } | { type: 'error'; message: string } | LibraryReport,
): void {
  if (parentPort) parentPort.postMessage(message)
  else if (message.type === 'library-progress') return
  else if (message.type === 'library-done') {
    const songs = message.folders.reduce((n, f) => n + (f.songs ?? 0), 0)
    process.stdout.write(
      `Library: ${songs} songs in ${message.folders.length} folder(s)${message.message ? `: ${message.message}` : ''}\n`,
    )
  } else if (message.type === 'ready') process.stdout.write(`Listening on ${message.url}\n`)
  else process.stderr.write(`Could not start the data source: ${message.message}\n`)
}

let handle: DataSourceHandle | undefined
let stopping = false

async function stop(): Promise<void> {
  if (stopping) return
  stopping = true
  try {
    await handle?.close()
  } finally {
    process.exit(0)
  }
}

async function main(): Promise<void> {
  process.on('SIGTERM', () => void stop())
  process.on('SIGINT', () => void stop())
  parentPort?.on('message', (event) => {
    const data = (event && typeof event === 'object' && 'data' in event ? event.data : event) as {
      type?: string
    }
    if (data && data.type === 'stop') void stop()
    if (data && data.type === 'library-cancel') handle?.cancelLibraryImport()
  })
  try {
    // The app hands the owner passphrase over in the environment (not argv, which other users can read),
    // so that it can sign itself in; it is taken out of the environment at once.
    const ownerPassphrase = process.env.CADENCE_OWNER_PASSPHRASE || undefined
    delete process.env.CADENCE_OWNER_PASSPHRASE
    // Likewise the nonce this process proves itself with before the app sends it a credential.
    const instanceNonce = process.env.CADENCE_INSTANCE_NONCE || undefined
    delete process.env.CADENCE_INSTANCE_NONCE
    // The app's music folders are imported after the server answers: its start never waits for them.
    handle = await startDataSource({
      ...parseArgs(process.argv.slice(2)),
      ownerPassphrase,
      instanceNonce,
      libraryInBackground: true,
      onLibrary: post,
      // While the app runs, what changes in the folders shows up without a rescan.
      watchLibrary: 300,
      // An import's garbage is given back once it is done, not kept while the process idles.
      reclaimMemory,
    })
    post({ type: 'ready', url: handle.url })
  } catch (err) {
    post({ type: 'error', message: (err as Error)?.message ?? String(err) })
    process.exitCode = 1
    if (!parentPort) process.exit(1)
  }
}

void main()
