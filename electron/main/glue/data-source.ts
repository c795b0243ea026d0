import { utilityProcess } from 'electron'
import type { UtilityProcess } from 'electron'
import type { BuiltinLaunch } from '../core'
import { DATA_SOURCE_EXEC_ARGV } from '@shared/data-source-process'
import type { LibraryReport } from '@shared/ipc/music-folders'

export interface BuiltinDataSource {
  url: string
  stop(): Promise<void>
  /** A message to the process (`library-cancel`). */
  send(message: unknown): void
}

/** How long the data source may take to answer `ready` before the start counts as failed. */
const START_TIMEOUT_MS = 30_000

/**
 * Starts the built-in data source (server/utility-entry.ts, built to out/main/data-source.js) in a utility
 * process on the host, port and passphrase the core chose (sources/phone-access.ts: loopback with a free
 * port unless the user lets a phone sign in), and resolves with its URL once it answers. A start that fails
 * (an error message, an exit, no answer in time) ends the process, so no failed attempt stays behind.
 */
/** The demo catalogue's size, as the data source makes it by default (`server/index.ts`). */
const DEMO_SONGS = 300

export function startBuiltinDataSource(
  entry: string,
  dataDir: string,
  launch: BuiltinLaunch,
  onExit: (code: number) => void,
  onLibrary?: (report: LibraryReport) => void,
): Promise<BuiltinDataSource> {
  return new Promise((resolve, reject) => {
    const child: UtilityProcess = utilityProcess.fork(
      entry,
      [
        '--host',
        launch.host,
        '--port',
        String(launch.port),
        '--data',
        dataDir,
        ...(launch.requireLogin ? ['--require-login'] : []),
        ...(launch.library ?? []).flatMap((folder) => ['--library', folder]),
        ...(launch.demo === false ? ['--no-demo'] : launch.demo ? ['--demo', String(DEMO_SONGS)] : []),
      ],
      {
        serviceName: 'Cadence data source',
        execArgv: DATA_SOURCE_EXEC_ARGV,
        stdio: 'inherit',
        // The owner passphrase travels in the environment, not argv (which other local users can read).
        // So does the nonce the core checks the process with before it sends a credential.
        env: {
          ...process.env,
          CADENCE_OWNER_PASSPHRASE: launch.passphrase,
          CADENCE_INSTANCE_NONCE: launch.nonce,
        },
      },
    )
    let ready = false
    let failed = false
    const fail = (error: Error) => {
      if (ready || failed) return
      failed = true
      clearTimeout(deadline)
      child.kill()
      reject(error)
    }
    const deadline = setTimeout(
      () => fail(new Error(`The built-in data source did not start within ${START_TIMEOUT_MS / 1000} s`)),
      START_TIMEOUT_MS,
    )
    child.on('message', (message: { type?: string; url?: string; message?: string }) => {
      // The import of the music folders reports as it goes (server/library/run.ts).
      if (message?.type === 'library-progress' || message?.type === 'library-done') {
        onLibrary?.(message as LibraryReport)
        return
      }
      if (message?.type === 'ready' && typeof message.url === 'string' && !ready && !failed) {
        ready = true
        clearTimeout(deadline)
        resolve({
          url: message.url,
          stop: () =>
            new Promise<void>((done) => {
              if (child.pid === undefined) return done()
              child.once('exit', () => done())
              child.postMessage({ type: 'stop' })
              setTimeout(() => child.kill(), 3000)
            }),
          send: (m) => {
            if (child.pid !== undefined) child.postMessage(m)
          },
        })
      } else if (message?.type === 'error') {
        fail(new Error(message.message ?? 'The built-in data source failed to start'))
      }
    })
    child.on('exit', (code) => {
      if (!ready) fail(new Error(`The built-in data source exited with code ${code}`))
      else onExit(code)
    })
  })
}
