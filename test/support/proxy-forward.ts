import { request } from 'node:http'
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'

/**
 * Sends a proxied request on to `upstream` (Host rewritten). Without `onBody` the answer streams back
 * as it is; with it, `onBody` gets the whole answer (status, headers, body) to pass, change or replace.
 * A failure upstream drops the client's connection.
 */
export function forwardRequest(
  upstream: URL,
  req: IncomingMessage,
  res: ServerResponse,
  onBody?: (status: number, headers: IncomingMessage['headers'], body: Buffer) => void,
): void {
  const out = request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, host: upstream.host },
    },
    (answer) => {
      if (!onBody) {
        res.writeHead(answer.statusCode ?? 502, answer.headers as OutgoingHttpHeaders)
        answer.pipe(res)
        return
      }
      const chunks: Buffer[] = []
      answer.on('data', (chunk: Buffer) => chunks.push(chunk))
      answer.on('end', () => onBody(answer.statusCode ?? 502, answer.headers, Buffer.concat(chunks)))
    },
  )
  out.on('error', () => res.destroy())
  req.pipe(out)
}
