import { vi } from 'vitest'
import { songSchema } from '@shared/api/models'
import type { Song } from '@shared/api/models'
import type { PlayerAudio } from '@renderer/services/player/engine'

/**
 * Test doubles for the player: an audio element that "plays" on command (happy-dom's does not), and
 * songs shaped like the data source's.
 */
export class FakeAudio extends EventTarget {
  src = ''
  duration = Number.NaN
  paused = true
  volume = 1
  muted = false
  playbackRate = 1
  defaultPlaybackRate = 1
  readyState = 0
  error: MediaError | null = null
  private time = 0
  /** Set to make the next play() reject with this DOMException name. */
  rejectPlay?: string

  get currentTime() {
    return this.time
  }
  set currentTime(seconds: number) {
    this.time = seconds
    this.emit('timeupdate')
    this.emit('seeked')
  }
  play = vi.fn(async () => {
    if (this.rejectPlay) {
      const name = this.rejectPlay
      this.rejectPlay = undefined
      throw new DOMException('refused', name)
    }
    this.paused = false
    this.emit('play')
    this.emit('playing')
  })
  pause = vi.fn(() => {
    if (this.paused) return
    this.paused = true
    this.emit('pause')
  })
  load = vi.fn()
  removeAttribute(name: string) {
    if (name === 'src') this.src = ''
  }
  emit(type: string) {
    this.dispatchEvent(new Event(type))
  }
  /** The clock moves on (as during playback). */
  advance(toSeconds: number) {
    this.time = toSeconds
    this.emit('timeupdate')
  }
}

export const audios: FakeAudio[] = []
export function createFakeAudio(): PlayerAudio {
  const audio = new FakeAudio()
  audios.push(audio)
  return audio as unknown as PlayerAudio
}
export function lastAudio(): FakeAudio {
  const audio = audios.at(-1)
  if (!audio) throw new Error('no audio element yet')
  return audio
}

/** A song as the data source sends it (`extra` in the wire shape), normalised like the API client does. */
export function song(id: number, extra: Record<string, unknown> = {}): Song {
  return songSchema.parse({
    id,
    name: `Song ${id}`,
    tns: [],
    artists: [{ id: 100 + id, name: `Artist ${id}` }],
    album: { id: 200 + id, name: `Album ${id}`, artists: [], cover: `http://127.0.0.1/cover/${id}.png` },
    duration: 30_000,
    privilege: { playable: true, bitrates: [128000, 192000, 320000], maxBitrate: 320000 },
    ...extra,
  })
}

/** What `player:resolve` answers: the song with a signed URL (a new one each time). */
let serial = 0
export function resolved(s: Song, extra: Record<string, unknown> = {}): Song {
  serial++
  return songSchema.parse({
    ...s,
    meta: { url: `http://127.0.0.1/media/${s.id}.wav?sig=${serial}`, ...extra },
  })
}
