import type { Handlers } from '../ipc/router'

type SourcesChannels = Extract<keyof Handlers, `sources:${string}`>

export interface SourcesController {
  list: Handlers['sources:list']
  add: Handlers['sources:add']
  remove(id: string): void
  activate(id: string): void
  setLocalHost: Handlers['sources:set-local-host']
  phoneAccess: Handlers['sources:phone-access']
}

export function createSourcesHandlers(sources: SourcesController): Pick<Handlers, SourcesChannels> {
  return {
    'sources:list': (args, context) => sources.list(args, context),
    'sources:add': (args, context) => sources.add(args, context),
    'sources:remove': ({ id }) => sources.remove(id),
    'sources:activate': ({ id }) => sources.activate(id),
    'sources:set-local-host': (args, context) => sources.setLocalHost(args, context),
    'sources:phone-access': (args, context) => sources.phoneAccess(args, context),
  }
}
