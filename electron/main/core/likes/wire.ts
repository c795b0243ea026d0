import type { EventMap } from '@shared/ipc/contract'
import type { Id } from '@shared/api/models'
import { createCapabilities } from '../capabilities'
import type { EventHub } from '../events'
import type { Handlers } from '../ipc/router'
import type { LoggerFactory } from '../log'
import type { KeyValueStore } from '../ports'
import type { ActiveCall } from '../sources/active'
import type { SourceRegistry } from '../sources/registry'
import { createLikedSongs } from './index'
import type { LikedSongsService } from './index'

export interface LikesWiringDeps {
  call: ActiveCall
  store: KeyValueStore
  events: EventHub
  log: LoggerFactory
  registry: SourceRegistry
  userId: () => Id | undefined
}

/**
 * Beyond the document (createCore's part): what each source offers (learnt by use) and the liked songs,
 * loaded at sign-in and cleared at sign-out.
 */
export function wireLikes(deps: LikesWiringDeps) {
  const { call, store, events, log, registry } = deps
  const capabilities = createCapabilities({
    store,
    events,
    log: log('capabilities'),
    sourceUrl: (id) => registry.get(id)?.url || undefined,
    activeSourceId: () => registry.active().id,
  })
  const likedSongs = createLikedSongs({
    call,
    capabilities,
    store,
    events,
    log: log('likes'),
    userId: deps.userId,
    activeSourceId: () => registry.active().id,
  })
  events.subscribe((event, payload) => {
    if (event === 'auth:changed') {
      const state = payload as EventMap['auth:changed']
      if (state.status === 'signed-in') void likedSongs.refresh()
      else if (state.status !== 'unknown') likedSongs.clear()
    }
  })
  return { capabilities, likedSongs }
}

/**
 * A like made here keeps the liked songs (the active source's) in step (wraps the `catalog:like`
 * handler); a like of a song of another source is that source's alone.
 */
export function keepLikesInStep(
  handlers: Handlers,
  likedSongs: LikedSongsService,
  activeSourceId: () => string,
): void {
  const like = handlers['catalog:like']
  handlers['catalog:like'] = async (args, context) => {
    const result = await like(args, context)
    if (!args.sourceId || args.sourceId === activeSourceId()) likedSongs.liked(result)
    return result
  }
}
