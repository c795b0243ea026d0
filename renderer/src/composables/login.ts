import { useI18n } from 'vue-i18n'
import { useAuthStore } from '@renderer/stores/auth'
import { useNotificationsStore } from '@renderer/stores/notifications'

/**
 * "Log in": asks main to start the QR login (`auth:start-qr`). Main opens the QR login window (or, for
 * the built-in data source, signs in by itself), so this window stays on the view the user was on.
 */
export function useLogin() {
  const { t } = useI18n()
  const auth = useAuthStore()
  const notifications = useNotificationsStore()
  return async () => {
    const error = await auth.startQr()
    if (error) notifications.error(t('auth.loginFailed', { reason: error.message }))
  }
}
