import type { WavLayout } from '@shared/audio/codec/wav'
import { rangeHeader } from '@shared/http/range'
import { prepareChunk } from './chunk-prep'
import { codecSource, openDecodable } from './codec-source'
import { MediaFailure } from './media-load'
import { planesSource, wavSource } from './pcm-source'
import type { PcmSource } from './pcm-source'
import { createStretcher } from './stretch'
import { warmFirstChunk } from './chunk-warm'
import type { Stretcher } from './stretch'

/**
 * Chunk preparation off the page's main thread (`chunk.worker.ts`; in the page itself where there are
 * no workers): each song's source (WAV converted, FLAC/MP3/AAC decoded by WebCodecs, or a whole decoded
 * file's planes), resampled to the context's rate and time-stretched to the speed (`chunk-prep.ts`). The
 * page asks for a song's chunks one at a time (`chunk-client.ts`); once a chunk is answered the next one
 * is prepared at once, so it is ready when asked for and a page busy meanwhile (a long task) finds it
 * waiting. The file's bytes are asked of the page (`fetch`), which reads the media scheme. `warm`
 * pays the first-time costs while the app is idle (`chunk-warm.ts`).
 */

export type ChunkRequest =
  | { type: 'open-wav'; id: number; song: number; layout: WavLayout; head: ArrayBuffer; rate: number }
  | { type: 'open-codec'; id: number; song: number; head: ArrayBuffer; size: number; rate: number }
  | { type: 'open-pcm'; id: number; song: number; planes: Float32Array[]; rate: number }
  | { type: 'start'; song: number; run: number; position: number; speed: number }
  | { type: 'read'; id: number; song: number; run: number; seconds: number; then?: number }
  | { type: 'close'; song: number }
  | { type: 'bytes'; id: number; bytes?: ArrayBuffer; code?: number; message?: string }
  | { type: 'warm'; id: number; rate: number }

export type ChunkReply =
  | { type: 'opened'; id: number; channels: number; frames: number; rate: number }
  | { type: 'unsupported'; id: number }
  | { type: 'chunk'; id: number; planes?: Float32Array[]; last?: boolean }
  | { type: 'failed'; id: number; code: number; message: string }
  | { type: 'fetch'; id: number; song: number; range: string }
  | { type: 'warmed'; id: number; frames: number }

type Prepared = { samples: Float32Array[]; last: boolean } | undefined

interface Song {
  source: PcmSource
  channels: number
  rate: number
  run: number
  stretcher?: Stretcher
  /** Reads one at a time, in order. */
  queue: Promise<unknown>
  /** The chunk prepared after the last one answered. */
  ahead?: { run: number; seconds: number; result: Promise<Prepared> }
}

export function createChunkService(post: (reply: ChunkReply, transfer?: Transferable[]) => void) {
  const songs = new Map<number, Song>()
  const fetches = new Map<number, { done(bytes: ArrayBuffer): void; fail(failure: unknown): void }>()
  let fetchIds = 0

  const fetchRange = (song: number) => (range: string) =>
    new Promise<ArrayBuffer>((done, fail) => {
      const id = ++fetchIds
      fetches.set(id, { done, fail })
      post({ type: 'fetch', id, song, range })
    })

  function opened(id: number, song: number, source: PcmSource, frames: number, rate: number) {
    songs.set(song, { source, channels: source.channels, rate, run: 0, queue: Promise.resolve() })
    post({ type: 'opened', id, channels: source.channels, frames, rate })
  }

  function readNext(song: Song, run: number, seconds: number, then?: number): Promise<Prepared> {
    const alive = () => run === song.run
    const result = song.queue.then(() =>
      alive() && song.stretcher ? prepareChunk(song.source, song.stretcher, seconds, alive, then) : undefined,
    )
    song.queue = result.catch(() => undefined)
    return result
  }

  function read(message: Extract<ChunkRequest, { type: 'read' }>) {
    const { id, run, seconds, then } = message
    const song = songs.get(message.song)
    if (!song || run !== song.run) return post({ type: 'chunk', id })
    const ahead = song.ahead
    song.ahead = undefined
    const result =
      ahead && ahead.run === run && ahead.seconds === seconds
        ? ahead.result
        : readNext(song, run, seconds, then)
    result.then(
      (chunk) => {
        if (!chunk || run !== song.run) return post({ type: 'chunk', id })
        const planes = chunk.samples.map(owned)
        post(
          { type: 'chunk', id, planes, last: chunk.last },
          planes.map((plane) => plane.buffer),
        )
        if (!chunk.last && then !== undefined && run === song.run && songs.get(message.song) === song) {
          const next = readNext(song, run, then)
          next.catch(() => undefined)
          song.ahead = { run, seconds: then, result: next }
        }
      },
      (failure: unknown) =>
        post({
          type: 'failed',
          id,
          code: failure instanceof MediaFailure ? failure.code : 0,
          message: failure instanceof Error ? failure.message : String(failure),
        }),
    )
  }

  async function dispatch(message: ChunkRequest) {
    switch (message.type) {
      case 'open-wav':
        return opened(
          message.id,
          message.song,
          wavSource(message.layout, message.rate, fetchRange(message.song), message.head),
          message.layout.frames,
          message.layout.sampleRate,
        )
      case 'open-codec': {
        const file = {
          head: new Uint8Array(message.head),
          size: message.size,
          read: async (start: number, end: number) =>
            new Uint8Array(await fetchRange(message.song)(rangeHeader(start, end))),
        }
        const container = await openDecodable(file)
        if (!container) return post({ type: 'unsupported', id: message.id })
        const source = codecSource(container, file, message.rate)
        return opened(message.id, message.song, source, container.frames, container.sampleRate)
      }
      case 'open-pcm':
        return opened(
          message.id,
          message.song,
          planesSource(message.planes, message.rate),
          message.planes[0]?.length ?? 0,
          message.rate,
        )
      case 'start': {
        const song = songs.get(message.song)
        if (!song) return
        song.run = message.run
        song.ahead = undefined
        song.source.seek(message.position)
        song.stretcher = createStretcher(message.speed, song.channels, song.rate)
        return
      }
      case 'read':
        return read(message)
      case 'warm': {
        const frames = await warmFirstChunk(message.rate).catch(() => 0)
        return post({ type: 'warmed', id: message.id, frames })
      }
      case 'close':
        songs.delete(message.song)
        return
      case 'bytes': {
        const waiting = fetches.get(message.id)
        fetches.delete(message.id)
        if (!waiting) return
        if (message.bytes) waiting.done(message.bytes)
        else waiting.fail(new MediaFailure(message.code ?? 2, message.message ?? 'The read failed'))
      }
    }
  }

  async function handle(message: ChunkRequest) {
    try {
      await dispatch(message)
    } catch (failure) {
      // Opening failed (its reads answer their own failures).
      if (message.type.startsWith('open-') && 'id' in message)
        post({ type: 'failed', id: message.id, code: 0, message: String(failure) })
    }
  }

  return { handle }
}

/** A plane that owns its whole buffer (so it can be transferred without taking others' samples along). */
function owned(plane: Float32Array): Float32Array<ArrayBuffer> {
  const whole = plane.byteOffset === 0 && plane.byteLength === plane.buffer.byteLength
  return (whole ? plane : plane.slice()) as Float32Array<ArrayBuffer>
}
