import type { Handlers } from '../ipc/router'
import type { UpdateService } from './service'

type UpdateChannels = Extract<keyof Handlers, `updates:${string}`>

export function createUpdateHandlers(updates: UpdateService): Pick<Handlers, UpdateChannels> {
  return {
    'updates:state': () => updates.state(),
    'updates:install': () => updates.install(),
    'updates:check': () => updates.checkNow(),
  }
}
