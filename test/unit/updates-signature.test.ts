import { createHash, generateKeyPairSync, sign } from 'node:crypto'
import type { KeyObject } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { UpdateState } from '@shared/ipc/contract'
import {
  channelFile,
  compareVersions,
  createUpdateService,
  createUpdateVerifier,
  parseUpdateMetadata,
  UpdateRefusedError,
  verifyMetadataSignature,
} from '@main/core/updates'
import type { UpdateMetadata, UpdaterPort } from '@main/core/updates'
import { updatePublicKey } from '@main/core/updates/signed-feed'
import { realTimers } from '@main/core/ports'
import { silentLogger } from '@main/core/log'

/**
 * The update feed trusted only as far as the project's signature: a throwaway Ed25519 key pair stands for
 * the release key, and a real HTTP server on loopback is the feed, acting as a hostile one would
 * (unsigned metadata, a signature by another key, a replay of an older signed feed, metadata too large).
 */
const keyPair = () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519')
  return { privateKey, spki: publicKey.export({ type: 'spki', format: 'der' }).toString('base64') }
}
const release = keyPair()
const stranger = keyPair()
const signed = (bytes: Buffer, key: KeyObject = release.privateKey) =>
  sign(null, bytes, key).toString('base64')

const ARTEFACT = Buffer.from('#!/bin/sh\necho next\n')
const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64')
/** `latest-linux.yml` as electron-builder writes it. */
const latestYml = (version: string, bytes = ARTEFACT) =>
  Buffer.from(
    [
      `version: ${version}`,
      'files:',
      `  - url: Cadence-${version}.AppImage`,
      `    sha512: ${sha512(bytes)}`,
      `    size: ${bytes.length}`,
      `    blockMapSize: 123`,
      `path: Cadence-${version}.AppImage`,
      `sha512: ${sha512(bytes)}`,
      `releaseDate: '2026-11-20T10:00:00.000Z'`,
      '',
    ].join('\n'),
  )

type Route = { status?: number; body: Buffer | string }
const servers: Server[] = []
async function startFeed(routes: Record<string, Route | (() => Route)>) {
  const requests: string[] = []
  let bytesSent = 0
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://feed').pathname
    requests.push(path)
    const found = routes[path]
    const route = typeof found === 'function' ? found() : found
    if (!route) return void response.writeHead(404).end()
    const body = Buffer.from(route.body)
    bytesSent += body.length
    response.writeHead(route.status ?? 200, { 'Content-Type': 'text/plain' }).end(body)
  })
  servers.push(server)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  return {
    feed: { url: `http://127.0.0.1:${port}/stable`, channelFile: 'latest-linux.yml' },
    requests,
    bytesSent: () => bytesSent,
  }
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))))
})

describe('the update metadata signature', () => {
  it('verifies the release key over exactly the bytes of latest*.yml, and nothing else', () => {
    const key = updatePublicKey(release.spki)
    const yml = latestYml('0.2.0')
    expect(verifyMetadataSignature(yml, signed(yml), key)).toBe(true)
    expect(verifyMetadataSignature(yml, `${signed(yml)}\n`, key)).toBe(true)
    // One byte changed (the version), another key, no signature, not a signature.
    const tampered = Buffer.from(yml.toString().replace('0.2.0', '0.3.0'))
    expect(verifyMetadataSignature(tampered, signed(yml), key)).toBe(false)
    expect(verifyMetadataSignature(yml, signed(yml, stranger.privateKey), key)).toBe(false)
    expect(verifyMetadataSignature(yml, '', key)).toBe(false)
    expect(verifyMetadataSignature(yml, 'bm90IGEgc2lnbmF0dXJl', key)).toBe(false)
  })

  it('refuses a key that is not Ed25519', () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    expect(() =>
      updatePublicKey(publicKey.export({ type: 'spki', format: 'der' }).toString('base64')),
    ).toThrow(/Ed25519/)
  })
})

