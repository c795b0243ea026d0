import type { AppInfo } from '@shared/ipc/contract'
import { CadenceError } from '@shared/errors'
import type { Handlers } from '../ipc/router'

type AppChannels = Extract<keyof Handlers, `app:${string}`>

/** Only http(s) addresses ever reach the system browser. */
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
  openExternal: (url: string) => Promise<void> | void
  /** The system clipboard (Electron's `clipboard.writeText`); absent where there is none. */
  copyText?: (text: string) => void
}): Pick<Handlers, AppChannels> {
  return {
    'app:info': () => deps.appInfo,
    'app:open-external': async ({ url }) => {
      if (!isExternalUrl(url)) {
        throw new CadenceError({ kind: 'invalid-argument', message: 'Only web addresses can be opened' })
      }
      await deps.openExternal(url)
    },
    'app:copy-text': ({ text }) => {
      if (!deps.copyText) {
        throw new CadenceError({ kind: 'unavailable', message: 'There is no clipboard to copy to here' })
      }
      deps.copyText(text)
    },
  }
}
