import { EventEmitter } from 'node:events'
import http from 'node:http'
import https from 'node:https'
import type { IncomingMessage } from 'node:http'

/**
 * Electron's `net.request` (main process), written from its documentation, over Node's http/https: a
 * `ClientRequest` that emits `response` with an `IncomingMessage` (a readable stream with `statusCode`,
 * `statusMessage`, `headers`), `redirect` (statusCode, method, url, headers) when `redirect: 'manual'`
 * meets a 3xx with a Location, `error`, `abort` and `finish`; `setHeader`, `write`, `end`, `abort`,
 * `followRedirect`. electron-updater downloads through it. Not reproduced: Chromium's network stack
 * (its proxy settings, cache, certificate checks beyond Node's), `login` for proxy authentication, and
 * sessions (the `session` option is accepted and ignored).
 */
export interface RequestOptions {
  url?: string
  method?: string
  protocol?: string
  hostname?: string
  host?: string
  port?: number | string
  path?: string
  headers?: Record<string, string | string[]>
  redirect?: 'follow' | 'error' | 'manual'
  session?: unknown
}

export class ClientRequest extends EventEmitter {
  private readonly request: http.ClientRequest
  private aborted = false
  private pendingRedirect: string | undefined

  constructor(input: RequestOptions | string) {
    super()
    const options: RequestOptions = typeof input === 'string' ? { url: input } : input
    const target = options.url
      ? new URL(options.url)
      : new URL(
          `${options.protocol ?? 'http:'}//${options.hostname ?? options.host ?? 'localhost'}${
            options.port ? `:${options.port}` : ''
          }${options.path ?? '/'}`,
        )
    const send = target.protocol === 'https:' ? https.request : http.request
    this.request = send(target, { method: options.method ?? 'GET', headers: options.headers })
    this.request.on('response', (response: IncomingMessage) => {
      const location = response.headers.location
      const status = response.statusCode ?? 0
      if (status >= 300 && status < 400 && location && options.redirect !== 'follow') {
        response.resume()
        if (options.redirect === 'error') {
          this.emit('error', new Error('net::ERR_UNSAFE_REDIRECT'))
          return
        }
        this.pendingRedirect = new URL(location, target).href
        this.emit('redirect', status, options.method ?? 'GET', this.pendingRedirect, response.headers)
        return
      }
      this.emit('response', response)
    })
    this.request.on('error', (error) => {
      if (!this.aborted) this.emit('error', error)
    })
    this.request.on('finish', () => this.emit('finish'))
  }
  setHeader(name: string, value: string): void {
    this.request.setHeader(name, value)
  }
  write(chunk: string | Buffer): boolean {
    return this.request.write(chunk)
  }
  end(chunk?: string | Buffer): this {
    this.request.end(chunk)
    return this
  }
  abort(): void {
    if (this.aborted) return
    this.aborted = true
    this.request.destroy()
    this.emit('abort')
  }
  /** Electron follows a deferred redirect here; this stand-in has the caller start a new request. */
  followRedirect(): void {
    throw new Error('followRedirect is not reproduced by the stand-in: abort and request the new URL')
  }
}

export const net = {
  request: (options: RequestOptions | string) => new ClientRequest(options),
  isOnline: () => true,
}
