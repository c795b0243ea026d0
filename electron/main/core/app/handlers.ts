import type { AppInfo } from '@shared/ipc/contract'
import { CadenceError } from '@shared/errors'
import type { Handlers } from '../ipc/router'

type AppChannels = Extract<keyof Handlers, `app:${string}`>

/**
 * Only http(s) addresses ever reach the system browser. The renderer cannot name one: the only caller
 * is `auth:open-qr-page`, which opens the running QR login's own page.
 */
export function isExternalUrl(url: string): boolean {
  try {
    const parsed = new URL(url)
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && !!parsed.hostname
  } catch {
    return false
  }
}

export function createAppHandlers(deps: {
  appInfo: AppInfo
  /** The system clipboard (Electron's `clipboard.writeText`); absent where there is none. */
  copyText?: (text: string) => void
}): Pick<Handlers, AppChannels> {
  return {
    'app:info': () => deps.appInfo,
    'app:copy-text': ({ text }) => {
      if (!deps.copyText) {
        throw new CadenceError({ kind: 'unavailable', message: 'There is no clipboard to copy to here' })
      }
      deps.copyText(text)
    },
  }
}
