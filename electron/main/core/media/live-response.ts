import { parseContentRange, rangeHeader } from '@shared/http/range'
import type { MediaRef } from '@shared/player/media-url'
import type { MediaOpenRequest, MediaSource } from './source'
import type { LiveFill } from '../media-cache'
import type { Timers } from '../ports'
import type { Span } from './file-response'
import { planAnswer } from './file-response'
import type { CopyReader } from './played-copies'

/**
 * A range that starts this far past what has arrived is still served from the copy (it is on its way:
 * the player's next chunk); one further ahead is a seek, which the network serves at once.
 */
export const AHEAD_BYTES = 256 * 1024
/** Bytes read from the copy per step of the answer's stream. */
const READ_BYTES = 256 * 1024
/** A range of a copy still arriving waits for this much of it (or the copy's end) before it is answered. */
export const SERVE_STEP_BYTES = 64 * 1024
/** A copy that brings nothing for this long: the rest of the answer comes from the network. */
export const STALL_MS = 5000

/**
 * The renderer's request answered from the song's copy into the cache while it arrives, so the first
 * play fetches the song once: a range as far as the copy has come (at least `SERVE_STEP_BYTES` of it,
 * unless the copy ends or stalls first; the player asks again for the rest), the whole file as its bytes
 * reach the disk. Undefined (the caller asks the network) when the copy failed before its headers,
 * the server did not say the size, or the range starts well past what has arrived (a seek ahead: the
 * copy carries on by itself). If the copy fails or stalls while answering, the rest of the range comes
 * from `inner` with a ranged request, so the player never waits on a dead copy.
 *
 * The copy is `reader`'s: released as soon as this answer reads it no more (its body is read or
 * cancelled, the network took over, or the answer is not served from the copy at all).
 */
export async function liveResponse(
  reader: CopyReader,
  ref: MediaRef,
  request: MediaOpenRequest,
  inner: MediaSource,
  timers: Timers,
): Promise<Response | undefined> {
  const { live } = reader
  let body: ReadableStream<Uint8Array> | undefined
  try {
    await live.ready
    if (live.state === 'failed' || live.total === undefined) return undefined
    const plan = planAnswer(live.total, live.contentType, request)
    if (plan instanceof Response) return plan
    const { status, headers } = plan
    let { span } = plan
    if (live.state === 'running' && span.start > live.received + AHEAD_BYTES) return undefined
    if (request.method === 'HEAD' || live.total === 0) return new Response(null, { status, headers })
    if (status === 206 && live.state === 'running') {
      // A range of a copy still arriving is answered as far as it has come (a step at least, unless
      // the copy ends or stalls first): should the source stop, the player has every byte that came.
      await arrives(live, Math.min(span.end, span.start + SERVE_STEP_BYTES - 1), timers)
      if (live.received <= span.start) return undefined
      span = { start: span.start, end: Math.min(span.end, live.received - 1) }
      headers.set('Content-Range', `bytes ${span.start}-${span.end}/${live.total}`)
      headers.set('Content-Length', String(span.end - span.start + 1))
    }
    body = liveBody(reader, ref, span, request, inner, timers)
    return new Response(body, { status, headers })
  } finally {
    if (!body) reader.release()
  }
}

function liveBody(
  { live, release }: CopyReader,
  ref: MediaRef,
  span: Span,
  request: MediaOpenRequest,
  inner: MediaSource,
  timers: Timers,
): ReadableStream<Uint8Array> {
  let position = span.start
  let rest: ReadableStreamDefaultReader<Uint8Array> | undefined
  const stop = new AbortController()
  request.signal?.addEventListener(
    'abort',
    () => {
      stop.abort()
      release()
    },
    { once: true },
  )

  /** Bytes from the copy, or undefined when it will not bring them (failed, stalled, gone). */
  const fromCopy = async (): Promise<Uint8Array | undefined> => {
    // One read per step: a whole step's bytes (the renderer reads each range whole anyway), or what the
    // copy has when it ends.
    const last = Math.min(span.end, position + READ_BYTES - 1)
    await arrives(live, last, timers)
    if (live.received <= position) return undefined
    try {
      const bytes = await live.read(position, Math.min(READ_BYTES, span.end + 1 - position))
      return bytes.byteLength > 0 ? bytes : undefined
    } catch {
      return undefined // deleted (a failed check, a full disk): the network has it
    }
  }

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (position > span.end) {
          release()
          return controller.close()
        }
        if (!rest) {
          const bytes = await fromCopy()
          if (bytes) {
            position += bytes.byteLength
            controller.enqueue(bytes)
            return
          }
          // The rest of this range comes from the network: the copy is not read here any more.
          release()
          rest = await openRest(inner, ref, position, span.end, stop.signal)
        }
        const { done, value } = await rest.read()
        if (done) {
          if (position <= span.end) controller.error(new Error('The audio ended early'))
          else controller.close()
          return
        }
        const chunk = value.subarray(0, Math.min(value.byteLength, span.end + 1 - position))
        position += chunk.byteLength
        controller.enqueue(chunk)
      },
      cancel() {
        release()
        stop.abort()
        void rest?.cancel().catch(() => undefined)
      },
    },
    { highWaterMark: 0 },
  )
}

/** Waits until the byte at `position` is on disk, the copy ended, or it brought nothing for `STALL_MS`. */
async function arrives(live: LiveFill, position: number, timers: Timers): Promise<void> {
  while (live.received <= position && live.state === 'running') {
    const before = live.received
    let timer: unknown
    const stalled = new Promise<void>((resolve) => (timer = timers.setTimeout(resolve, STALL_MS)))
    await Promise.race([live.waitFor(position), stalled])
    timers.clearTimeout(timer)
    if (live.received === before && live.received <= position) return
  }
}

/** The rest of the span from the network, checked to start where the copy stopped. */
async function openRest(
  inner: MediaSource,
  ref: MediaRef,
  start: number,
  end: number,
  signal: AbortSignal,
): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const answer = await inner.open(ref, { method: 'GET', range: rangeHeader(start, end), signal })
  const fits =
    answer.status === 206
      ? parseContentRange(answer.headers.get('content-range'))?.start === start
      : answer.status === 200 && start === 0
  if (!fits || !answer.body) {
    await answer.body?.cancel().catch(() => undefined)
    throw new Error(`The rest of the audio could not be fetched (HTTP ${answer.status})`)
  }
  return answer.body.getReader()
}
