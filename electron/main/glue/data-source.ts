import { utilityProcess } from 'electron'
import type { UtilityProcess } from 'electron'

export interface BuiltinDataSource {
  url: string
  stop(): Promise<void>
}

/**
 * Starts the built-in data source (server/utility-entry.ts, built to out/main/data-source.js) in a utility
 * process on 127.0.0.1 with a free port, and resolves with its URL once it answers.
 */
export function startBuiltinDataSource(
  entry: string,
  dataDir: string,
  onExit: (code: number) => void,
): Promise<BuiltinDataSource> {
  return new Promise((resolve, reject) => {
    const child: UtilityProcess = utilityProcess.fork(
      entry,
      ['--host', '127.0.0.1', '--port', '0', '--data', dataDir],
      {
        serviceName: 'Cadence data source',
        stdio: 'inherit',
      },
    )
    let ready = false
    child.on('message', (message: { type?: string; url?: string; message?: string }) => {
      if (message?.type === 'ready' && typeof message.url === 'string' && !ready) {
        ready = true
        resolve({
          url: message.url,
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done())
              child.postMessage({ type: 'stop' })
              setTimeout(() => child.kill(), 3000)
            }),
        })
      } else if (message?.type === 'error' && !ready) {
        reject(new Error(message.message ?? 'The built-in data source failed to start'))
      }
    })
    child.on('exit', (code) => {
      if (!ready) reject(new Error(`The built-in data source exited with code ${code}`))
      else onExit(code)
    })
  })
}
