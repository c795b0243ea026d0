import type { Handlers } from '../ipc/router'
import type { SettingsService } from './service'

type SettingsChannels = Extract<keyof Handlers, `settings:${string}`>

export function createSettingsHandlers(settings: SettingsService): Pick<Handlers, SettingsChannels> {
  return {
    'settings:get': () => settings.get(),
    'settings:update': (patch) => settings.update(patch),
  }
}
