import { EventEmitter } from 'node:events'
import { syncBuiltinESMExports } from 'node:module'
import workerThreads from 'node:worker_threads'

/**
 * Loaded with `--import` into a process the stand-in's `utilityProcess.fork` starts: Electron's
 * `process.parentPort` over Node's IPC channel. Messages from main arrive as `{ data }` (a
 * MessageEvent), as in Electron; the process ends when main goes away, as Electron's utility processes do.
 */
const port = new EventEmitter()
process.on('message', (data: unknown) => port.emit('message', { data, ports: [] }))
process.on('disconnect', () => process.exit(0))

Object.defineProperty(process, 'type', { value: 'utility', enumerable: true })
Object.defineProperty(process, 'parentPort', {
  value: Object.assign(port, {
    postMessage(message: unknown) {
      process.send?.(message)
    },
  }),
  enumerable: true,
})

/**
 * A recorder for the test (not part of Electron): worker threads the utility process starts, and whether
 * each answered or failed. Sent on the same channel marked `__standinRecord`; the stand-in's
 * `utilityProcess` takes these out before the app sees its messages.
 */
function record(kind: string, data: unknown): void {
  process.send?.({ __standinRecord: { kind, data } })
}
const PlainWorker = workerThreads.Worker
class RecordedWorker extends PlainWorker {
  constructor(file: string | URL, options?: workerThreads.WorkerOptions) {
    super(file, options)
    const id = this.threadId
    record('utility-worker-start', { pid: process.pid, threadId: id, file: String(file) })
    // 'online' comes before the worker's module has loaded: its first answer shows it runs.
    this.once('message', () => record('utility-worker-answered', { pid: process.pid, threadId: id }))
    this.once('error', (error: Error) =>
      record('utility-worker-error', { pid: process.pid, threadId: id, message: error.message }),
    )
  }
}
workerThreads.Worker = RecordedWorker
syncBuiltinESMExports()
