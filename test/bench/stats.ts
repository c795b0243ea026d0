/** One figure of the benchmark report. */
export interface Figure {
  figure: string
  value: number
  unit: string
  target?: string
  min?: number
  max?: number
  /** Ratio to the nearest physical floor, where one exists (e.g. the same page with no data). */
  floorRatio?: number
  note?: string
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits

/** Median, min and max of several runs. */
export function summarise(figure: string, runs: number[], unit: string, target?: string): Figure {
  return {
    figure,
    value: round(median(runs)),
    min: round(Math.min(...runs)),
    max: round(Math.max(...runs)),
    unit,
    target,
  }
}

export function printTable(figures: Figure[]): void {
  const rows = figures.map((f) => [
    f.figure,
    String(f.value),
    f.min !== undefined ? `${f.min}–${f.max}` : '',
    f.target ?? '',
    f.unit,
    f.floorRatio !== undefined ? `${f.floorRatio}×` : '',
  ])
  const header = ['figure', 'value', 'min–max', 'target', 'unit', 'vs floor']
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ')
  console.log(line(header))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const row of rows) console.log(line(row))
}
