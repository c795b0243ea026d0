import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { UPDATE_PUBLIC_KEY } from '../electron/main/core/updates/public-key.ts'
import { SIGNATURE_SUFFIX } from '../electron/main/core/updates/signed-feed.ts'

/**
 * Signs the update metadata electron-builder wrote (`latest*.yml` in the output folder) with the
 * project's Ed25519 release key: `<file>.sig` beside each, the base64 of the 64-byte signature over the
 * file's exact bytes. Installed apps download an update only when this signature verifies with the
 * public key built into them (electron/main/core/updates/public-key.ts); upload each `.sig` with its yml.
 *
 * The private key never enters the repository. It is read from `CADENCE_UPDATE_SIGNING_KEY` (the PEM
 * text, e.g. a CI secret) or from the file `CADENCE_UPDATE_SIGNING_KEY_FILE` names. A key whose public
 * half is not the one in public-key.ts is refused (installed apps would refuse what it signs).
 *
 * Usage: `tsx tools/sign-update.ts [folder]` (default `dist`; `npm run package` runs it), or
 * `tsx tools/sign-update.ts --new-key <file>` to make a new release key pair: the private key goes to
 * `<file>` (mode 600) and the public key to paste into public-key.ts is printed.
 */

/** Signs every `latest*.yml` in `folder`; returns the signature files written. */
export function signUpdateMetadata(
  folder: string,
  privateKeyPem: string,
  publicKey = UPDATE_PUBLIC_KEY,
): string[] {
  const privateKey = createPrivateKey(privateKeyPem)
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw new Error('The update signing key is not an Ed25519 key')
  const derived = createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64')
  if (derived !== publicKey) {
    throw new Error(
      'The update signing key does not match the public key built into the app (public-key.ts): ' +
        'installed apps would refuse what it signs',
    )
  }
  const files = readdirSync(folder).filter((name) => /^latest.*\.yml$/.test(name))
  if (!files.length) throw new Error(`No latest*.yml in ${folder}: nothing to sign`)
  return files.map((name) => {
    const bytes = readFileSync(join(folder, name))
    const signature = sign(null, bytes, privateKey)
    // Checked with the public key alone, as the app will.
    const key = createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' })
    if (!verify(null, bytes, key, signature)) throw new Error(`The signature of ${name} does not verify`)
    const out = join(folder, `${name}${SIGNATURE_SUFFIX}`)
    writeFileSync(out, `${signature.toString('base64')}\n`)
    return out
  })
}

function signingKey(): string {
  const text = process.env.CADENCE_UPDATE_SIGNING_KEY
  if (text) return text
  const file = process.env.CADENCE_UPDATE_SIGNING_KEY_FILE
  if (file) return readFileSync(file, 'utf8')
  throw new Error(
    'No update signing key: set CADENCE_UPDATE_SIGNING_KEY (the PEM) or CADENCE_UPDATE_SIGNING_KEY_FILE ' +
      '(its path). Without the signature, installed apps refuse the update.',
  )
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2)
  if (args[0] === '--new-key') {
    const file = args[1]
    if (!file || existsSync(file)) throw new Error('Usage: --new-key <file that does not exist yet>')
    const { publicKey, privateKey } = generateKeyPairSync('ed25519')
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 })
    console.log(publicKey.export({ type: 'spki', format: 'der' }).toString('base64'))
  } else {
    const folder = resolve(args[0] ?? 'dist')
    for (const written of signUpdateMetadata(folder, signingKey())) console.log(`signed: ${written}`)
  }
}
