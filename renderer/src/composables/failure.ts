import { useI18n } from 'vue-i18n'
import { useNotificationsStore } from '@renderer/stores/notifications'
import { toCadenceError } from '@renderer/services/cadence-error'
import { errorText } from './error-text'

/**
 * Reports a failed action as a toast: the message `key` in the user's language with `{reason}` filled
 * by a plain sentence (`errorText`), the raw error only behind Details; `count` picks the message's plural
 * form. Answers `undefined`, so a caller can `return fail(...)`.
 */
export function useFailure() {
  const { t } = useI18n()
  const notifications = useNotificationsStore()
  return (key: string, cause: unknown, count?: number): undefined => {
    const { message, details } = errorText(toCadenceError(cause), t)
    const text = count === undefined ? t(key, { reason: message }) : t(key, { reason: message }, count)
    notifications.error(text, details)
    return undefined
  }
}

/**
 * Reports a failure as a toast on its own: the plain sentence for its kind (`errorText`), the raw error
 * only behind Details.
 */
export function useErrorToast() {
  const { t } = useI18n()
  const notifications = useNotificationsStore()
  return (cause: unknown): void => {
    const { message, details } = errorText(toCadenceError(cause), t)
    notifications.error(message, details)
  }
}
