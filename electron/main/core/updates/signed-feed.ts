import { createHash, createPublicKey, verify } from 'node:crypto'
import type { KeyObject } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readCapped } from '../api/read-capped'

/**
 * The update feed's metadata, trusted only as far as the project's signature: `latest*.yml` (what
 * electron-builder writes: version, files with url/sha512/size, path, sha512, releaseDate) is read here,
 * in main, with the capped reader, with its Ed25519 signature `latest*.yml.sig` (base64 of the 64 bytes,
 * written by tools/sign-update.ts). Only the bytes the signature covers are parsed, and the updater is
 * handed what was parsed (glue/updates.ts), so it never reads the feed's metadata itself.
 */

/** A `latest*.yml` is well under 1 KB; releases notes could make it longer, never this long. */
export const MAX_METADATA_BYTES = 256 * 1024
/** The signature file: 88 base64 characters and a newline. */
export const MAX_SIGNATURE_BYTES = 1024
/** The suffix of the signature file beside each `latest*.yml`. */
export const SIGNATURE_SUFFIX = '.sig'

/** One file the metadata names: its address (relative to the feed), sha512 (base64) and size. */
export interface UpdateFile {
  url: string
  sha512: string
  size?: number
  blockMapSize?: number
}

/** What the signed metadata says, in the shape electron-updater's `UpdateInfo` has. */
export interface UpdateMetadata {
  version: string
  files: UpdateFile[]
  path?: string
  sha512?: string
  releaseDate?: string
}

/** Where the feed is: its base address and the metadata file this platform reads there. */
export interface UpdateFeed {
  url: string
  channelFile: string
}

/** Why an update was refused before anything was downloaded. */
export type UpdateRefusal = 'unsigned' | 'bad-signature'

export class UpdateRefusedError extends Error {
  constructor(
    readonly reason: UpdateRefusal,
    message: string,
  ) {
    super(message)
    this.name = 'UpdateRefusedError'
  }
}

/**
 * The metadata file electron-updater reads on a platform (its Provider.getDefaultChannelName):
 * `latest-linux.yml` (x64), `latest-linux-arm64.yml`, `latest-mac.yml`, `latest.yml` on Windows.
 */
export function channelFile(platform: string, arch: string): string {
  const suffix =
    platform === 'linux' ? `-linux${arch === 'x64' ? '' : `-${arch}`}` : platform === 'darwin' ? '-mac' : ''
  return `latest${suffix}.yml`
}

/** The public key from its base64 SubjectPublicKeyInfo (public-key.ts); throws when it is not Ed25519. */
export function updatePublicKey(spkiBase64: string): KeyObject {
  const key = createPublicKey({ key: Buffer.from(spkiBase64, 'base64'), format: 'der', type: 'spki' })
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('The update key is not an Ed25519 key')
  return key
}

/** Whether `signature` (the `.sig` file's text: base64 of 64 bytes) is the key's Ed25519 signature of exactly `bytes`. */
export function verifyMetadataSignature(bytes: Uint8Array, signature: string, key: KeyObject): boolean {
  const text = signature.trim()
  if (!/^[A-Za-z0-9+/]{86}==$/.test(text)) return false
  return verify(null, bytes, key, Buffer.from(text, 'base64'))
}

// --- versions (semver 2.0 precedence) ---

const SEMVER =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/

export const isVersion = (text: string): boolean => text.length <= 256 && SEMVER.test(text)

/** Negative when `a` is older than `b`, 0 when the same, positive when newer (build metadata ignored). Throws on a non-semver. */
export function compareVersions(a: string, b: string): number {
  const parse = (text: string) => {
    const match = text.length <= 256 ? SEMVER.exec(text) : null
    if (!match) throw new Error(`Not a version: ${text.slice(0, 40)}`)
    return { core: [match[1], match[2], match[3]].map(BigInt), pre: match[4]?.split('.') ?? [] }
  }
  const x = parse(a)
  const y = parse(b)
  for (let i = 0; i < 3; i++) if (x.core[i] !== y.core[i]) return x.core[i] < y.core[i] ? -1 : 1
  // A pre-release is older than its release; identifiers compare numerically when numeric, else as text.
  if (!x.pre.length || !y.pre.length) return y.pre.length - x.pre.length
  for (let i = 0; i < Math.min(x.pre.length, y.pre.length); i++) {
    const [p, q] = [x.pre[i], y.pre[i]]
    if (p === q) continue
    const [pn, qn] = [/^\d+$/.test(p), /^\d+$/.test(q)]
    if (pn && qn) return BigInt(p) < BigInt(q) ? -1 : 1
    if (pn !== qn) return pn ? -1 : 1
    return p < q ? -1 : 1
  }
  return x.pre.length - y.pre.length
}

// --- the metadata's YAML (the subset electron-builder writes) ---

