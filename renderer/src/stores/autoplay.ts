import { defineStore } from 'pinia'
import { watch } from 'vue'
import type { Song } from '@shared/api/models'
import { AUTOPLAY_HEARD_MS, autoplayWanted, chooseAutoplay } from '@renderer/services/player/autoplay'
import { invoke } from '@renderer/services/cadence'
import { fromCollectionSong } from '@renderer/stores/collection'
import { useAuthStore } from '@renderer/stores/auth'
import { useOfflineStore } from '@renderer/stores/offline'
import { usePlayerStore } from '@renderer/stores/player'
import { useQueueStore } from '@renderer/stores/queue'
import { useSettingsStore } from '@renderer/stores/settings'
import { useSleepTimerStore } from '@renderer/stores/sleep-timer'

/** The artists of this many songs just played (the current one first) give their hot songs. */
const RECENT_SONGS = 3
const MAX_ARTISTS = 2

/**
 * Autoplay (Settings → Playback, on by default): when two or fewer songs are left after the current one
 * (and not under repeat-all), more that fit are added to the queue's end, chosen by
 * `services/player/autoplay.ts` from the hot songs of the artists just played, the recommended songs and
 * the liked songs (offline: the downloaded songs), leaving out what was heard in the last hour; nothing
 * while the sleep timer waits for the end of the queue
 * (`history:heard-since`). The entries it added are remembered (`autoplayKeys` in the queue store) so the
 * queue panel marks them.
 */
export const useAutoplayStore = defineStore('autoplay', () => {
  const player = usePlayerStore()
  const q = useQueueStore()
  const settings = useSettingsStore()
  const auth = useAuthStore()
  const offline = useOfflineStore()
  const sleep = useSleepTimerStore()
  let busy = false
  /** The queue as it was when autoplay last looked (it tries once per queue change). */
  let tried = ''

  async function likedSongs(): Promise<Song[]> {
    const liked = await invoke('likes:state').catch(() => undefined)
    if (!liked?.playlistId) return []
    const head = await invoke('catalog:playlist', { id: liked.playlistId }).catch(() => undefined)
    return head?.rows ?? []
  }
  async function downloadedSongs(): Promise<Song[]> {
    const page = await invoke('downloads:list', { offset: 0, limit: 500, done: true }).catch(() => undefined)
    return (page?.rows ?? []).map((row) => fromCollectionSong(row.song))
  }

  async function fill() {
    busy = true
    try {
      const sourceId = auth.sourceId
      const recent = q.entries.slice(Math.max(0, q.index - RECENT_SONGS + 1), q.index + 1).reverse()
      const artistIds = [
        ...new Set(recent.flatMap((e) => e.item.artists.map((a) => a.id)).filter((id) => id !== '')),
      ]
      const isOffline = offline.state.offline
      const [artists, recommended, liked, heard] = await Promise.all([
        isOffline
          ? []
          : Promise.all(
              artistIds.slice(0, MAX_ARTISTS).map((id) =>
                invoke('catalog:artist', { id }).then(
                  (a) => a?.songs ?? [],
                  () => [] as Song[],
                ),
              ),
            ).then((lists) => lists.flat()),
        isOffline
          ? []
          : invoke('catalog:recommend-songs', { limit: 30 }).then(
              (list) => list ?? [],
              () => [] as Song[],
            ),
        isOffline ? downloadedSongs() : likedSongs(),
        sourceId
          ? invoke('history:heard-since', { since: Date.now() - AUTOPLAY_HEARD_MS, sourceId }).then(
              (ids) => ids ?? [],
              () => [] as string[],
            )
          : [],
      ])
      const chosen = chooseAutoplay(
        { artists, recommended, liked },
        {
          queued: new Set(q.songs.map((s) => String(s.id))),
          heard: new Set(heard),
          onDisk: isOffline ? new Set([...offline.downloaded, ...offline.cached]) : undefined,
        },
      )
      if (chosen.length === 0) return
      const before = new Set(q.entries.map((e) => e.key))
      player.addToQueue(chosen)
      q.markAutoplay(q.entries.filter((e) => !before.has(e.key)).map((e) => e.key))
    } finally {
      busy = false
    }
  }

  function check() {
    const left = q.entries.length - 1 - q.index
    const wanted = autoplayWanted({
      enabled: settings.settings.autoplay,
      repeat: q.repeat,
      left,
      hasSong: q.currentEntry !== undefined,
      sleepAtQueueEnd: sleep.mode?.kind === 'queue',
    })
    const now = `${q.currentKey}:${q.entries.length}`
    if (!wanted || busy || now === tried) return
    tried = now
    void fill()
  }

  let started = false
  /** Follows the queue (once per app, with the player). */
  function start() {
    if (started) return
    started = true
    watch(
      () => [
        q.currentKey,
        q.entries.length,
        q.repeat,
        settings.settings.autoplay,
        offline.state.offline,
        sleep.mode?.kind,
      ],
      check,
      {
        immediate: true,
      },
    )
  }

  return { start }
})
