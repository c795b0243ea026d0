import { createHash, generateKeyPairSync } from 'node:crypto'
import {
  closeSync,
  cpSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { UPDATE_PUBLIC_KEY } from '@main/core/updates/public-key'
import { signUpdateMetadata } from '../../tools/sign-update'
import { UNPACKED } from './build'

/**
 * A local update feed for the installed app: a `generic` provider's folder served on loopback, holding
 * `latest-linux.yml` as electron-builder writes it for an AppImage (version, files with url/sha512/size,
 * path, sha512, releaseDate), its signature `latest-linux.yml.sig` made by the release step
 * (tools/sign-update.ts) with a throwaway key pair, and the artefact it names. The artefact is a small
 * program standing in for the next AppImage: started after the install, it leaves a file beside itself
 * saying it ran.
 *
 * Modes as a hostile or broken feed would act: `unsigned` (no signature), `forged` (signed by another
 * key), `replay` (the signed metadata of an older release, served again), `corrupt` (signed metadata,
 * other bytes for the file), `down` (HTTP 503).
 */
export type FeedMode = 'newer' | 'same' | 'corrupt' | 'down' | 'unsigned' | 'forged' | 'replay'

/** The throwaway key pair standing for the release key (the private half never leaves this process). */
const keyPair = () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519')
  return {
    spki: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  }
}
export const TEST_KEY = keyPair()
const STRANGER_KEY = keyPair()
export const OLDER_VERSION = '0.0.9'

export const NEXT_VERSION = '0.2.0'
export const ARTEFACT = `Cadence-${NEXT_VERSION}.AppImage`
export const ARTEFACT_BYTES = Buffer.from(
  `#!/bin/sh\n# Cadence ${NEXT_VERSION} (a test artefact): says it was started after the update.\n` +
    `echo "started $0" > "$(dirname "$0")/started-after-update"\n`,
)
const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64')

export function latestLinuxYml(version: string, bytes: Buffer, artefact = ARTEFACT): string {
  const hash = sha512(bytes)
  return [
    `version: ${version}`,
    'files:',
    `  - url: ${artefact}`,
    `    sha512: ${hash}`,
    `    size: ${bytes.length}`,
    `path: ${artefact}`,
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

/** The feed's folder as the release step leaves it: `latest-linux.yml`, signed as the mode says. */
function feedFolder(mode: FeedMode, currentVersion: string): Map<string, Buffer> {
  const folder = mkdtempSync(join(tmpdir(), 'cadence-feed-'))
  try {
    const version = mode === 'same' ? currentVersion : mode === 'replay' ? OLDER_VERSION : NEXT_VERSION
    const artefact = mode === 'replay' ? `Cadence-${OLDER_VERSION}.AppImage` : ARTEFACT
    writeFileSync(join(folder, 'latest-linux.yml'), latestLinuxYml(version, ARTEFACT_BYTES, artefact))
    if (mode === 'forged') signUpdateMetadata(folder, STRANGER_KEY.pem, STRANGER_KEY.spki)
    else if (mode !== 'unsigned') signUpdateMetadata(folder, TEST_KEY.pem, TEST_KEY.spki)
    return new Map(readdirSync(folder).map((name) => [`/${name}`, readFileSync(join(folder, name))]))
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

export async function startUpdateFeed(mode: FeedMode, currentVersion: string): Promise<UpdateFeed> {
  const requests: string[] = []
  const files = feedFolder(mode, currentVersion)
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://feed').pathname
    requests.push(path)
    const file = files.get(path)
    if (mode === 'down') {
      response.writeHead(503, { 'Content-Type': 'text/plain' }).end('Service Unavailable')
    } else if (file) {
      response.writeHead(200, { 'Content-Type': 'text/plain' }).end(file)
    } else if (path === `/${ARTEFACT}` || path === `/Cadence-${OLDER_VERSION}.AppImage`) {
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

/**
 * A copy of the built package whose app trusts `TEST_KEY` instead of the release key: the release
 * public key (public-key.ts, base64 of the same length for every Ed25519 key) is written over in
 * `out/main/index.js` inside app.asar, and that file's integrity in the archive's header is made
 * again, as the archive would have been packed with this key. Nothing else differs from the shipped
 * package; the app has no other way to take another key (no setting, environment or file). Returns the
 * copy's folder (`cadence` launches it); `dispose` removes it.
 */
export function packageTrustingTestKey(): { dir: string; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'cadence-package-'))
  cpSync(UNPACKED, dir, { recursive: true })
  const asar = join(dir, 'resources/app.asar')
  const fd = openSync(asar, 'r+')
  try {
    const sizePickle = Buffer.alloc(8)
    readSync(fd, sizePickle, 0, 8, 0)
    const headerSize = sizePickle.readUInt32LE(4)
    const header = Buffer.alloc(headerSize)
    readSync(fd, header, 0, headerSize, 8)
    const jsonLength = header.readUInt32LE(4)
    const jsonText = header.subarray(8, 8 + jsonLength).toString('utf8')
    type Node = {
      files?: Record<string, Node>
      size?: number
      offset?: string
      integrity?: { algorithm: string; hash: string; blockSize: number; blocks: string[] }
    }
    const json = JSON.parse(jsonText) as Node
    const entry = json.files?.out?.files?.main?.files?.['index.js']
    if (!entry?.size || entry.offset === undefined) throw new Error('No out/main/index.js in app.asar')
    const at = 8 + headerSize + Number(entry.offset)
    const bytes = Buffer.alloc(entry.size)
    readSync(fd, bytes, 0, entry.size, at)
    const text = bytes.toString('latin1')
    const found = text.split(UPDATE_PUBLIC_KEY).length - 1
    if (found !== 1 || TEST_KEY.spki.length !== UPDATE_PUBLIC_KEY.length) {
      throw new Error(`The release public key is in out/main/index.js ${found} times (expected once)`)
    }
    const patched = Buffer.from(text.replace(UPDATE_PUBLIC_KEY, TEST_KEY.spki), 'latin1')
    writeSync(fd, patched, 0, patched.length, at)
    if (entry.integrity) {
      const { blockSize } = entry.integrity
      const sha256 = (part: Buffer) => createHash('sha256').update(part).digest('hex')
      entry.integrity.hash = sha256(patched)
      entry.integrity.blocks = entry.integrity.blocks.map((_, i) =>
        sha256(patched.subarray(i * blockSize, (i + 1) * blockSize)),
      )
      const again = Buffer.from(JSON.stringify(json), 'utf8')
      if (again.length !== jsonLength) throw new Error('The archive header changed length')
      writeSync(fd, again, 0, again.length, 8 + 8)
    }
  } finally {
    closeSync(fd)
  }
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) }
}