describe('parseUpdateMetadata', () => {
  it('reads what electron-builder writes: the version, and each file with its sha512 and size', () => {
    expect(parseUpdateMetadata(latestYml('0.2.0').toString())).toEqual({
      version: '0.2.0',
      files: [
        { url: 'Cadence-0.2.0.AppImage', sha512: sha512(ARTEFACT), size: ARTEFACT.length, blockMapSize: 123 },
      ],
      path: 'Cadence-0.2.0.AppImage',
      sha512: sha512(ARTEFACT),
      releaseDate: '2026-11-20T10:00:00.000Z',
    })
  })

  it('skips release notes written as a block, and refuses metadata without a version or a sha512', () => {
    const notes = `${latestYml('0.2.0').toString()}releaseNotes: |-\n  Fixes.\n  - not a file: here\n`
    expect(parseUpdateMetadata(notes).files).toHaveLength(1)
    expect(() =>
      parseUpdateMetadata(latestYml('0.2.0').toString().replace('version: 0.2.0', 'version: next')),
    ).toThrow()
    expect(() => parseUpdateMetadata('version: 0.2.0\nfiles:\n  - url: a.AppImage\n')).toThrow()
    expect(() => parseUpdateMetadata(`${latestYml('0.2.0').toString()}version: 0.3.0\n`)).toThrow(/twice/)
  })
})

describe('compareVersions', () => {
  it('orders by semver precedence', () => {
    expect(compareVersions('0.2.0', '0.1.0')).toBeGreaterThan(0)
    expect(compareVersions('0.10.0', '0.9.0')).toBeGreaterThan(0)
    expect(compareVersions('0.1.0', '0.1.0')).toBe(0)
    expect(compareVersions('0.0.9', '0.1.0')).toBeLessThan(0)
    expect(compareVersions('1.0.0-beta.2', '1.0.0')).toBeLessThan(0)
    expect(compareVersions('1.0.0-beta.11', '1.0.0-beta.2')).toBeGreaterThan(0)
    expect(compareVersions('1.0.0-alpha', '1.0.0-alpha.1')).toBeLessThan(0)
    expect(compareVersions('1.0.0+build.5', '1.0.0')).toBe(0)
    expect(() => compareVersions('latest', '1.0.0')).toThrow()
  })

  it('names the metadata file electron-updater reads on each platform', () => {
    expect(channelFile('linux', 'x64')).toBe('latest-linux.yml')
    expect(channelFile('linux', 'arm64')).toBe('latest-linux-arm64.yml')
    expect(channelFile('darwin', 'arm64')).toBe('latest-mac.yml')
    expect(channelFile('win32', 'x64')).toBe('latest.yml')
  })
})

describe('createUpdateVerifier, against a feed on loopback', () => {
  const verifier = () => createUpdateVerifier({ fetch, publicKey: release.spki })

  it('returns what the signed metadata says', async () => {
    const yml = latestYml('0.2.0')
    const { feed, requests } = await startFeed({
      '/stable/latest-linux.yml': { body: yml },
      '/stable/latest-linux.yml.sig': { body: `${signed(yml)}\n` },
    })
    const metadata = await verifier().read(feed)
    expect(metadata).toMatchObject({ version: '0.2.0', files: [{ sha512: sha512(ARTEFACT) }] })
    expect(requests).toEqual(['/stable/latest-linux.yml', '/stable/latest-linux.yml.sig'])
  })

  it('refuses metadata without a signature, and a signature by another key', async () => {
    const yml = latestYml('0.2.0')
    const unsigned = await startFeed({ '/stable/latest-linux.yml': { body: yml } })
    await expect(verifier().read(unsigned.feed)).rejects.toMatchObject({ reason: 'unsigned' })
    const forged = await startFeed({
      '/stable/latest-linux.yml': { body: yml },
      '/stable/latest-linux.yml.sig': { body: signed(yml, stranger.privateKey) },
    })
    const error = await verifier()
      .read(forged.feed)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UpdateRefusedError)
    expect(error).toMatchObject({ reason: 'bad-signature' })
  })

  it('reads at most 256 KB of metadata: a huge one is an error, and its signature is never asked for', async () => {
    const huge = Buffer.alloc(64 * 1024 * 1024, 0x61)
    const { feed, requests } = await startFeed({ '/stable/latest-linux.yml': { body: huge } })
    const error = await verifier()
      .read(feed)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect(error).not.toBeInstanceOf(UpdateRefusedError)
    expect(requests).toEqual(['/stable/latest-linux.yml'])
  })
})

