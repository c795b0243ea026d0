import type { Handlers } from '../ipc/router'
import type { AuthService } from './service'

type AuthChannels = Extract<keyof Handlers, `auth:${string}`>

export function createAuthHandlers(auth: AuthService): Pick<Handlers, AuthChannels> {
  return {
    'auth:status': () => auth.state(),
    'auth:start-qr': () => auth.startQr(),
    'auth:cancel-qr': () => auth.cancelQr(),
    'auth:qr-state': () => auth.qrState(),
    'auth:logout': () => auth.logout(),
  }
}
