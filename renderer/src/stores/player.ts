import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { Song } from '@shared/api/models'
import { CadenceError } from '@shared/errors'
import { invoke } from '@renderer/services/cadence'

/**
 * Playback: the queue and one HTMLAudioElement. Views call only the actions below (play a list, play next,
 * add to queue, toggle, next, previous, seek); how songs are resolved and played stays in here.
 */
export const usePlayerStore = defineStore('player', () => {
  const queue = shallowRef<Song[]>([])
  const index = ref(-1)
  const playing = ref(false)
  const positionMs = ref(0)
  const durationMs = ref(0)
  const error = shallowRef<CadenceError>()
  const current = computed<Song | null>(() => queue.value[index.value] ?? null)

  let audio: HTMLAudioElement | undefined
  function element(): HTMLAudioElement {
    if (audio) return audio
    audio = new Audio()
    audio.addEventListener('playing', () => (playing.value = true))
    audio.addEventListener('pause', () => (playing.value = false))
    audio.addEventListener('timeupdate', () => (positionMs.value = audio!.currentTime * 1000))
    audio.addEventListener('durationchange', () => (durationMs.value = (audio!.duration || 0) * 1000))
    audio.addEventListener('ended', () => void next())
    return audio
  }

  async function playAt(i: number) {
    const song = queue.value[i]
    if (!song) return
    index.value = i
    error.value = undefined
    try {
      const resolved = await invoke('player:resolve', { id: song.id })
      const url = resolved.meta?.url
      if (resolved.privilege?.playable === false || !url) {
        throw new CadenceError({
          kind: 'api',
          message: resolved.privilege?.reason ?? 'This song cannot be played',
        })
      }
      const el = element()
      el.src = url
      await el.play()
    } catch (cause) {
      playing.value = false
      error.value =
        cause instanceof CadenceError ? cause : new CadenceError({ kind: 'internal', message: String(cause) })
    }
  }

  /** Play all: replaces the queue and starts at `startIndex`. */
  function playSongs(songs: Song[], startIndex = 0) {
    queue.value = [...songs]
    return playAt(Math.min(Math.max(startIndex, 0), songs.length - 1))
  }
  function playNext(song: Song) {
    const list = [...queue.value]
    list.splice(index.value + 1, 0, song)
    queue.value = list
  }
  function addToQueue(song: Song) {
    queue.value = [...queue.value, song]
  }
  function toggle() {
    if (!audio?.src) return current.value ? playAt(index.value) : undefined
    return audio.paused ? audio.play() : audio.pause()
  }
  function next() {
    return index.value + 1 < queue.value.length ? playAt(index.value + 1) : undefined
  }
  function previous() {
    if (audio && audio.currentTime > 3) return void (audio.currentTime = 0)
    return index.value > 0 ? playAt(index.value - 1) : undefined
  }
  function seek(ms: number) {
    if (audio) audio.currentTime = ms / 1000
  }

  return {
    queue,
    index,
    current,
    playing,
    positionMs,
    durationMs,
    error,
    playSongs,
    playNext,
    addToQueue,
    toggle,
    next,
    previous,
    seek,
  }
})
