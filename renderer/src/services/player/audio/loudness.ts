import { parseMediaUrl } from '@shared/player/media-url'
import type { Measured } from '@shared/audio/gain'
import type { Reply } from './loudness.worker'
import { rangeHeader } from '@shared/http/range'
import { fileSize } from './media-load'
import { HEADER_BYTES } from './open-song'
import type { SongHead } from './open-song'
import { frameRange, parseWavHeader } from '@shared/audio/codec/wav'

/**
 * Loudness per song, measured from its audio in a worker (`loudness.worker.ts`) and kept per data
 * source and song (`localStorage`, key `cadence.loudness.<source>:<song>`), so each song is measured
 * once. WAV is read as bytes and decoded in the worker; FLAC, MP3 and AAC are decoded in the worker
 * too, by WebCodecs (`codec-source.ts`), the worker asking this page for their bytes a stretch at a
 * time. The file's first bytes are the ones the player fetched to open the song (`open-song.ts`), not
 * fetched again. Another format stays unmeasured and plays at the safe gain.
 */

const KEY_PREFIX = 'cadence.loudness.'
/** Bytes fetched per step while measuring (one at a time: the measuring never crowds playback). */
const STEP_BYTES = 1024 * 1024

const keyOf = (url: string) => {
  const ref = parseMediaUrl(url)
  return ref ? `${KEY_PREFIX}${ref.sourceId}:${ref.songId}` : undefined
}

export function storedLoudness(url: string): Measured | undefined {
  const key = keyOf(url)
  if (!key) return undefined
  try {
    const value = JSON.parse(localStorage.getItem(key) ?? 'null') as Partial<Measured> | null
    if (value && typeof value.integrated === 'number' && typeof value.truePeak === 'number') {
      return { integrated: value.integrated, truePeak: value.truePeak }
    }
  } catch {
    // Unreadable: measured again.
  }
  return undefined
}

function store(url: string, measured: Measured) {
  const key = keyOf(url)
  if (!key) return
  // JSON has no -Infinity: silence is stored as null and measured as silence again (cheap).
  if (!Number.isFinite(measured.integrated)) return
  try {
    localStorage.setItem(key, JSON.stringify(measured))
  } catch {
    // Storage full: the song is measured again next time.
  }
}

/** The song's first 64 KB and its length, when the player did not hand them over. */
async function fetchHead(url: string, load: (url: string, range: string) => Promise<Response>) {
  const first = await load(url, rangeHeader(0, HEADER_BYTES - 1))
  const bytes = await first.arrayBuffer()
  return { bytes, size: fileSize(first, bytes.byteLength) ?? bytes.byteLength }
}

let worker: Worker | undefined
let queue: Promise<unknown> = Promise.resolve()
const pending = new Map<string, Promise<Measured | undefined>>()

/** Measures the song at `url` (once at a time, in order), stores and answers the result. */
export function measureLoudness(
  url: string,
  load: (url: string, range: string) => Promise<Response>,
  fetched?: SongHead,
) {
  const known = pending.get(url)
  if (known) return known
  const run = queue.then(async (): Promise<Measured | undefined> => {
    // The first bytes the player already fetched to open the song (a copy: the worker is handed it).
    const { bytes: head, size } = fetched
      ? { bytes: fetched.bytes.slice(0), size: fetched.size }
      : await fetchHead(url, load)
    const layout = parseWavHeader(head, size)
    worker ??= new Worker(new URL('./loudness.worker.ts', import.meta.url), { type: 'module' })
    const measuring = worker
    const answer = new Promise<Measured | undefined>((done, fail) => {
      measuring.onmessage = (event: MessageEvent<Reply>) => {
        const reply = event.data
        if (reply.type === 'result') done(reply.measured)
        else if (reply.type === 'unsupported') done(undefined)
        else if (reply.type === 'read') {
          // The worker decoding a FLAC, MP3 or AAC file asks for its bytes a stretch at a time.
          load(url, rangeHeader(reply.start, reply.end))
            .then((answer) => answer.arrayBuffer())
            .then(
              (bytes) => measuring.postMessage({ type: 'bytes', id: reply.id, bytes }, [bytes]),
              () => measuring.postMessage({ type: 'bytes', id: reply.id }),
            )
        }
      }
      measuring.onerror = () => fail(new Error('the loudness worker failed'))
    })
    answer.catch(() => undefined)
    if (layout) {
      measuring.postMessage({ type: 'start', layout })
      const framesPerStep = Math.max(1, Math.floor(STEP_BYTES / layout.blockAlign))
      // A range may be answered with fewer bytes than asked (main, at a first play, as far as its copy
      // has come): the next step starts where the answer ended, so no stretch goes unmeasured.
      for (let frame = 0; frame < layout.frames;) {
        const { start, end } = frameRange(layout, frame, framesPerStep)
        const answered = await (await load(url, rangeHeader(start, end))).arrayBuffer()
        const frames = Math.min(
          Math.floor(answered.byteLength / layout.blockAlign),
          framesPerStep,
          layout.frames - frame,
        )
        if (frames === 0) break
        const bytes = answered.slice(0, frames * layout.blockAlign)
        measuring.postMessage({ type: 'chunk', bytes }, [bytes])
        frame += frames
      }
      measuring.postMessage({ type: 'end' })
    } else {
      // FLAC, MP3 or AAC (or nothing the worker can decode: it says so).
      measuring.postMessage({ type: 'start-codec', head, size }, [head])
    }
    const measured = await answer
    if (measured) store(url, measured)
    return measured
  })
  queue = run.catch(() => undefined)
  pending.set(url, run)
  void run.finally(() => pending.delete(url))
  return run
}
