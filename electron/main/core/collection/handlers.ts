import type { Handlers } from '../ipc/router'
import type { CollectionService } from './service'

type CollectionChannels = Extract<keyof Handlers, `collection:${string}`>

/** The user's own playlists over IPC: straight through to the service (arguments already parsed). */
export function createCollectionHandlers(service: CollectionService): Pick<Handlers, CollectionChannels> {
  return {
    'collection:list': () => service.list(),
    'collection:get': ({ id }) => service.get(id),
    'collection:create': ({ name, songs }) => service.create(name, songs),
    'collection:rename': ({ id, name }) => service.rename(id, name),
    'collection:delete': ({ id }) => service.delete(id),
    'collection:add': ({ id, songs }) => service.add(id, songs),
    'collection:remove': ({ id, songIds }) => service.remove(id, songIds),
    'collection:move': ({ id, from, to }) => service.move(id, from, to),
    'collection:export': ({ id, format }) => service.export(id, format),
    'collection:import': ({ text, format, name }) => service.import(text, format, name),
  }
}
