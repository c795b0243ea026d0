/**
 * The project's update-signing public key (Ed25519, SubjectPublicKeyInfo DER in base64). An installed app
 * downloads an update only when the feed's `latest*.yml` carries a signature this key verifies
 * (`latest*.yml.sig`, written by `tools/sign-update.ts` in `npm run package`). The private half never
 * enters the repository: it is the release key the maintainers hold (README, "Releases and updates").
 *
 * A constant, on purpose: no setting, environment variable or file can change it in a built app. Tests
 * pass another key through `createCore({ updatePublicKey })`; the package test builds its package with
 * a throwaway key written over this one (test/package/update-feed.ts).
 */
export const UPDATE_PUBLIC_KEY = 'MCowBQYDK2VwAyEAJFZ0D8K0V2KrKWxyIneDBRgnJ5teFJMvi3yKbD5HTtA='
