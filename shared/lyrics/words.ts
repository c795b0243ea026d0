/**
 * Word-timed lyrics (the `wordforword` lyric field some servers send).
 *
 * Each line is an LRC line whose text holds word markers: `[00:12.34](0)Hello (420) world`, where the number
 * is the word's start in ms relative to the line. The real-world form `(offsetMs,durationMs)word` is read
 * too (a third number, as in `(start,duration,0)`, is ignored). When every marker in a file starts near its
 * line's own time, the offsets are taken as absolute song times instead.
 */
import { parseLrc } from './lrc'

/** One word: absolute start time and duration in ms. */
export type LyricWord = { time: number; duration: number; text: string }

/** A line of word-timed lyrics; `text` is the words joined, `words` is empty for a line without markers. */
export type WordLine = { time: number; text: string; words: LyricWord[] }

/** Duration given to the last word of the last line when the file says nothing else. */
export const LAST_WORD_MS = 500

/** How close (ms) a first marker must be to its line time for a file to count as absolute. */
const ABSOLUTE_SLACK_MS = 1000
/** A file counts as absolute only if some marked line starts this late (early lines are ambiguous). */
const ABSOLUTE_MIN_LINE_MS = 5000

const CLOSE_PAREN = 41 // )
const COMMA = 44
const ZERO = 48
const NINE = 57

type Segment = { start: number; duration: number; text: string }

let markerStart = 0
let markerDuration = -1
let markerEnd = 0

/** Reads `(n)`, `(n,d)` or `(n,d,x)` at `open`; sets the marker fields and returns false if it is not one. */
function readMarker(text: string, open: number): boolean {
  let start = 0
  let duration = -1
  let field = 0
  let digits = 0
  for (let i = open + 1; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code >= ZERO && code <= NINE) {
      if (field === 0) start = start * 10 + (code - ZERO)
      else if (field === 1) duration = (digits === 0 ? 0 : duration * 10) + (code - ZERO)
      digits++
    } else if (code === COMMA && digits > 0 && field < 2) {
      field++
      digits = 0
    } else if (code === CLOSE_PAREN && digits > 0) {
      markerStart = start
      markerDuration = duration
      markerEnd = i + 1
      return true
    } else {
      return false
    }
  }
  return false
}

/** Splits a line's text into raw segments; text before the first marker starts at offset 0. */
function splitSegments(text: string): Segment[] {
  const segments: Segment[] = []
  let textStart = 0
  let current: Segment = { start: 0, duration: -1, text: '' }
  let open = text.indexOf('(')
  while (open !== -1) {
    if (readMarker(text, open)) {
      current.text = text.slice(textStart, open)
      if (segments.length > 0 || current.text.trim() !== '') segments.push(current)
      current = { start: markerStart, duration: markerDuration, text: '' }
      textStart = markerEnd
      open = text.indexOf('(', markerEnd)
    } else {
      open = text.indexOf('(', open + 1)
    }
  }
  if (segments.length === 0 && textStart === 0) return segments // no markers at all
  current.text = text.slice(textStart)
  segments.push(current)
  return segments
}

function endsWithSpace(text: string): boolean {
  const code = text.charCodeAt(text.length - 1)
  return code === 32 || code === 9 || code === 0x3000 || code === 0xa0
}

/**
 * Turns segments into words: absolute times, durations (explicit, else until the next word, else until
 * `lineEnd`), and whitespace normalised so that the words' texts joined give the line text with single
 * spaces at word boundaries. Whitespace-only segments still end the word before them but are not words themselves.
 */
function toWords(segments: Segment[], base: number, lineEnd: number): LyricWord[] {
  const words: LyricWord[] = []
  for (let k = 0; k < segments.length; k++) {
    const segment = segments[k]
    const time = base + segment.start
    let duration: number
    if (segment.duration >= 0) duration = segment.duration
    else if (k + 1 < segments.length) duration = base + segments[k + 1].start - time
    else duration = lineEnd - time
    if (duration < 0) duration = 0
    let wordText = segment.text
    const previous = words.length > 0 ? words[words.length - 1] : undefined
    if (!previous || endsWithSpace(previous.text)) wordText = wordText.trimStart()
    if (wordText.length === 0 || wordText.trim().length === 0) {
      if (previous && wordText.length > 0) previous.text += ' '
      continue
    }
    words.push({ time, duration, text: wordText })
  }
  if (words.length > 0) {
    const last = words[words.length - 1]
    last.text = last.text.trimEnd()
  }
  return words
}

/** Parses word-timed LRC into lines with absolute word times, sorted by line time. */
export function parseWordLyrics(text: string): WordLine[] {
  const lines = parseLrc(text)
  const segmented = lines.map((line) => splitSegments(line.text))

  let marked = 0
  let nearOwnTime = 0
  let late = false
  for (let k = 0; k < lines.length; k++) {
    const segments = segmented[k]
    if (segments.length === 0) continue
    marked++
    const first = segments[0].start
    if (first >= lines[k].time - ABSOLUTE_SLACK_MS && first > 0) nearOwnTime++
    if (lines[k].time >= ABSOLUTE_MIN_LINE_MS) late = true
  }
  const absolute = marked > 0 && late && nearOwnTime === marked

  const result: WordLine[] = []
  let nextTime = Number.POSITIVE_INFINITY
  for (let k = lines.length - 1; k >= 0; k--) {
    const line = lines[k]
    const base = absolute ? 0 : line.time
    const lineEnd = Number.isFinite(nextTime) && nextTime > line.time ? nextTime : -1
    const segments = segmented[k]
    let words: LyricWord[] = []
    if (segments.length > 0) {
      const lastStart = base + segments[segments.length - 1].start
      words = toWords(segments, base, lineEnd >= 0 ? lineEnd : lastStart + LAST_WORD_MS)
    }
    const joined = segments.length > 0 ? words.map((word) => word.text).join('') : line.text
    result.push({ time: line.time, text: joined, words })
    if (line.time < nextTime) nextTime = line.time
  }
  return result.reverse()
}
