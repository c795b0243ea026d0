import type { App } from 'vue'
import type { Pinia } from 'pinia'
import { asCadenceError } from '@shared/errors'
import { useNotificationsStore } from '@renderer/stores/notifications'

/**
 * A failure nobody caught (a bug in a click handler, a rejected promise no one awaited) never reaches a
 * person as raw JavaScript: it becomes one toast in their language, "Something went wrong", with the
 * technical text behind Details, and is logged. Nothing on screen is torn down.
 */
export function reportUnexpectedErrors(app: App, pinia: Pinia, t: (key: string) => string): void {
  const report = (cause: unknown) => {
    const error = asCadenceError(cause)
    if (error.kind === 'cancelled') return
    console.error('Unexpected error', cause)
    const details = [error.message || String(cause)]
    useNotificationsStore(pinia).error(t('common.errorUnexpected'), details)
  }
  app.config.errorHandler = (cause) => report(cause)
  window.addEventListener('unhandledrejection', (event) => {
    event.preventDefault()
    report(event.reason)
  })
  window.addEventListener('error', (event) => {
    // A resource that failed to load (an image) is not a program error.
    if (event.error !== undefined) report(event.error)
  })
}
