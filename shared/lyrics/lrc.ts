/**
 * LRC parsing and line lookup.
 *
 * The parser makes one pass over the text with `charCodeAt` and `indexOf`: no `split`, no per-line
 * regular expressions, one object and one string per lyric line. A 10,000-line file parses in about a
 * millisecond (see `test/bench/lyrics.ts`).
 */

/** One timed lyric line. `time` is in milliseconds from the start of the song. */
export type LyricLine = { time: number; text: string }

const LF = 10
const CR = 13
const SPACE = 32
const OPEN = 91 // [
const CLOSE = 93 // ]
const COLON = 58 // :
const DOT = 46 // .
const COMMA = 44 // ,
const ZERO = 48
const NINE = 57
const BOM = 0xfeff
const NBSP = 0xa0
const IDEOGRAPHIC_SPACE = 0x3000

/** Scale factors that turn the first one, two or three fraction digits into milliseconds. */
const FRACTION_SCALE = [0, 100, 10, 1]

/** Index just past the `]` of the last timestamp read by `readTimestamp` (avoids a tuple per call). */
let timestampEnd = 0

function isSpace(code: number): boolean {
  return code <= SPACE || code === BOM || code === NBSP || code === IDEOGRAPHIC_SPACE
}

/**
 * Reads `mm:ss`, `mm:ss.f`, `mm:ss.ff`, `mm:ss.fff` or `mm:ss:ff` starting just after a `[` and
 * ending at `]`. Returns the time in milliseconds and sets `timestampEnd`, or returns -1 when the tag is
 * not a timestamp (metadata such as `[ar:…]`, or garbage such as `[xx:yy]`).
 */
function readTimestamp(text: string, start: number, end: number): number {
  let i = start
  let minutes = 0
  let digits = 0
  let code = text.charCodeAt(i)
  while (i < end && code >= ZERO && code <= NINE) {
    minutes = minutes * 10 + (code - ZERO)
    digits++
    code = text.charCodeAt(++i)
  }
  if (digits === 0 || code !== COLON) return -1
  code = text.charCodeAt(++i)
  let seconds = 0
  digits = 0
  while (i < end && code >= ZERO && code <= NINE) {
    seconds = seconds * 10 + (code - ZERO)
    digits++
    code = text.charCodeAt(++i)
  }
  if (digits === 0) return -1
  let fraction = 0
  let fractionDigits = 0
  if (code === DOT || code === COLON || code === COMMA) {
    code = text.charCodeAt(++i)
    while (i < end && code >= ZERO && code <= NINE) {
      // Digits past the third (microseconds) are read but do not count.
      if (fractionDigits < 3) fraction = fraction * 10 + (code - ZERO)
      fractionDigits++
      code = text.charCodeAt(++i)
    }
  }
  if (i >= end || code !== CLOSE) return -1
  timestampEnd = i + 1
  const fractionMs = fraction * FRACTION_SCALE[fractionDigits > 3 ? 3 : fractionDigits]
  return (minutes * 60 + seconds) * 1000 + fractionMs
}

/** Reads `[offset:±ms]` at `start` (the `[`); returns the offset or `undefined` for any other tag. */
function readOffsetTag(text: string, start: number, end: number): number | undefined {
  const close = text.indexOf(']', start)
  if (close === -1 || close >= end) return undefined
  const colon = text.indexOf(':', start)
  if (colon === -1 || colon > close) return undefined
  if (
    text
      .slice(start + 1, colon)
      .trim()
      .toLowerCase() !== 'offset'
  )
    return undefined
  const value = Number.parseInt(text.slice(colon + 1, close).trim(), 10)
  return Number.isFinite(value) ? value : undefined
}

/**
 * Parses LRC text into timed lines sorted by time (lines with equal times keep their file order).
 *
 * - Timestamps: `[mm:ss]`, `[mm:ss.f]`, `[mm:ss.ff]`, `[mm:ss.fff]`, `[mm:ss:ff]`; minutes may exceed 59.
 * - Several timestamps before one text (`[00:12.00][01:30.50]text`) give one line per timestamp.
 * - `[offset:±ms]` is applied to every line (positive = shown earlier), clamped at 0.
 * - Metadata tags (`[ar:…]`, `[ti:…]`, …), blank lines, untimed lines and garbage tags are ignored.
 * - A timed line with no text is kept with `text: ''`: it marks an instrumental gap.
 * - BOM, LF/CRLF/CR line endings and surrounding whitespace are handled.
 */
export function parseLrc(text: string): LyricLine[] {
  const lines: LyricLine[] = []
  if (typeof text !== 'string' || text.length === 0) return lines
  const length = text.length
  const stamps: number[] = []
  let offset = 0
  let sorted = true
  let lastTime = -1
  let pos = text.charCodeAt(0) === BOM ? 1 : 0
  let nextLf = text.indexOf('\n', pos)
  let nextCr = text.indexOf('\r', pos)

  while (pos < length) {
    if (nextLf !== -1 && nextLf < pos) nextLf = text.indexOf('\n', pos)
    if (nextCr !== -1 && nextCr < pos) nextCr = text.indexOf('\r', pos)
    let end = length
    if (nextLf !== -1) end = nextLf
    if (nextCr !== -1 && nextCr < end) end = nextCr
    const lineStart = pos
    pos = end + 1
    if (text.charCodeAt(end) === CR && text.charCodeAt(pos) === LF) pos++

    let i = lineStart
    while (i < end && isSpace(text.charCodeAt(i))) i++
    if (i >= end || text.charCodeAt(i) !== OPEN) continue

    let count = 0
    while (i < end && text.charCodeAt(i) === OPEN) {
      const time = readTimestamp(text, i + 1, end)
      if (time < 0) break
      stamps[count++] = time
      i = timestampEnd
      while (i < end && isSpace(text.charCodeAt(i))) i++
    }

    if (count === 0) {
      const value = readOffsetTag(text, i, end)
      if (value !== undefined) offset = value
      continue
    }

    const lineText = i < end ? text.slice(i, end).trim() : ''
    for (let k = 0; k < count; k++) {
      const time = stamps[k]
      if (time < lastTime) sorted = false
      lastTime = time
      lines.push({ time, text: lineText })
    }
  }

  if (offset !== 0) {
    for (const line of lines) line.time = line.time > offset ? line.time - offset : 0
  }
  // Array.prototype.sort is stable, so equal times keep their file order.
  if (!sorted) lines.sort(byTime)
  return lines
}

function byTime(a: { time: number }, b: { time: number }): number {
  return a.time - b.time
}

/**
 * Index of the line being sung at `timeMs`: the last line whose time is at most `timeMs`, or -1 before
 * the first line (and for an empty list). `lines` must be sorted by time. Works on words too.
 */
export function findLineIndex(lines: readonly { time: number }[], timeMs: number): number {
  let low = 0
  let high = lines.length - 1
  let found = -1
  while (low <= high) {
    const mid = (low + high) >>> 1
    if (lines[mid].time <= timeMs) {
      found = mid
      low = mid + 1
    } else {
      high = mid - 1
    }
  }
  return found
}

/** `[mm:ss.mmm]`, the LRC timestamp form the spec names, for a time in milliseconds (negative → 0). */
export function formatLrcTime(ms: number): string {
  const total = Math.max(0, Math.round(ms))
  const m = Math.floor(total / 60000)
  const s = Math.floor((total % 60000) / 1000)
  const frac = total % 1000
  return `[${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(frac).padStart(3, '0')}]`
}
