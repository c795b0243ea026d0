import type { EventMap, EventName } from '@shared/ipc/contract'

/** Events from the core to every renderer window (the glue forwards them over IPC). */
export type EventListener = <E extends EventName>(event: E, payload: EventMap[E]) => void

export interface EventHub {
  emit<E extends EventName>(event: E, payload: EventMap[E]): void
  subscribe(listener: EventListener): () => void
}

export function createEventHub(): EventHub {
  const listeners = new Set<EventListener>()
  return {
    emit(event, payload) {
      for (const listener of listeners) listener(event, payload)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}
