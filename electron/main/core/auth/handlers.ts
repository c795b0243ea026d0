import { CadenceError } from '@shared/errors'
import { isExternalUrl } from '../app/handlers'
import type { Handlers } from '../ipc/router'
import type { AuthService } from './service'

type AuthChannels = Extract<keyof Handlers, `auth:${string}`>

/** Scheme, host and port of an address, or undefined. */
function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined
  try {
    const origin = new URL(url).origin
    return origin === 'null' ? undefined : origin
  } catch {
    return undefined
  }
}

/**
 * `openExternal` opens the running QR login's own page (never an address the renderer names): for a data
 * source on this computer, whose page no phone can reach; only when it is on the data source's own origin
 * (scheme, host and port of its address), else a `forbidden` error the login view shows.
 */
export function createAuthHandlers(
  auth: AuthService,
  openExternal: (url: string) => Promise<void> | void,
): Pick<Handlers, AuthChannels> {
  return {
    'auth:status': () => auth.state(),
    'auth:start-qr': () => auth.startQr(),
    'auth:cancel-qr': () => auth.cancelQr(),
    'auth:qr-state': () => auth.qrState(),
    'auth:open-qr-page': async () => {
      const url = auth.qrRunning() ? auth.qrState()?.qrurl : undefined
      if (!url || !isExternalUrl(url)) {
        throw new CadenceError({ kind: 'unavailable', message: 'There is no sign-in page to open now' })
      }
      // Only a page of the data source itself: a source may not have this computer open another site.
      const own = originOf(auth.qrSourceUrl())
      const page = originOf(url)
      if (!own || page !== own) {
        throw new CadenceError({
          kind: 'forbidden',
          message: `The sign-in page is at ${page ?? 'an unreadable address'}, not on the data source (${own ?? 'unknown'}), so Cadence did not open it. Scan the code with your phone instead.`,
        })
      }
      await openExternal(url)
    },
    'auth:logout': () => auth.logout(),
  }
}
