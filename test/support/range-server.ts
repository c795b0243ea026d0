import { createHash } from 'node:crypto'
import { createServer } from 'node:http'
import type { ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** What the server does with the next request (taken in order, one each); default: answer it right. */
export type Misbehaviour =
  /** Headers and half the body, then the connection is closed (the half arrives whole). */
  | 'drop'
  /** Answers the whole file with 200 whatever the Range. */
  | 'ignore-range'
  /** Half the body, then waits for `release()` before the rest. */
  | 'hold'
  /** Half the body, then waits for `release()` and cuts the connection. */
  | 'hold-drop'
  /** This HTTP status, no body worth reading. */
  | number

export interface Served {
  path: string
  range?: string
  ifRange?: string
  status: number
  /** Body bytes written before the answer ended (or was cut). */
  sent: number
}

/**
 * A real HTTP media server on loopback, as a data source's media server answers: `Range` (one
 * `bytes=` range, 206 with `Content-Range`, 416 past the end), a strong `ETag` (the md5) honoured in
 * `If-Range`, `Content-Length`. Each request is recorded; `plan` makes the next ones misbehave.
 */
export async function rangeServer() {
  const files = new Map<string, Uint8Array>()
  const served: Served[] = []
  const plan: Misbehaviour[] = []
  let gate: { wait: Promise<void>; release: () => void } | undefined

  const etagOf = (bytes: Uint8Array) => `"${createHash('md5').update(bytes).digest('hex')}"`

  const server = createServer((req, res) => {
    const path = req.url ?? '/'
    const range = req.headers.range
    const ifRange = typeof req.headers['if-range'] === 'string' ? req.headers['if-range'] : undefined
    const record: Served = { path, range, ifRange, status: 0, sent: 0 }
    served.push(record)
    const misbehave = plan.shift()
    const bytes = files.get(path)
    const answer = (status: number, headers: Record<string, string>, body: Uint8Array) => {
      record.status = status
      res.writeHead(status, { 'Content-Length': String(body.length), ...headers })
      send(res, record, body, misbehave)
    }
    if (typeof misbehave === 'number') return answer(misbehave, {}, new TextEncoder().encode('no'))
    if (!bytes) return answer(404, {}, new TextEncoder().encode('missing'))
    const headers = { 'Content-Type': 'audio/wav', 'Accept-Ranges': 'bytes', ETag: etagOf(bytes) }
    const match = /^bytes=(\d+)-(\d*)$/.exec(range ?? '')
    const rangeHolds = match && misbehave !== 'ignore-range' && (!ifRange || ifRange === headers.ETag)
    if (!rangeHolds) return answer(200, headers, bytes)
    const start = Number(match[1])
    if (start >= bytes.length) {
      return answer(416, { 'Content-Range': `bytes */${bytes.length}` }, new Uint8Array(0))
    }
    const end = match[2] ? Math.min(Number(match[2]), bytes.length - 1) : bytes.length - 1
    answer(
      206,
      { ...headers, 'Content-Range': `bytes ${start}-${end}/${bytes.length}` },
      bytes.subarray(start, end + 1),
    )
  })

  function send(res: ServerResponse, record: Served, body: Uint8Array, misbehave?: Misbehaviour) {
    const half = Math.floor(body.length / 2)
    const rest = () => {
      res.end(body.subarray(half))
      record.sent = body.length
    }
    if (misbehave === 'drop') {
      res.write(body.subarray(0, half), () => {
        record.sent = half
        res.socket?.end()
      })
      return
    }
    if (misbehave === 'hold' || misbehave === 'hold-drop') {
      const held = gate
      res.write(body.subarray(0, half), () => {
        record.sent = half
        const then = misbehave === 'hold' ? rest : () => res.socket?.end()
        void (held?.wait ?? Promise.resolve()).then(then)
      })
      return
    }
    res.end(body)
    record.sent = body.length
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    served,
    plan,
    /** The server's origin. */
    url: base,
    /** Serves `bytes` at `path`. */
    set(path: string, bytes: Uint8Array) {
      files.set(path, bytes)
    },
    /** Requests for one path. */
    requestsFor: (path: string) => served.filter((s) => s.path === path),
    /** A file of `size` bytes at `path`: its origin as `/song/detail` would describe it. */
    put(path: string, size: number, seed = 1) {
      const bytes = new Uint8Array(size).map((_, i) => (i * 31 + seed + (i >> 8)) & 0xff)
      files.set(path, bytes)
      return { url: base + path, size, md5: createHash('md5').update(bytes).digest('hex'), bytes }
    },
    /** Misbehaviour 'hold' waits for this; returns the release. */
    hold(): () => void {
      let release!: () => void
      const wait = new Promise<void>((resolve) => (release = resolve))
      gate = { wait, release }
      return () => release()
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export type RangeServer = Awaited<ReturnType<typeof rangeServer>>

/**
 * Where a request for the rest started (`bytes=<n>-`): a connection cut after half was sent delivers at
 * most that half (what was in flight when it closed may be lost), so a test reads the offset asked.
 */
export function resumedAt(range: string | undefined): number {
  const match = /^bytes=(\d+)-$/.exec(range ?? '')
  if (!match) throw new Error(`not a request for the rest: ${range}`)
  return Number(match[1])
}
