import { useI18n } from 'vue-i18n'
import type { CadenceError } from '@shared/errors'

/** What a person is told about a failure, and the technical text kept behind "Details". */
export interface ErrorText {
  /** One plain sentence in the user's language. */
  message: string
  /** The raw message, where it happened, what the server said: shown only on request. */
  details: string[]
}

type Translate = (key: string) => string

/**
 * The one mapping from a failure to words: by its kind, in the user's language. Only refusals written for
 * people are shown as they came: the data source's own (`api`, its envelope's message) and the app's
 * deliberate ones (`invalid-argument`, `forbidden`). Anything the app did not expect (`internal`: a
 * JavaScript error, a handler that threw) is "Something went wrong", never the raw text, which goes to
 * the details.
 */
export function errorText(error: CadenceError | undefined, t: Translate): ErrorText {
  if (!error) return { message: t('common.errorGeneric'), details: [] }
  if (error.kind === 'unauthorized') {
    // Refused a song while signed out: some servers play only for signed-in users (main says so).
    const playing = error.endpoint === '/song/detail'
    return { message: t(playing ? 'player.signInToPlay' : 'auth.signedOutLogInAgain'), details: [] }
  }
  const message = (() => {
    switch (error.kind) {
      case 'network':
      case 'timeout':
        return t('common.errorNetwork')
      case 'unavailable':
        return t('common.errorUnavailable')
      case 'http':
        return t('common.errorServer')
      case 'invalid-response':
        return t('common.errorUnreadable')
      // The data source's own refusal, and the app's deliberate refusals (a bad address, a full
      // playlist), are sentences written for people.
      case 'api':
      case 'invalid-argument':
      case 'forbidden':
        return error.message || t('common.errorGeneric')
      // A bug (`internal`: a JavaScript error, a handler that threw) or a call this version lacks.
      default:
        return t('common.errorGeneric')
    }
  })()
  const details = error.message && error.message !== message ? [error.message] : []
  if (error.detail) details.push(error.detail)
  if (error.endpoint) details.push(error.endpoint)
  if (error.channel) details.push(error.channel)
  if (error.status !== undefined) details.push(`HTTP ${error.status}`)
  if (error.code !== undefined) details.push(`code ${error.code}`)
  return { message, details }
}

/** Whether asking again can help: not when the data source refused what was asked (HTTP 400). */
export function isRetryable(error: CadenceError | undefined): boolean {
  return !(error?.status === 400 || error?.kind === 'invalid-argument')
}

/** `errorText` with the component's translations. */
export function useErrorText(): (error: CadenceError | undefined) => ErrorText {
  const { t } = useI18n()
  return (error) => errorText(error, t)
}
