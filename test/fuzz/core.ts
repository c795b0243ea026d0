import { createCore, createMemoryStore } from '@main/core'
import { createTestCipher } from '../support/test-cipher'
import { fakeSourceFetch } from './fake-source'

export const APP_URL = 'app://cadence'
export const TRUSTED = { senderUrl: `${APP_URL}/index.html` }

/**
 * The real core, as the app builds it, with the built-in data source played by a socket-free fake. Valid
 * calls that reach outside (open a browser, a login window) go nowhere. createCore's deps follow the core
 * engineer's work: this is the one place to adapt.
 */
export function buildFuzzCore() {
  const store = createMemoryStore()
  const opened: string[] = []
  const core = createCore({
    store,
    cipher: createTestCipher(),
    builtinSourceUrl: 'http://data-source.test',
    isTrustedSender: (url) => url.startsWith(`${APP_URL}/`),
    appInfo: { name: 'Cadence', version: '0.0.0-fuzz', platform: 'linux' },
    fetch: fakeSourceFetch(),
    openExternal: (url) => void opened.push(url),
    autoSignInBuiltin: false,
    probeSources: false,
    renderQr: async () => 'data:image/png;base64,AAAA',
    timeoutMs: 2000,
  })
  return { core, store, opened }
}
