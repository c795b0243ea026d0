import type { Handlers } from '../ipc/router'
import type { Logger } from '../log'
import type { SettingsService } from '../settings/service'
import { createLrclibClient } from './client'
import { createLyricsKeep } from './keep'
import { createLrclibService } from './service'

export {
  createLrclibClient,
  LrclibError,
  LRCLIB_BASE_URL,
  LRCLIB_MAX_BYTES,
  LRCLIB_TIMEOUT_MS,
} from './client'
export { createLyricsKeep } from './keep'
export type { KeptLyrics, LyricsKeep } from './keep'
export { createLrclibService, LRCLIB_NONE_RETRY_MS } from './service'

/** Where LRCLIB is and where its lyrics are kept (the app: `<userData>/lrclib`; tests: a fake's address). */
export interface LrclibOptions {
  dir?: string
  baseUrl?: string
  timeoutMs?: number
  maxBytes?: number
}

/** Lyrics from LRCLIB in the core: asked only while the `lrclib` setting is `on` and no private session runs. */
export function createLrclib(deps: {
  options?: LrclibOptions
  settings: SettingsService
  fetch?: typeof fetch
  version: string
  privateSession: () => boolean
  now: () => number
  log: Logger
}) {
  const service = createLrclibService({
    client: createLrclibClient({
      fetch: (input, init) => (deps.fetch ?? globalThis.fetch)(input, init),
      userAgent: `Cadence/${deps.version} (desktop music player)`,
      baseUrl: deps.options?.baseUrl,
      timeoutMs: deps.options?.timeoutMs,
      maxBytes: deps.options?.maxBytes,
    }),
    keep: createLyricsKeep(deps.options?.dir),
    enabled: () => deps.settings.get().lrclib === 'on',
    privateSession: deps.privateSession,
    now: deps.now,
    log: deps.log,
  })
  const handlers: Pick<Handlers, 'lrclib:lookup' | 'lrclib:results' | 'lrclib:choose' | 'lrclib:hide'> = {
    'lrclib:lookup': (song) => service.lookup(song),
    'lrclib:results': (song) => service.results(song),
    'lrclib:choose': ({ id, ...song }) => service.choose(song, id),
    'lrclib:hide': ({ hidden, ...key }) => service.hide(key, hidden),
  }
  return { service, handlers }
}
