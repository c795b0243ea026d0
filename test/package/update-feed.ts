import { createHash } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local update feed for the installed app: a `generic` provider's folder served on loopback, holding
 * `latest-linux.yml` as electron-builder writes it for an AppImage (version, files with url/sha512/size,
 * path, sha512, releaseDate) and the artefact it names. The artefact is a small program standing in for
 * the next AppImage: started after the install, it leaves a file beside itself saying it ran.
 */
export type FeedMode = 'newer' | 'same' | 'corrupt' | 'down'

export const NEXT_VERSION = '0.2.0'
export const ARTEFACT = `Cadence-${NEXT_VERSION}.AppImage`
export const ARTEFACT_BYTES = Buffer.from(
  `#!/bin/sh\n# Cadence ${NEXT_VERSION} (a test artefact): says it was started after the update.\n` +
    `echo "started $0" > "$(dirname "$0")/started-after-update"\n`,
)
const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64')

export function latestLinuxYml(version: string, bytes: Buffer): string {
  const hash = sha512(bytes)
  return [
    `version: ${version}`,
    'files:',
    `  - url: ${ARTEFACT}`,
    `    sha512: ${hash}`,
    `    size: ${bytes.length}`,
    `path: ${ARTEFACT}`,
    `sha512: ${hash}`,
    `releaseDate: '2026-11-20T10:00:00.000Z'`,
    '',
  ].join('\n')
}

export interface UpdateFeed {
  url: string
  requests: string[]
  close(): Promise<void>
}

export async function startUpdateFeed(mode: FeedMode, currentVersion: string): Promise<UpdateFeed> {
  const requests: string[] = []
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://feed').pathname
    requests.push(path)
    if (mode === 'down') {
      response.writeHead(503, { 'Content-Type': 'text/plain' }).end('Service Unavailable')
    } else if (path === '/latest-linux.yml') {
      const version = mode === 'same' ? currentVersion : NEXT_VERSION
      response.writeHead(200, { 'Content-Type': 'text/yaml' }).end(latestLinuxYml(version, ARTEFACT_BYTES))
    } else if (path === `/${ARTEFACT}`) {
      // Corrupt: the same length, other bytes (a damaged transfer or a tampered mirror).
      const bytes = mode === 'corrupt' ? Buffer.from(ARTEFACT_BYTES.map((byte) => byte ^ 1)) : ARTEFACT_BYTES
      response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': bytes.length })
      response.end(bytes)
    } else {
      response.writeHead(404).end()
    }
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise((done) => server.close(() => done())),
  }
}
