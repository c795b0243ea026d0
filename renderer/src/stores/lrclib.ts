import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { LrclibAnswer, LrclibLyrics, LrclibSong } from '@shared/ipc/discord-lrclib'
import { artistNames } from '@shared/api/artist-names'
import { invoke } from '@renderer/services/cadence'
import { useAuthStore } from '@renderer/stores/auth'
import { usePlayerStore } from '@renderer/stores/player'
import { useSettingsStore } from '@renderer/stores/settings'

/** A timestamp such as `[01:23.45]` anywhere: the source's lyrics are timed, LRCLIB is not needed. */
const TIMED = /\[\d{1,3}:\d{1,2}(?:[.:]\d{1,3})?\]/

/**
 * Lyrics from LRCLIB for the song playing, when its source has none or only plain text: asked of main
 * (which keeps them with the song) while the `lrclib` setting is on; offered once while it is `unasked`.
 * Also "pick another" (LRCLIB's search results) and "hide for this song".
 */
export const useLrclibStore = defineStore('lrclib', () => {
  const player = usePlayerStore()
  const settings = useSettingsStore()
  const auth = useAuthStore()

  /** The song playing, once its details say it has no timed lyrics of its own. */
  const song = computed<LrclibSong | null>(() => {
    const current = player.current
    const detail = player.detail
    const sourceId = auth.sourceId
    if (!current || !detail || String(detail.id) !== String(current.id) || !sourceId) return null
    const lyric = detail.meta?.lyric
    if (TIMED.test(lyric?.normal ?? '') || lyric?.wordforword?.trim()) return null
    return {
      sourceId,
      songId: current.id,
      track: current.name.slice(0, 500),
      artist: artistNames(current).slice(0, 1000),
      ...(current.album?.name ? { album: current.album.name.slice(0, 500) } : {}),
      durationMs: Math.min(
        Math.max(0, Math.round(current.duration ?? player.durationMs) || 0),
        24 * 3600_000,
      ),
    }
  })
  const key = computed(() => (song.value ? `${song.value.sourceId}:${String(song.value.songId)}` : ''))
  const mode = computed(() => settings.settings.lrclib)

  const answer = shallowRef<LrclibAnswer | null>(null)
  const loading = ref(false)
  /** LRCLIB's search results while the person picks another (null: not picking). */
  const results = shallowRef<LrclibLyrics[] | null>(null)
  let asked = ''

  watch(
    [key, mode],
    async () => {
      results.value = null
      const wanted = song.value
      if (!wanted || mode.value !== 'on') {
        answer.value = null
        asked = ''
        return
      }
      if (asked === key.value) return
      asked = key.value
      answer.value = null
      loading.value = true
      const got = await invoke('lrclib:lookup', wanted).catch((): LrclibAnswer => ({ status: 'unavailable' }))
      if (asked !== key.value) return
      answer.value = got
      loading.value = false
    },
    { immediate: true },
  )

  const found = computed(() => (answer.value?.status === 'found' ? answer.value : null))
  /** What shows: found and not hidden. */
  const shown = computed(() => (found.value && !found.value.hidden ? found.value.lyrics : null))
  /** Synced lyrics for the lyrics store (`buildLyrics`). */
  const lyric = computed(() => (shown.value?.syncedLyrics ? { normal: shown.value.syncedLyrics } : undefined))
  /**
   * Plain text only: its lines, shown as they are; without an answer from LRCLIB, the source's own
   * lyrics when they are plain text (a music folder's unsynced USLT / `LYRICS` tag).
   */
  const plainLines = computed(() => {
    if (shown.value) {
      return !shown.value.syncedLyrics && !shown.value.instrumental
        ? shown.value.plainLyrics.split(/\r?\n/)
        : []
    }
    const own = song.value ? player.detail?.meta?.lyric?.normal?.trim() : undefined
    return own ? own.split(/\r?\n/) : []
  })
  const instrumental = computed(() => shown.value?.instrumental === true)
  /** Something from LRCLIB fills the panel where the source had no lyrics. */
  const fills = computed(() => plainLines.value.length > 0 || instrumental.value)
  /** The one-time offer: the setting never answered, and a song without lyrics is playing. */
  const offer = computed(() => mode.value === 'unasked' && song.value !== null)

  async function pickAnother() {
    const wanted = song.value
    if (!wanted) return
    results.value = await invoke('lrclib:results', wanted).catch(() => [])
  }
  async function choose(id: number) {
    const wanted = song.value
    if (!wanted) return
    answer.value = await invoke('lrclib:choose', { ...wanted, id }).catch(() => answer.value)
    results.value = null
  }
  async function setHidden(hidden: boolean) {
    const wanted = song.value
    if (!wanted) return
    answer.value = await invoke('lrclib:hide', {
      sourceId: wanted.sourceId,
      songId: wanted.songId,
      hidden,
    }).catch(() => answer.value)
  }

  return {
    song,
    answer,
    loading,
    results,
    found,
    shown,
    lyric,
    plainLines,
    instrumental,
    fills,
    offer,
    turnOn: () => settings.update({ lrclib: 'on' }).catch(() => undefined),
    decline: () => settings.update({ lrclib: 'off' }).catch(() => undefined),
    pickAnother,
    cancelPick: () => void (results.value = null),
    choose,
    setHidden,
  }
})
