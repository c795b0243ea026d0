import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { readFile, stat } from 'node:fs/promises'
import { extname, join, normalize, resolve, sep } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
}

/**
 * Serves a built folder (the renderer) on 127.0.0.1, the way Electron loads it from disk. `route`, when
 * given, sees each request first and answers it itself by returning true (the media bridge's prefix).
 */
export async function serveStatic(
  root: string,
  route?: (req: IncomingMessage, res: ServerResponse) => boolean,
): Promise<{ url: string; close(): Promise<void> }> {
  const base = resolve(root)
  const server: Server = createServer(async (req, res) => {
    if (route?.(req, res)) return
    try {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
      let file = normalize(join(base, path))
      if (file !== base && !file.startsWith(base + sep)) throw new Error('outside root')
      if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html')
      const body = await readFile(file)
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' })
      res.end(body)
    } catch {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('no address')
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
  }
}
