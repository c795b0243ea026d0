import { protocol } from 'electron'
import { MEDIA_SCHEME } from '@shared/player/media-url'
import type { MediaHandler } from '../core'

/**
 * The media scheme. Privileged before `ready` (Electron allows it only then): standard (an origin and
 * relative URLs), secure, streamed (the body is not buffered, so Range and long files work), reachable by
 * `fetch` and CORS (Web Audio hears cross-origin media only with CORS approval).
 */
export function registerMediaScheme(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: MEDIA_SCHEME,
      privileges: { standard: true, secure: true, stream: true, supportFetchAPI: true, corsEnabled: true },
    },
  ])
}

/** After `ready`: every request on the scheme goes to the core's handler. */
export function handleMediaScheme(handler: MediaHandler): void {
  protocol.handle(MEDIA_SCHEME, (request) => handler(request))
}
