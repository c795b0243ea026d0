/** m:ss (or h:mm:ss) from milliseconds; empty when unknown. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return ''
  const total = Math.round(ms / 1000)
  const s = total % 60
  const m = Math.floor(total / 60) % 60
  const h = Math.floor(total / 3600)
  const ss = String(s).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`
}

/**
 * A list's total time as the header says it: hours and minutes from an hour on, else minutes and seconds.
 * The message key and its values, for the i18n layer to word.
 */
export function totalDuration(ms: number): {
  key: 'common.totalHours' | 'common.totalMinutes'
  values: Record<string, number>
} {
  const total = Math.round(Math.max(0, ms) / 1000)
  if (total >= 3600)
    return {
      key: 'common.totalHours',
      values: { h: Math.floor(total / 3600), m: Math.floor(total / 60) % 60 },
    }
  return { key: 'common.totalMinutes', values: { m: Math.floor(total / 60), s: total % 60 } }
}
