import { defineStore } from 'pinia'
import { computed, shallowRef } from 'vue'
import type { Song } from '@shared/api/models'
import type { SourcedSong } from '@shared/player/media-url'
import * as Q from '@shared/player/queue'
import type { QueueEntry, QueueState, RepeatMode } from '@shared/player/queue'
import { useAuthStore } from '@renderer/stores/auth'

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * A song as the queue saved it (main validated it before it was first queued). Checked by shape, not by
 * main's zod schema: the renderer does not load zod.
 */
export function isSong(value: unknown): value is Song {
  if (!isRecord(value)) return false
  const { id, name, tns, artists, album, duration, privilege } = value
  return (
    ((typeof id === 'string' && id.length > 0) || (typeof id === 'number' && Number.isFinite(id))) &&
    typeof name === 'string' &&
    Array.isArray(tns) &&
    tns.every((t) => typeof t === 'string') &&
    Array.isArray(artists) &&
    artists.every((a) => isRecord(a) && typeof a.name === 'string') &&
    (album === undefined || isRecord(album)) &&
    (duration === undefined || (typeof duration === 'number' && duration >= 0)) &&
    (privilege === undefined || isRecord(privilege))
  )
}

/** What the queue keeps of a song: no resolved URL (it expires) and no lyrics (they are resolved again). */
function queueable(song: Song): Song {
  if (!song.meta) return song
  const { meta: _meta, ...rest } = song
  return rest as Song
}

/** The data source a queued song belongs to (undefined only for a song queued before main said). */
export const sourceOf = (song: Song): string | undefined => (song as SourcedSong).sourceId

/**
 * The play queue: the pure model of `shared/player/queue` held in one `shallowRef`, replaced on each change.
 * It only orders songs; the player store decides what plays (and calls these). The queue is global: each
 * song is stamped with its data source as it is added (a song that names one keeps it; any other comes
 * from a view of the active source), so it plays from that source whichever is active later.
 */
export const useQueueStore = defineStore('queue', () => {
  const state = shallowRef<QueueState<Song>>(Q.createQueue<Song>())
  const auth = useAuthStore()
  function stamped(song: Song): Song {
    const plain = queueable(song)
    const active = auth.sourceId
    return sourceOf(plain) || !active ? plain : ({ ...plain, sourceId: active } as Song)
  }
  const many = (songs: Song | readonly Song[]) => (Array.isArray(songs) ? songs : [songs]).map(stamped)

  const entries = computed<QueueEntry<Song>[]>(() => state.value.entries)
  const songs = computed<Song[]>(() => state.value.entries.map((entry) => entry.item))
  const index = computed(() => state.value.current)
  const currentEntry = computed(() => Q.currentEntry(state.value))
  const currentKey = computed(() => currentEntry.value?.key ?? null)
  const shuffle = computed(() => state.value.shuffle)
  const repeat = computed<RepeatMode>(() => state.value.repeat)
  /** Whether the queue holds songs of more than one data source (the queue and now playing name them). */
  const mixedSources = computed(() => {
    const list = state.value.entries
    const first = list.length ? sourceOf(list[0]!.item) : undefined
    return list.some((entry) => sourceOf(entry.item) !== first)
  })
  /** Keys of the entries autoplay added (`stores/autoplay.ts`): the queue panel marks them. */
  const autoplayKeys = shallowRef<ReadonlySet<string>>(new Set())

  /** Applies a move; answers whether there was one (`null` from the model means "stop here"). */
  function apply(moved: QueueState<Song> | null): boolean {
    if (!moved) return false
    state.value = moved
    return true
  }

  return {
    /** The song as the queue will hold it (with its data source): what a play resolves. */
    stamped,
    state,
    entries,
    songs,
    index,
    currentEntry,
    currentKey,
    shuffle,
    repeat,
    autoplayKeys,
    mixedSources,
    markAutoplay: (keys: readonly string[]) =>
      void (autoplayKeys.value = new Set([...autoplayKeys.value, ...keys])),
    replace: (list: Song[], startIndex = 0) =>
      void (state.value = Q.setQueue(state.value, list.map(stamped), { startIndex })),
    playNow: (song: Song) => void (state.value = Q.playNow(state.value, stamped(song))),
    /** One song or several (in their order) right after the current one. */
    playNext: (songs: Song | readonly Song[]) => void (state.value = Q.playNext(state.value, many(songs))),
    /** One song or several (in their order) at the end. */
    add: (songs: Song | readonly Song[]) => void (state.value = Q.addToQueue(state.value, many(songs))),
    remove: (key: string) => void (state.value = Q.removeFromQueue(state.value, key)),
    move: (from: number, to: number) => void (state.value = Q.moveInQueue(state.value, from, to)),
    clear: () => void (state.value = Q.clearQueue(state.value)),
    jumpTo: (key: string) => void (state.value = Q.jumpTo(state.value, key)),
    setShuffle: (on: boolean) => void (state.value = Q.setShuffle(state.value, on)),
    setRepeat: (mode: RepeatMode) => void (state.value = Q.setRepeat(state.value, mode)),
    cycleRepeat: () => void (state.value = Q.cycleRepeat(state.value)),
    /** Moves on as a Next press does (repeat one moves on too); false at the end with repeat off. */
    next: () => apply(Q.next(state.value)),
    previous: () => apply(Q.previous(state.value)),
    /** After a song ended: 'same' to replay it (repeat one), 'moved', or 'end'. */
    advance(): 'same' | 'moved' | 'end' {
      const moved = Q.next(state.value, { auto: true })
      if (moved === state.value) return 'same'
      return apply(moved) ? 'moved' : 'end'
    },
    /** The song that Next would play, for resolving it ahead of time. */
    peekNext: () => Q.peekNext(state.value)?.item,
    /** The entry a song's end moves to (the current one with repeat one): the gapless output's next song. */
    peekAdvance: () => Q.peekNext(state.value, { auto: true }),
    snapshot: () => Q.queueToJSON(state.value),
    /** Restores a saved snapshot of unknown shape (invalid items dropped). */
    restore: (data: unknown) => void (state.value = Q.queueFromJSON<Song>(data, isSong)),
  }
})
