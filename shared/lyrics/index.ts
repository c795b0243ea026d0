/** Lyrics: LRC parsing, word timing, alignment of translations, and the current-line lookup. */
export { parseLrc, findLineIndex, formatLrcTime, type LyricLine } from './lrc'
export { parseWordLyrics, LAST_WORD_MS, type LyricWord, type WordLine } from './words'
export {
  alignLyrics,
  buildLyrics,
  ALIGN_TOLERANCE_MS,
  type LyricSource,
  type LyricRow,
  type Lyrics,
} from './align'
