import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'

/**
 * A data source whose `/playlist/detail` streams an answer of `totalBytes` (valid JSON if read to the end),
 * in its own process so that only the client's memory is measured in the test's process. Every other path
 * answers a small toplist. `sent()` resolves with how many bytes of the big answer got out before the
 * client hung up, once per request.
 */
const SCRIPT = `
const http = require('node:http')
const TOTAL = Number(process.argv[1])
const chunk = Buffer.from('{"id":1,"name":"a song with a name"},'.repeat(1771))
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json' })
  if (!req.url.startsWith('/playlist/detail')) {
    return res.end('{"code":0,"message":"Success","data":[{"id":1,"name":"small"}]}')
  }
  res.write('{"code":0,"message":"Success","data":{"id":1,"name":"huge","songs":[')
  let sent = 0
  const pump = () => {
    while (sent < TOTAL) {
      sent += chunk.length
      if (!res.write(chunk)) return void res.once('drain', pump)
    }
    res.end('{"id":1}]}}')
  }
  res.on('close', () => console.log('sent ' + sent))
  pump()
})
server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port))
`

export async function startStreamingSource(totalBytes: number) {
  const child = spawn(process.execPath, ['-e', SCRIPT, String(totalBytes)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const lines: string[] = []
  const waiters: Array<() => void> = []
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line)
    for (const wake of waiters.splice(0)) wake()
  })
  let taken = 0
  async function next(prefix: string, skip = 0): Promise<string> {
    for (;;) {
      const found = lines.filter((line) => line.startsWith(prefix))[skip]
      if (found !== undefined) return found.slice(prefix.length)
      await new Promise<void>((wake) => waiters.push(wake))
    }
  }
  const port = await next('port ')
  return {
    url: `http://127.0.0.1:${port}`,
    /** Bytes of the next finished big answer that got out. */
    sent: async () => Number(await next('sent ', taken++)),
    /** Big answers finished so far. */
    answered: () => lines.filter((line) => line.startsWith('sent ')).length,
    close: () => void child.kill(),
  }
}
