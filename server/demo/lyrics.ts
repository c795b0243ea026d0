import type { Rng } from '../audio/prng'
import { formatLrcTime } from '@shared/lyrics'
import {
  ADJECTIVES,
  EN_LINES,
  JA_LINES,
  JA_NOUNS,
  NOUNS,
  PREPOSITIONS,
  VERBS,
  ZH_LINES,
  ZH_NOUNS,
} from './words'

export type Language = 'en' | 'ja' | 'zh'

export interface DemoLyrics {
  normal: string
  translation?: string
  transliteration?: string
  wordforword?: string
}

function fill(pattern: string, values: Record<string, string>): string {
  return pattern.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '')
}

function lineText(rng: Rng, language: Language): [string, string, string] {
  if (language === 'en') {
    const text = fill(rng.pick(EN_LINES), {
      verb: rng.pick(VERBS).toLowerCase(),
      prep: rng.pick(PREPOSITIONS),
      adj: rng.pick(ADJECTIVES).toLowerCase(),
      noun: rng.pick(NOUNS).toLowerCase(),
    })
    const sentence = text.charAt(0).toUpperCase() + text.slice(1)
    return [sentence, '', '']
  }
  const nouns = language === 'ja' ? JA_NOUNS : ZH_NOUNS
  const [ja, roma, en] = rng.pick(language === 'ja' ? JA_LINES : ZH_LINES)
  const a = rng.pick(nouns)
  let b = rng.pick(nouns)
  if (b === a) b = nouns[(nouns.indexOf(a) + 1) % nouns.length]
  return [
    fill(ja, { a: a[0], b: b[0] }),
    fill(roma, { a: a[1], b: b[1] }),
    fill(en, { A: a[2].toLowerCase(), B: b[2].toLowerCase() }).replace(/^./, (c) => c.toUpperCase()),
  ]
}

/** Words of a line with their trailing spaces; CJK text is cut into one- or two-character pieces. */
function words(text: string): string[] {
  if (/\s/.test(text) && !/[\u3040-\u30ff\u4e00-\u9fff]/.test(text)) return text.match(/\S+\s*/g) ?? [text]
  const out: string[] = []
  const chars = [...text]
  for (let i = 0; i < chars.length;) {
    if (chars[i] === ' ') {
      if (out.length > 0) out[out.length - 1] += ' '
      i++
      continue
    }
    const n = chars[i + 1] === undefined || chars[i + 1] === ' ' ? 1 : 2
    out.push(chars.slice(i, i + n).join(''))
    i += n
  }
  return out
}

/**
 * Lyrics timed to the song: one line every two bars from the end of a one-bar intro, an empty line closes
 * the last one. `wordforword` lines are `[mm:ss.mmm]` then `(offsetMs)word` tokens, offsets relative to
 * the line's start.
 */
export function makeLyrics(
  rng: Rng,
  language: Language,
  durationMs: number,
  tempo: number,
  extras: { translation: boolean; wordTimed: boolean },
): DemoLyrics {
  const bar = (4 * 60000) / tempo
  const span = bar * 2
  const normal: string[] = []
  const translation: string[] = []
  const transliteration: string[] = []
  const wfw: string[] = []
  const chorus: Array<[string, string, string]> = [lineText(rng, language), lineText(rng, language)]
  let index = 0
  for (let t = bar; t < durationMs - 1500; t += span, index++) {
    // Lines 4-5 of every 8 repeat as a chorus.
    const [text, roma, en] = index % 8 >= 4 && index % 8 < 6 ? chorus[index % 2] : lineText(rng, language)
    const stamp = formatLrcTime(t)
    normal.push(stamp + text)
    if (language !== 'en') {
      translation.push(stamp + en)
      transliteration.push(stamp + roma)
    }
    if (extras.wordTimed) {
      const pieces = words(text)
      const step = (Math.min(span, durationMs - t) * 0.8) / pieces.length
      wfw.push(stamp + pieces.map((w, i) => `(${Math.round(i * step)})${w}`).join(''))
    }
  }
  const end = formatLrcTime(Math.min(durationMs - 500, bar + index * span))
  normal.push(end)
  const result: DemoLyrics = { normal: normal.join('\n') }
  if (language !== 'en' && extras.translation) {
    result.translation = [...translation, end].join('\n')
    result.transliteration = [...transliteration, end].join('\n')
  }
  if (extras.wordTimed) result.wordforword = [...wfw, end].join('\n')
  return result
}
