/**
 * Pairing the original lyrics with their translation, transliteration and word timing.
 *
 * Lines are paired by time, not by index: real translations skip lines, add lines, and drift by a few
 * hundred milliseconds.
 */
import { parseLrc } from './lrc'
import { parseWordLyrics, type LyricWord } from './words'

/** Default largest time difference (ms) at which two lines still count as the same line. */
export const ALIGN_TOLERANCE_MS = 600

/**
 * For each line of `original`, the line of `extra` closest in time within `toleranceMs`, or `undefined`.
 * Each extra line is used at most once, the closest pairs are made first, and pairs never cross (a later
 * original line never gets an earlier extra line than an earlier original line got). Both lists must be
 * sorted by time.
 */
export function alignLyrics<T extends { time: number }>(
  original: readonly { time: number }[],
  extra: readonly T[],
  toleranceMs: number = ALIGN_TOLERANCE_MS,
): Array<T | undefined> {
  const result: Array<T | undefined> = new Array(original.length).fill(undefined)
  if (original.length === 0 || extra.length === 0) return result
  const tolerance = Math.max(0, toleranceMs)

  // Candidate pairs within the tolerance, found with a sliding window over the sorted extra lines.
  const pairs: Array<{ distance: number; i: number; j: number }> = []
  let windowStart = 0
  for (let i = 0; i < original.length; i++) {
    const time = original[i].time
    while (windowStart < extra.length && extra[windowStart].time < time - tolerance) windowStart++
    for (let j = windowStart; j < extra.length && extra[j].time <= time + tolerance; j++) {
      pairs.push({ distance: Math.abs(extra[j].time - time), i, j })
    }
  }
  pairs.sort((a, b) => a.distance - b.distance || a.i - b.i || a.j - b.j)

  const matchOf = new Int32Array(original.length).fill(-1)
  const used = new Uint8Array(extra.length)
  // A crossing partner of (i, j) lies within twice the tolerance of original[i] (both pairs are within it).
  const reach = 2 * tolerance
  for (const { i, j } of pairs) {
    if (matchOf[i] !== -1 || used[j]) continue
    if (crosses(original, matchOf, i, j, reach)) continue
    matchOf[i] = j
    used[j] = 1
    result[i] = extra[j]
  }
  return result
}

/** Whether pairing original `i` with extra `j` would cross a pair already made. */
function crosses(
  original: readonly { time: number }[],
  matchOf: Int32Array,
  i: number,
  j: number,
  reach: number,
): boolean {
  const time = original[i].time
  for (let k = i - 1; k >= 0 && original[k].time >= time - reach; k--) {
    if (matchOf[k] === -1) continue
    // Pairs never cross, so the nearest earlier match decides for all earlier ones.
    if (matchOf[k] > j) return true
    break
  }
  for (let k = i + 1; k < original.length && original[k].time <= time + reach; k++) {
    if (matchOf[k] === -1) continue
    if (matchOf[k] < j) return true
    break
  }
  return false
}

/** The lyric fields a song may carry (spec 2.8, plus the `wordforword` word timing some servers add). */
export type LyricSource = {
  normal?: string | null
  translation?: string | null
  transliteration?: string | null
  wordforword?: string | null
}

/** One displayed line. `translation`/`transliteration` are absent when empty; `words` when not word-timed. */
export type LyricRow = {
  time: number
  text: string
  translation?: string
  transliteration?: string
  words?: LyricWord[]
}

export type Lyrics = {
  lines: LyricRow[]
  hasTranslation: boolean
  hasTransliteration: boolean
  hasWords: boolean
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/**
 * Builds display lines from a song's lyric fields: the original lines (from `normal`, or from the word
 * timing when `normal` has no timed lines), each with the translation, transliteration and words aligned
 * to it by time. Non-string fields are ignored, so any server's lyric object can be passed in.
 */
export function buildLyrics(
  source: LyricSource | null | undefined,
  toleranceMs = ALIGN_TOLERANCE_MS,
): Lyrics {
  const normal = parseLrc(textOf(source?.normal))
  const translation = parseLrc(textOf(source?.translation))
  const transliteration = parseLrc(textOf(source?.transliteration))
  const wordLines = parseWordLyrics(textOf(source?.wordforword))

  const base = normal.length > 0 ? normal : wordLines.map(({ time, text }) => ({ time, text }))
  const translated = alignLyrics(base, translation, toleranceMs)
  const transliterated = alignLyrics(base, transliteration, toleranceMs)
  const worded = normal.length > 0 ? alignLyrics(base, wordLines, toleranceMs) : wordLines

  let hasTranslation = false
  let hasTransliteration = false
  let hasWords = false
  const lines = base.map((line, index): LyricRow => {
    const row: LyricRow = { time: line.time, text: line.text }
    const translationText = translated[index]?.text
    if (translationText) {
      row.translation = translationText
      hasTranslation = true
    }
    const transliterationText = transliterated[index]?.text
    if (transliterationText) {
      row.transliteration = transliterationText
      hasTransliteration = true
    }
    const words = worded[index]?.words
    if (words && words.length > 0) {
      row.words = words
      hasWords = true
    }
    return row
  })
  return { lines, hasTranslation, hasTransliteration, hasWords }
}
