/**
 * Lyrics benchmark: parsing a 10,000-line LRC, building display lines from three lyric fields, and
 * current-line lookups. Figures, not pass/fail. Run alone with `npx tsx test/bench/lyrics.ts`.
 */
// A relative import: tsx runs this file with the root tsconfig, which has no path aliases.
import { pathToFileURL } from 'node:url'
import type { Figure } from './stats'
import { buildLyrics, findLineIndex, parseLrc } from '../../shared/lyrics'

export type BenchFigure = Figure

const LINES = 10_000
const RUNS = 30
const WARM_UP = 5

function stamp(ms: number): string {
  const minutes = String(Math.floor(ms / 60000)).padStart(2, '0')
  const seconds = String(Math.floor((ms % 60000) / 1000)).padStart(2, '0')
  const hundredths = String(Math.floor((ms % 1000) / 10)).padStart(2, '0')
  return `[${minutes}:${seconds}.${hundredths}]`
}

/** A deterministic LRC with a header, mixed scripts, repeated choruses and CRLF endings. */
export function generateLrc(lines = LINES, shift = 0, words = false): string {
  const out = ['[ti:Benchmark]', '[ar:Cadence]', '[al:Ten Thousand Lines]', '[by:bench]', '[offset:0]']
  let time = 1000 + shift
  for (let i = 0; i < lines; i++) {
    if (words) {
      out.push(`${stamp(time)}(0)word${i} (310)und (620)歌词 (900)line`)
    } else if (i % 50 === 0 && i + 1 < lines) {
      // A chorus line with two timestamps counts as two lines.
      out.push(`${stamp(time)}${stamp(time + 1700)}chorus line ${i} 合唱`)
      time += 1700
      i++
    } else {
      out.push(`${stamp(time)}line ${i}: the quick brown fox 跳过了懒狗 ${i % 7 === 0 ? '' : 'again'}`)
    }
    time += 1700 + (i % 5) * 100
  }
  return out.join('\r\n')
}

function stats(samples: number[]): { median: number; min: number; max: number } {
  const sorted = samples.slice().sort((a, b) => a - b)
  const middle = sorted.length >> 1
  const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  return { median, min: sorted[0], max: sorted[sorted.length - 1] }
}

function time(run: () => unknown): number[] {
  for (let k = 0; k < WARM_UP; k++) run()
  const samples: number[] = []
  for (let k = 0; k < RUNS; k++) {
    const start = performance.now()
    run()
    samples.push(performance.now() - start)
  }
  return samples
}

const round = (value: number, digits = 3): number => Number(value.toFixed(digits))

export async function benchLyrics(): Promise<BenchFigure[]> {
  const normal = generateLrc()
  const translation = generateLrc(LINES, 180)
  const wordforword = generateLrc(LINES, 40, true)
  const figures: BenchFigure[] = []

  let parsed = 0
  const parse = stats(time(() => (parsed = parseLrc(normal).length)))
  if (parsed !== LINES) throw new Error(`parseLrc returned ${parsed} lines, expected ${LINES}`)
  figures.push({
    figure: `parseLrc, ${LINES.toLocaleString('en')}-line LRC (median of ${RUNS})`,
    value: round(parse.median),
    target: '< 5 ms',
    unit: 'ms',
    min: round(parse.min),
    max: round(parse.max),
  })

  const build = stats(time(() => buildLyrics({ normal, translation, wordforword })))
  figures.push({
    figure: `buildLyrics, ${LINES.toLocaleString('en')} lines with translation and word timing (median of ${RUNS})`,
    value: round(build.median),
    unit: 'ms',
    min: round(build.min),
    max: round(build.max),
  })

  const lines = parseLrc(normal)
  const end = lines[lines.length - 1].time
  const lookups = 100_000
  let sink = 0
  const lookup = stats(
    time(() => {
      for (let k = 0; k < lookups; k++) sink += findLineIndex(lines, (k * 7919) % end)
    }),
  )
  if (sink === 0) throw new Error('findLineIndex found nothing')
  figures.push({
    figure: `findLineIndex over ${LINES.toLocaleString('en')} lines (per lookup, median of ${RUNS})`,
    value: round((lookup.median / lookups) * 1e6, 1),
    unit: 'ns',
    min: round((lookup.min / lookups) * 1e6, 1),
    max: round((lookup.max / lookups) * 1e6, 1),
  })
  return figures
}

async function main(): Promise<void> {
  for (const { figure, value, unit, target, min, max } of await benchLyrics()) {
    const range = min !== undefined && max !== undefined ? ` (min ${min}, max ${max})` : ''
    console.log(`${figure}: ${value} ${unit}${range}${target ? `, target ${target}` : ''}`)
  }
}

// No top-level await, so the file also loads where it is compiled to CommonJS.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main()