describe('the update service with the verifier, against a feed on loopback', () => {
  /** The updater the glue wraps (electron-updater), recording what the core hands it. */
  function recordingUpdater(feed: { url: string; channelFile: string }, downloaded: Buffer) {
    const dir = mkdtempSync(join(tmpdir(), 'cadence-update-'))
    const seen = { checked: [] as UpdateMetadata[], downloads: 0, discarded: [] as string[] }
    const port: UpdaterPort = {
      feed: async () => feed,
      async check(metadata) {
        seen.checked.push(metadata)
        return { version: metadata.version }
      },
      async download(onProgress) {
        seen.downloads++
        const file = join(dir, 'Cadence.AppImage')
        writeFileSync(file, downloaded)
        onProgress(100)
        return [file]
      },
      async discard(files) {
        seen.discarded.push(...files)
      },
      install: () => {},
    }
    return { port, seen }
  }

  async function run(routes: Record<string, Route>, downloaded = ARTEFACT) {
    const { feed, requests } = await startFeed(routes)
    const { port, seen } = recordingUpdater(feed, downloaded)
    const states: UpdateState[] = []
    const service = createUpdateService({
      updater: port,
      verifier: createUpdateVerifier({ fetch, publicKey: release.spki }),
      currentVersion: '0.1.0',
      enabled: () => true,
      timers: realTimers,
      now: Date.now,
      log: silentLogger('updates'),
      onState: (state) => states.push(state),
    })
    service.start()
    await vi.waitFor(() => expect(service.state().checkedAt).not.toBeNull(), { timeout: 10_000 })
    await vi.waitFor(() => expect(service.state().status).not.toBe('downloading'), { timeout: 10_000 })
    service.dispose()
    return { state: service.state(), states, seen, requests }
  }
  const feedOf = (yml: Buffer, signature?: string): Record<string, Route> => ({
    '/stable/latest-linux.yml': { body: yml },
    ...(signature === undefined ? {} : { '/stable/latest-linux.yml.sig': { body: signature } }),
  })

  it('downloads a newer version the release key signed, handing the updater exactly the signed metadata', async () => {
    const yml = latestYml('0.2.0')
    const { state, seen } = await run(feedOf(yml, signed(yml)))
    expect(state).toMatchObject({ status: 'ready', version: '0.2.0' })
    expect(seen.checked).toEqual([parseUpdateMetadata(yml.toString())])
    expect(seen.downloads).toBe(1)
  })

  it('refuses an unsigned feed before anything is downloaded', async () => {
    const { state, seen } = await run(feedOf(latestYml('0.2.0')))
    expect(state).toMatchObject({ status: 'refused', reason: 'unsigned' })
    expect(seen.checked).toEqual([])
    expect(seen.downloads).toBe(0)
  })

  it('refuses metadata signed by another key, or changed after signing', async () => {
    const yml = latestYml('0.2.0')
    const forged = await run(feedOf(yml, signed(yml, stranger.privateKey)))
    expect(forged.state).toMatchObject({ status: 'refused', reason: 'bad-signature' })
    expect(forged.seen.downloads).toBe(0)
    // The old build's file under the new version: the signature no longer covers the bytes.
    const swapped = Buffer.from(yml.toString().replaceAll(sha512(ARTEFACT), sha512(Buffer.from('old build'))))
    const changed = await run(feedOf(swapped, signed(yml)))
    expect(changed.state).toMatchObject({ status: 'refused', reason: 'bad-signature' })
    expect(changed.seen.checked).toEqual([])
  })

  it('refuses a replay of an older signed feed, and says nothing for the signed current version', async () => {
    const old = latestYml('0.0.9')
    const replay = await run(feedOf(old, signed(old)))
    expect(replay.state).toMatchObject({ status: 'refused', reason: 'older', version: '0.0.9' })
    expect(replay.seen.checked).toEqual([])
    const same = latestYml('0.1.0')
    const current = await run(feedOf(same, signed(same)))
    expect(current.state).toMatchObject({ status: 'idle' })
    expect(current.seen.checked).toEqual([])
    expect(current.states.some((s) => s.status === 'refused' || s.status === 'failed')).toBe(false)
  })

  it('refuses and discards a downloaded file whose sha512 is not the signed one', async () => {
    const yml = latestYml('0.2.0')
    const { state, seen } = await run(feedOf(yml, signed(yml)), Buffer.from('another build'))
    expect(state).toMatchObject({ status: 'failed', version: '0.2.0', reason: 'corrupt' })
    expect(seen.discarded).toHaveLength(1)
  })

  it('treats a feed whose signature is unreachable (HTTP 503) as offline, not as unsigned', async () => {
    const yml = latestYml('0.2.0')
    const { state, seen } = await run({
      '/stable/latest-linux.yml': { body: yml },
      '/stable/latest-linux.yml.sig': { status: 503, body: 'busy' },
    })
    expect(state.status).toBe('idle')
    expect(seen.downloads).toBe(0)
  })
})