function scalar(raw: string): string {
  const text = raw.trim()
  if (text.startsWith("'")) {
    if (!text.endsWith("'") || text.length < 2) throw new Error('An unterminated quoted value')
    return text.slice(1, -1).replaceAll("''", "'")
  }
  if (text.startsWith('"')) {
    if (!text.endsWith('"') || text.length < 2) throw new Error('An unterminated quoted value')
    return JSON.parse(text) as string
  }
  // A plain value ends at a comment.
  return text.replace(/\s+#.*$/, '')
}

const KEY_VALUE = /^([A-Za-z][A-Za-z0-9_]*):(?:\s+(.*))?$/

/**
 * Reads the top-level `key: value` pairs of a YAML mapping and the `files:` list of mappings, as
 * electron-builder writes `latest*.yml` and `app-update.yml`; anything else nested (release notes as a
 * block) is skipped. Throws on what is not that shape.
 */
export function readYamlMapping(text: string): { top: Map<string, string>; files: Map<string, string>[] } {
  const top = new Map<string, string>()
  const files: Map<string, string>[] = []
  let section: string | undefined
  let block = false
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue
    const indented = /^\s/.test(line)
    if (indented) {
      if (section !== 'files' || block) continue
      const item = /^\s*- (.*)$/.exec(line)
      const pair = KEY_VALUE.exec((item ? item[1] : line).trim())
      if (!pair) throw new Error('A files entry is not a key and a value')
      if (item) files.push(new Map())
      const file = files.at(-1)
      if (!file || file.has(pair[1])) throw new Error('A files entry outside the list, or a key twice')
      file.set(pair[1], scalar(pair[2] ?? ''))
      continue
    }
    const pair = KEY_VALUE.exec(line)
    if (!pair) throw new Error('A line is not a key and a value')
    const key = pair[1]
    const value = pair[2]?.trim() ?? ''
    if (top.has(key) || (key === 'files' && files.length)) throw new Error(`"${key}" twice`)
    section = key
    block = value !== ''
    if (value === '') continue
    // A block scalar (`releaseNotes: |-`): its indented lines are skipped.
    if (/^[|>][-+]?$/.test(value)) continue
    top.set(key, scalar(value))
  }
  return { top, files }
}

const SHA512_BASE64 = /^[A-Za-z0-9+/]{86}==$/

/** The update metadata the signed bytes give; throws when they do not name a version and a file with its sha512. */
export function parseUpdateMetadata(text: string): UpdateMetadata {
  const { top, files } = readYamlMapping(text)
  const version = top.get('version') ?? ''
  if (!isVersion(version)) throw new Error('The metadata names no valid version')
  const list: UpdateFile[] = files.map((file) => {
    const url = file.get('url') ?? ''
    const sha512 = file.get('sha512') ?? ''
    if (!url || !SHA512_BASE64.test(sha512)) throw new Error('A file without its address or sha512')
    const size = Number(file.get('size'))
    const blockMapSize = Number(file.get('blockMapSize'))
    return {
      url,
      sha512,
      ...(Number.isSafeInteger(size) && size >= 0 ? { size } : {}),
      ...(Number.isSafeInteger(blockMapSize) && blockMapSize >= 0 ? { blockMapSize } : {}),
    }
  })
  const path = top.get('path')
  const sha512 = top.get('sha512')
  // The older form: only `path` and `sha512` (electron-updater's getFileList reads it the same way).
  if (!list.length && path && sha512 && SHA512_BASE64.test(sha512)) list.push({ url: path, sha512 })
  if (!list.length) throw new Error('The metadata names no file')
  const releaseDate = top.get('releaseDate')
  return {
    version,
    files: list,
    ...(path ? { path } : {}),
    ...(sha512 ? { sha512 } : {}),
    ...(releaseDate ? { releaseDate } : {}),
  }
}

// --- reading the feed ---

export interface UpdateVerifierDeps {
  fetch: typeof fetch
  /** The project's key (public-key.ts); tests pass a throwaway one. */
  publicKey: string
  /** Per request (default 60 s). */
  timeoutMs?: number
}

export interface UpdateVerifier {
  /**
   * Reads `<feed>/<channelFile>` and its signature and returns what the signed bytes say. Rejects with an
   * `UpdateRefusedError` when the feed has no signature for them or a wrong one, and with any other
   * error when the feed cannot be read (unreachable, an HTTP error, an answer over the cap).
   */
  read(feed: UpdateFeed): Promise<UpdateMetadata>
  /** Whether the downloaded file's sha512 is one the signed metadata names. */
  fileMatches(path: string, metadata: UpdateMetadata): Promise<boolean>
}

export function createUpdateVerifier(deps: UpdateVerifierDeps): UpdateVerifier {
  const key = updatePublicKey(deps.publicKey)
  const get = async (url: URL, limit: number) => {
    const response = await deps.fetch(url, {
      redirect: 'follow',
      cache: 'no-store',
      signal: AbortSignal.timeout(deps.timeoutMs ?? 60_000),
    })
    if (!response.ok) {
      await response.body?.cancel().catch(() => {})
      return { status: response.status }
    }
    return { status: response.status, bytes: await readCapped(response, limit, url.pathname) }
  }
  return {
    async read(feed) {
      const base = new URL(feed.url.endsWith('/') ? feed.url : `${feed.url}/`)
      const metadataUrl = new URL(feed.channelFile, base)
      const metadata = await get(metadataUrl, MAX_METADATA_BYTES)
      if (!metadata.bytes) throw new Error(`The update feed answered HTTP ${metadata.status}`)
      const signature = await get(
        new URL(`${feed.channelFile}${SIGNATURE_SUFFIX}`, base),
        MAX_SIGNATURE_BYTES,
      )
      if (!signature.bytes) {
        if (signature.status >= 400 && signature.status < 500) {
          throw new UpdateRefusedError(
            'unsigned',
            `${feed.channelFile} has no signature (HTTP ${signature.status})`,
          )
        }
        throw new Error(`The update feed answered HTTP ${signature.status}`)
      }
      const text = new TextDecoder('utf-8', { fatal: false }).decode(signature.bytes)
      if (!verifyMetadataSignature(metadata.bytes, text, key)) {
        throw new UpdateRefusedError('bad-signature', `${feed.channelFile}'s signature does not verify`)
      }
      // Signed by the project: from here on the bytes are ours, and only they are read.
      return parseUpdateMetadata(new TextDecoder('utf-8', { fatal: true }).decode(metadata.bytes))
    },
    async fileMatches(path, metadata) {
      const hash = createHash('sha512')
      for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
      const sha512 = hash.digest('base64')
      return metadata.files.some((file) => file.sha512 === sha512)
    },
  }
}
