import { createCore, createMemoryStore } from '@main/core'
import { createTestCipher } from '../support/test-cipher'
import { fakeSourceFetch } from './fake-source'

export const APP_URL = 'app://cadence'
export const TRUSTED = { senderUrl: `${APP_URL}/index.html` }

/**
 * The real core, as the app builds it, talking to a socket-free fake data source. createCore's deps follow
 * the core engineer's work: this is the one place to adapt.
 */
export function buildFuzzCore() {
  const store = createMemoryStore()
  const core = createCore({
    store,
    cipher: createTestCipher(),
    dataSourceUrl: 'http://data-source.test',
    isTrustedSender: (url) => url.startsWith(`${APP_URL}/`),
    appInfo: { name: 'Cadence', version: '0.0.0-fuzz', platform: 'linux' },
    fetch: fakeSourceFetch(),
  })
  return { core, store }
}
