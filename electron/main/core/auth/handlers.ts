import { CadenceError } from '@shared/errors'
import { isExternalUrl } from '../app/handlers'
import type { Handlers } from '../ipc/router'
import type { AuthService } from './service'

type AuthChannels = Extract<keyof Handlers, `auth:${string}`>

/**
 * `openExternal` opens the running QR login's own page (never an address the renderer names): for a data
 * source on this computer, whose page no phone can reach.
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
      await openExternal(url)
    },
    'auth:logout': () => auth.logout(),
  }
}
