import type { Page } from 'playwright-core'

/**
 * What the app's Web Audio output schedules, read in the page: every `AudioBufferSourceNode` started
 * (its buffer's first channel copied, the clock time and offset it is started at, where it was stopped),
 * laid on the audio clock's frames where the output put it (a chunk started after its time, an
 * underrun of a busy machine, is heard late, but is counted on its frame and reported as `late`). This is the signal the output plays, before its gains (fades,
 * loudness), with no drop-out of a busy machine in it: a gap, an overlap or samples that should not
 * be there (an encoder's delay or padding) are in the schedule itself.
 */

/** The schedule of the chunks started since `startScheduleLog` was last called. */
export interface Schedule {
  /** The context's sample rate. */
  rate: number
  /** The first channel, from the first frame scheduled to the last. */
  signal: Float32Array
  /** Frames in that span no chunk plays, and frames two or more chunks play. */
  holes: number
  overlaps: number
  /** How many chunks were started (and not taken back at once), and how many after their time. */
  chunks: number
  late: number
  /** Each chunk's first frame (from the first chunk's) and length. */
  layout: string[]
}

/** Starts (or starts again) the log of chunks the page's audio output schedules. */
export function startScheduleLog(page: Page): Promise<void> {
  return page.evaluate(() => {
    type Entry = {
      when: number
      offset: number
      stop: number
      data: Float32Array
      rate: number
      late: boolean
      cancelled: boolean
      fresh: boolean
    }
    const w = window as unknown as { scheduleLog?: Entry[] }
    const patched = !!w.scheduleLog
    w.scheduleLog = []
    if (patched) return
    const entries = new WeakMap<AudioBufferSourceNode, Entry>()
    const proto = AudioBufferSourceNode.prototype
    const { start, stop } = proto
    proto.start = function (this: AudioBufferSourceNode, when = 0, offset = 0, duration?: number) {
      const now = this.context.currentTime
      if (this.buffer) {
        const entry: Entry = {
          when,
          offset,
          stop: Number.POSITIVE_INFINITY,
          data: this.buffer.getChannelData(0).slice(),
          rate: this.context.sampleRate,
          late: when < now,
          cancelled: false,
          fresh: true,
        }
        // A node stopped in the same task it was started in is one the output took back (a start a
        // render passed, scheduled again): it plays nothing.
        queueMicrotask(() => (entry.fresh = false))
        entries.set(this, entry)
        w.scheduleLog!.push(entry)
      }
      if (duration === undefined) return start.call(this, when, offset)
      return start.call(this, when, offset, duration)
    }
    proto.stop = function (this: AudioBufferSourceNode, when = 0) {
      const entry = entries.get(this)
      if (entry?.fresh) entry.cancelled = true
      else if (entry) entry.stop = Math.min(entry.stop, Math.max(when, this.context.currentTime))
      return stop.call(this, when)
    }
  })
}

/** Frames the logged chunks span, first to last, in seconds of the clock (0 before any). */
export function scheduledSeconds(page: Page): Promise<number> {
  return page.evaluate(() => {
    type Entry = { when: number; data: Float32Array; rate: number }
    const log = (window as unknown as { scheduleLog?: Entry[] }).scheduleLog
    if (!log?.length) return 0
    const first = Math.min(...log.map((e) => e.when))
    const last = Math.max(...log.map((e) => e.when + e.data.length / e.rate))
    return last - first
  })
}

/** The logged chunks laid on the clock's frames (see `Schedule`). */
export async function readSchedule(page: Page): Promise<Schedule> {
  const read = await page.evaluate(() => {
    type Entry = { when: number; offset: number; stop: number; data: Float32Array; rate: number }
    type Logged = Entry & { late: boolean; cancelled: boolean }
    const log = ((window as unknown as { scheduleLog?: Logged[] }).scheduleLog ?? []).filter(
      (e) => !e.cancelled,
    )
    const rate = log[0]?.rate ?? 48000
    const spans = log
      .map((e) => {
        const from = Math.round(e.when * rate)
        const skip = Math.round(e.offset * rate)
        const to = Math.min(from + e.data.length - skip, Math.round(e.stop * rate))
        return { from, to, skip, data: e.data, late: e.late }
      })
      .filter((s) => s.to > s.from)
    const first = Math.min(...spans.map((s) => s.from))
    const last = Math.max(...spans.map((s) => s.to))
    const signal = new Float32Array(Math.max(0, last - first))
    const cover = new Uint8Array(signal.length)
    for (const s of spans)
      for (let i = s.from; i < s.to; i++) {
        signal[i - first] += s.data[s.skip + i - s.from]
        cover[i - first]++
      }
    let holes = 0
    let overlaps = 0
    for (const c of cover) {
      if (c === 0) holes++
      if (c > 1) overlaps++
    }
    const bytes = new Uint8Array(signal.buffer)
    let text = ''
    for (let i = 0; i < bytes.length; i += 0x8000)
      text += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
    const late = spans.filter((s) => s.late).length
    const layout = spans.map((s) => `${s.from - first}+${s.to - s.from}${s.late ? ' late' : ''}`)
    return { rate, base64: btoa(text), holes, overlaps, chunks: spans.length, late, layout }
  })
  const bytes = Buffer.from(read.base64, 'base64')
  const signal = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4).slice()
  const { rate, holes, overlaps, chunks, late, layout } = read
  return { rate, signal, holes, overlaps, chunks, late, layout }
}
