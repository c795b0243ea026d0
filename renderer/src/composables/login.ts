import { useAuthStore } from '@renderer/stores/auth'
import { useFailure } from './failure'

/**
 * "Log in": asks main to start the QR login (`auth:start-qr`). Main opens the QR login window (or, for
 * the built-in data source, signs in by itself), so this window stays on the view the user was on.
 */
export function useLogin() {
  const auth = useAuthStore()
  const fail = useFailure()
  return async () => {
    const error = await auth.startQr()
    if (error) fail('auth.loginFailed', error)
  }
}
