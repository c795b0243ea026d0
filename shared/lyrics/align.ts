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

/** Above this many cells a cluster is matched greedily instead of by dynamic programming. */
const MAX_DP_CELLS = 1_000_000

/**
 * For each line of `original`, the line of `extra` paired with it, or `undefined`. Lines pair only within
 * `toleranceMs` of each other, each extra line is used at most once, and pairs keep their order (a later
 * original line never gets an earlier extra line). Among such pairings the one with the most pairs wins,
 * then the one with the smallest total time difference, so a translation that runs consistently late
 * still lines up. Both lists must be sorted by time.
 */
export function alignLyrics<T extends { time: number }>(
  original: readonly { time: number }[],
  extra: readonly T[],
  toleranceMs: number = ALIGN_TOLERANCE_MS,
): Array<T | undefined> {
  const result: Array<T | undefined> = new Array(original.length).fill(undefined)
  if (original.length === 0 || extra.length === 0) return result
  const tolerance = Math.max(0, toleranceMs)

  // Window of candidate extra lines [low, high) for each original line; both bounds only grow.
  const low = new Int32Array(original.length)
  const high = new Int32Array(original.length)
  let lo = 0
  let hi = 0
  for (let i = 0; i < original.length; i++) {
    const time = original[i].time
    while (lo < extra.length && extra[lo].time < time - tolerance) lo++
    if (hi < lo) hi = lo
    while (hi < extra.length && extra[hi].time <= time + tolerance) hi++
    low[i] = lo
    high[i] = hi
  }

  // Clusters: runs of original lines whose windows overlap. Pairs never reach across clusters.
  const matchOf = new Int32Array(original.length).fill(-1)
  let i = 0
  while (i < original.length) {
    if (low[i] === high[i]) {
      i++
      continue
    }
    const first = i
    let clusterHigh = high[i]
    i++
    while (i < original.length && low[i] < high[i] && low[i] < clusterHigh) clusterHigh = high[i++]
    const rows = i - first
    const columns = clusterHigh - low[first]
    if (rows * columns <= MAX_DP_CELLS)
      matchCluster(original, extra, tolerance, first, i, low[first], clusterHigh, matchOf)
    else matchGreedy(original, extra, low, high, first, i, matchOf, 2 * tolerance)
  }
  for (let k = 0; k < original.length; k++) if (matchOf[k] !== -1) result[k] = extra[matchOf[k]]
  return result
}

/**
 * Order-keeping matching of originals [i0, i1) with extras [j0, j1) by dynamic programming over prefixes:
 * most pairs first, then least total distance.
 */
function matchCluster(
  original: readonly { time: number }[],
  extra: readonly { time: number }[],
  tolerance: number,
  i0: number,
  i1: number,
  j0: number,
  j1: number,
  matchOf: Int32Array,
): void {
  const rows = i1 - i0
  const columns = j1 - j0
  const width = columns + 1
  const count = new Int32Array((rows + 1) * width)
  const distance = new Float64Array((rows + 1) * width)
  // 0: skip the original line, 1: skip the extra line, 2: pair them.
  const move = new Uint8Array((rows + 1) * width)
  for (let r = 1; r <= rows; r++) {
    const time = original[i0 + r - 1].time
    for (let c = 1; c <= columns; c++) {
      const cell = r * width + c
      const up = cell - width
      const left = cell - 1
      let bestCount = count[up]
      let bestDistance = distance[up]
      let bestMove = 0
      if (count[left] > bestCount || (count[left] === bestCount && distance[left] < bestDistance)) {
        bestCount = count[left]
        bestDistance = distance[left]
        bestMove = 1
      }
      const gap = Math.abs(extra[j0 + c - 1].time - time)
      if (gap <= tolerance) {
        const diagonal = up - 1
        const pairCount = count[diagonal] + 1
        const pairDistance = distance[diagonal] + gap
        if (pairCount > bestCount || (pairCount === bestCount && pairDistance < bestDistance)) {
          bestCount = pairCount
          bestDistance = pairDistance
          bestMove = 2
        }
      }
      count[cell] = bestCount
      distance[cell] = bestDistance
      move[cell] = bestMove
    }
  }
  let r = rows
  let c = columns
  while (r > 0 && c > 0) {
    const step = move[r * width + c]
    if (step === 2) {
      matchOf[i0 + r - 1] = j0 + c - 1
      r--
      c--
    } else if (step === 1) c--
    else r--
  }
}

/** Fallback for huge clusters: closest pairs first, skipping any pair that would break the order. */
function matchGreedy(
  original: readonly { time: number }[],
  extra: readonly { time: number }[],
  low: Int32Array,
  high: Int32Array,
  i0: number,
  i1: number,
  matchOf: Int32Array,
  reach: number,
): void {
  const pairs: Array<{ distance: number; i: number; j: number }> = []
  for (let i = i0; i < i1; i++) {
    for (let j = low[i]; j < high[i]; j++)
      pairs.push({ distance: Math.abs(extra[j].time - original[i].time), i, j })
  }
  pairs.sort((a, b) => a.distance - b.distance || a.i - b.i || a.j - b.j)
  const used = new Set<number>()
  for (const { i, j } of pairs) {
    if (matchOf[i] !== -1 || used.has(j) || crosses(original, matchOf, i, j, reach)) continue
    matchOf[i] = j
    used.add(j)
  }
}

/**
 * Whether pairing original `i` with extra `j` would cross a pair already made. A crossing partner lies
 * within `reach` (twice the tolerance) of original `i`, since both pairs are within the tolerance.
 */
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
 * Whether a translated or transliterated line says anything: QQ Music fills untranslated lines with `//`,
 * and others with lone punctuation. Such a line is no translation, so it must not take a slot in alignment.
 */
export function isMeaningfulLine(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text)
}

const meaningful = (lines: ReturnType<typeof parseLrc>) => lines.filter((line) => isMeaningfulLine(line.text))

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
  const translation = meaningful(parseLrc(textOf(source?.translation)))
  const transliteration = meaningful(parseLrc(textOf(source?.transliteration)))
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
