import { createChunkService } from './chunk-service'
import type { ChunkReply, ChunkRequest } from './chunk-service'
import { MediaFailure } from './media-load'

/**
 * The page's side of chunk preparation: one worker per page (`chunk.worker.ts`) prepares every song's
 * chunks, and the page only makes them `AudioBuffer`s and schedules them (`track.ts`). It answers the
 * worker's reads of the media scheme with the song's `fetchRange`. Where there is no `Worker` (or
 * `prepareChunksInPage` asks so) the same service runs in the page.
 */

type Open =
  | Omit<Extract<ChunkRequest, { type: 'open-wav' }>, 'id' | 'song'>
  | Omit<Extract<ChunkRequest, { type: 'open-codec' }>, 'id' | 'song'>
  | Omit<Extract<ChunkRequest, { type: 'open-pcm' }>, 'id' | 'song'>

interface Port {
  post(message: ChunkRequest, transfer?: Transferable[]): void
}

let port: Port | undefined
let inPage = false
let ids = 0
let songIds = 0
const waiting = new Map<number, (reply: ChunkReply) => void>()
const fetchers = new Map<number, (range: string) => Promise<ArrayBuffer>>()

/** Prepares chunks on the page's own thread (a page bundled as one file, without its worker's chunk). */
export function prepareChunksInPage() {
  inPage = true
}

function receive(reply: ChunkReply) {
  if (reply.type !== 'fetch') {
    const done = waiting.get(reply.id)
    waiting.delete(reply.id)
    done?.(reply)
    return
  }
  const { id } = reply
  const answer = (message: Extract<ChunkRequest, { type: 'bytes' }>) =>
    port?.post(message, message.bytes ? [message.bytes] : [])
  const fetchRange = fetchers.get(reply.song)
  if (!fetchRange) return answer({ type: 'bytes', id, code: 2, message: 'The song was closed' })
  fetchRange(reply.range).then(
    (bytes) => answer({ type: 'bytes', id, bytes }),
    (failure: unknown) =>
      answer({
        type: 'bytes',
        id,
        code: failure instanceof MediaFailure ? failure.code : 2,
        message: failure instanceof Error ? failure.message : String(failure),
      }),
  )
}

function connect(): Port {
  if (port) return port
  if (!inPage && typeof Worker !== 'undefined') {
    const worker = new Worker(new URL('./chunk.worker.ts', import.meta.url), { type: 'module' })
    worker.onmessage = (event: MessageEvent<ChunkReply>) => receive(event.data)
    worker.onerror = () => {
      // The worker could not start: what waits fails, and later songs are prepared in the page.
      port = undefined
      inPage = true
      for (const [id, done] of [...waiting]) done({ type: 'failed', id, code: 0, message: 'chunk worker' })
      waiting.clear()
    }
    port = { post: (message, transfer = []) => worker.postMessage(message, transfer) }
  } else {
    const service = createChunkService((reply) => queueMicrotask(() => receive(reply)))
    port = { post: (message) => queueMicrotask(() => void service.handle(message)) }
  }
  return port
}

function ask(message: ChunkRequest & { id: number }, transfer: Transferable[] = []) {
  return new Promise<ChunkReply>((done) => {
    waiting.set(message.id, done)
    connect().post(message, transfer)
  })
}

function failureOf(reply: Extract<ChunkReply, { type: 'failed' }>): Error {
  return reply.code ? new MediaFailure(reply.code, reply.message) : new Error(reply.message)
}

/** A song opened in the chunk worker: started at a position and speed, then read a chunk at a time. */
export class PreparedSong {
  private run = 0

  constructor(
    private readonly song: number,
    readonly channels: number,
    private readonly frames: number,
    private readonly rate: number,
  ) {}

  /** The song's length (s). */
  get duration(): number {
    return this.frames / this.rate
  }

  /** Reads from `position` (s) at `speed` from now on; answers the exact position of the first frame. */
  start(position: number, speed: number): number {
    const run = ++this.run
    connect().post({ type: 'start', song: this.song, run, position, speed })
    return Math.max(0, Math.min(this.frames, Math.round(position * this.rate))) / this.rate
  }

  /**
   * The next `seconds` of the song (source time) stretched to the speed, as one plane per channel (at
   * the context's rate), or undefined when a newer start overtook it. `then`: the length of the read
   * that will follow, prepared as soon as this one is answered.
   */
  async read(seconds: number, then?: number): Promise<{ planes: Float32Array[]; last: boolean } | undefined> {
    const run = this.run
    const reply = await ask({ type: 'read', id: ++ids, song: this.song, run, seconds, then })
    if (reply.type === 'failed') throw failureOf(reply)
    if (reply.type !== 'chunk' || !reply.planes || run !== this.run) return undefined
    return { planes: reply.planes, last: !!reply.last }
  }

  close() {
    fetchers.delete(this.song)
    connect().post({ type: 'close', song: this.song })
  }
}

/**
 * Opens a song in the chunk worker (`open`: a WAV layout, a compressed file's first bytes, or a whole
 * decoded file's planes, handed over), its bytes read with `fetchRange`; undefined when the worker cannot
 * decode it.
 */
export async function openPrepared(
  open: Open,
  fetchRange: (range: string) => Promise<ArrayBuffer>,
  transfer: Transferable[] = [],
): Promise<PreparedSong | undefined> {
  const song = ++songIds
  fetchers.set(song, fetchRange)
  const reply = await ask({ ...open, id: ++ids, song } as ChunkRequest & { id: number }, transfer)
  if (reply.type === 'opened') return new PreparedSong(song, reply.channels, reply.frames, reply.rate)
  fetchers.delete(song)
  if (reply.type === 'failed') throw failureOf(reply)
  return undefined
}

/**
 * Starts the chunk worker and reads a short first chunk of silence through it at `rate`
 * (`chunk-warm.ts`), so a song's first press pays neither; answers the frames read (0: none).
 */
export async function warmChunkWorker(rate: number): Promise<number> {
  const reply = await ask({ type: 'warm', id: ++ids, rate })
  return reply.type === 'warmed' ? reply.frames : 0
}

/** A chunk's planes as an `AudioBuffer` of `context` (undefined when empty). */
export function audioBufferOf(context: BaseAudioContext, planes: Float32Array[]): AudioBuffer | undefined {
  const length = planes[0]?.length ?? 0
  if (length === 0) return undefined
  const buffer = context.createBuffer(planes.length, length, context.sampleRate)
  planes.forEach((plane, c) => buffer.copyToChannel(plane as Float32Array<ArrayBuffer>, c))
  return buffer
}
