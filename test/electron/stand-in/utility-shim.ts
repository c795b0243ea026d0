import { EventEmitter } from 'node:events'

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
