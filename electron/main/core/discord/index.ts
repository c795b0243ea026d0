import type { EventHub } from '../events'
import type { Handlers } from '../ipc/router'
import type { Logger } from '../log'
import type { Timers } from '../ports'
import type { SettingsService } from '../settings/service'
import { createPresence } from './presence'
import type { DiscordConnect } from './presence'
import { rpcConnect } from './rpc-client'

export { buildActivity, isPublicCoverUrl } from './activity'
export type { PresenceActivity } from './activity'
export { createPresence, PAUSE_GRACE_MS, RECONNECT_DELAYS_MS } from './presence'
export type { DiscordConnect, DiscordConnection } from './presence'
export { rpcConnect } from './rpc-client'

/**
 * The project's Discord application id, set at build time (`MAIN_VITE_DISCORD_APP_ID`, read by the glue);
 * this placeholder is what a build without one sends (Discord then shows nothing).
 */
export const DISCORD_APP_ID_PLACEHOLDER = '000000000000000000'

/** What the core lets Discord Rich Presence be configured with (tests: a socket folder, their timers). */
export interface DiscordDeps {
  appId?: string
  connect?: DiscordConnect
  /** Its own timers (the pause's grace, the tries), apart from the core's (tests fire them by hand). */
  timers?: Timers
}

/**
 * Discord Rich Presence in the core: follows the setting (`discordPresence`), the private session (the
 * history's `history:changed`) and the renderer's `presence:report`; its status goes out as
 * `discord:changed`. Nothing here reaches the data source.
 */
export function createDiscord(deps: {
  options?: DiscordDeps
  settings: SettingsService
  events: EventHub
  privateSession: () => boolean
  timers: Timers
  now: () => number
  log: Logger
}) {
  const presence = createPresence({
    connect: deps.options?.connect ?? rpcConnect(),
    appId: deps.options?.appId || DISCORD_APP_ID_PLACEHOLDER,
    timers: deps.options?.timers ?? deps.timers,
    now: deps.now,
    log: deps.log,
    onStatus: (status) => deps.events.emit('discord:changed', status),
  })
  presence.setPrivate(deps.privateSession())
  presence.setEnabled(deps.settings.get().discordPresence)
  const stopSettings = deps.settings.onChange((next) => presence.setEnabled(next.discordPresence))
  const stopEvents = deps.events.subscribe((event, payload) => {
    if (event === 'history:changed') presence.setPrivate((payload as { private: boolean }).private)
  })
  const handlers: Pick<Handlers, 'presence:report' | 'discord:status'> = {
    'presence:report': (report) => presence.report(report),
    'discord:status': () => presence.status(),
  }
  return {
    handlers,
    presence,
    async dispose() {
      stopSettings()
      stopEvents()
      await presence.dispose()
    },
  }
}
