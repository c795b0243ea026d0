import type { Handlers } from '../ipc/router'
import type { ConfirmRequest } from '../ports'

type SourcesChannels = Extract<keyof Handlers, `sources:${string}`>

/** What main asks before it renews the phone passphrase (`sources:renew-phone-passphrase`). */
export const RENEW_PASSPHRASE_REQUEST: ConfirmRequest = {
  title: 'Make a new passphrase?',
  message: 'Make a new passphrase for phone sign-in?',
  detail:
    'The old one stops working, phones that remembered this computer forget it, and every device signed in to the built-in library has to sign in again.',
  confirmLabel: 'Make a new one',
}

export interface SourcesController {
  list: Handlers['sources:list']
  add: Handlers['sources:add']
  remove(id: string): void
  activate(id: string): void
  setLocalHost: Handlers['sources:set-local-host']
  rename: Handlers['sources:rename']
  phoneAccess: Handlers['sources:phone-access']
  renewPhonePassphrase: Handlers['sources:renew-phone-passphrase']
}

export function createSourcesHandlers(sources: SourcesController): Pick<Handlers, SourcesChannels> {
  return {
    'sources:list': (args, context) => sources.list(args, context),
    'sources:add': (args, context) => sources.add(args, context),
    'sources:remove': ({ id }) => sources.remove(id),
    'sources:activate': ({ id }) => sources.activate(id),
    'sources:set-local-host': (args, context) => sources.setLocalHost(args, context),
    'sources:rename': (args, context) => sources.rename(args, context),
    'sources:phone-access': (args, context) => sources.phoneAccess(args, context),
    'sources:renew-phone-passphrase': (args, context) => sources.renewPhonePassphrase(args, context),
  }
}
