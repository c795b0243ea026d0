import { vi } from 'vitest'
import { songSchema } from '@shared/api/models'
import type { Song } from '@shared/api/models'
import type { PlayerOutput } from '@renderer/services/player/engine'
import type { OutputError, OutputEvent } from '@renderer/services/player/audio/player-output'

/**
 * Test doubles for the player: an output that "plays" on command (the typed output the engine drives,
 * `PlayerOutput`), and songs shaped like the data source's.
 */
export class FakeAudio extends EventTarget implements PlayerOutput {
  src = ''
  duration = Number.NaN
  paused = true
  volume = 1
  muted = false
  speed = 1
  error: OutputError | null = null
  private time = 0
  /** Set to make the next play() reject with this DOMException name. */
  rejectPlay?: string

  get position() {
    return this.time
  }
  /** The position, as the tests read it. */
  get currentTime() {
    return this.time
  }
  load = vi.fn((url: string) => {
    this.src = url
  })
  seek(seconds: number) {
    this.time = seconds
    this.emit('timeupdate')
    this.emit('seeked')
  }
  setVolume(value: number) {
    this.volume = value
  }
  setMuted(value: boolean) {
    this.muted = value
  }
  setSpeed(value: number) {
    this.speed = value
  }
  on(event: OutputEvent, listener: () => void) {
    this.addEventListener(event, () => listener())
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
  emit(type: string) {
    this.dispatchEvent(new Event(type))
  }
  /** The clock moves on (as during playback); `announce` false: with no `timeupdate` (between two). */
  advance(toSeconds: number, announce = true) {
    this.time = toSeconds
    if (announce) this.emit('timeupdate')
  }
}

export const audios: FakeAudio[] = []
export function createFakeAudio(): PlayerOutput {
  const audio = new FakeAudio()
  audios.push(audio)
  return audio
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
