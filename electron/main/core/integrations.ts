import type { EventHub } from './events'
import type { HistoryService } from './history'
import type { LoggerFactory } from './log'
import type { Timers } from './ports'
import type { Vault } from './auth/vault'
import type { SettingsService } from './settings/service'
import type { CoreDeps } from './types'
import { createScrobble } from './scrobble'
import { createDiscord } from './discord'
import { createLrclib } from './lrclib'

/**
 * The services beyond the data source (docs/integrations.md): ListenBrainz and Last.fm get the listens
 * the history kept; Discord Rich Presence and LRCLIB lyrics are off until turned on. A private session
 * pauses all of them.
 */
export function createIntegrations(
  deps: CoreDeps,
  core: {
    vault: Vault
    events: EventHub
    timers: Timers
    log: LoggerFactory
    settings: SettingsService
    history: HistoryService
  },
) {
  const { events, timers, log, settings, history } = core
  const scrobble = createScrobble({ ...deps, vault: core.vault, events, timers, log, history })
  const privateSession = () => history.state().private
  const both = { settings, events, privateSession, timers, now: deps.now ?? Date.now, fetch: deps.fetch }
  const discord = createDiscord({ ...both, options: deps.discord, log: log('discord') })
  const lrclib = createLrclib({
    ...both,
    options: deps.lrclib,
    version: deps.appInfo.version,
    log: log('lrclib'),
  })
  return {
    scrobble: scrobble.service,
    handlers: { ...scrobble.handlers, ...discord.handlers, ...lrclib.handlers },
    dispose() {
      scrobble.service.dispose()
      void discord.dispose()
    },
  }
}
