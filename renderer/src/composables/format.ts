import { useI18n } from 'vue-i18n'

/**
 * `m:ss` (or `h:mm:ss`) from milliseconds, rounded down, everywhere a time is shown: a 239.6 s song is
 * 3:59 in its row, in the bar and at the end of the seek bar alike. Empty when unknown.
 */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return ''
  const total = Math.max(0, Math.floor(ms / 1000))
  const s = total % 60
  const m = Math.floor(total / 60) % 60
  const h = Math.floor(total / 3600)
  const ss = String(s).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`
}

/**
 * A count as people of the language write it: grouped (`10,000`), and in Chinese from 10,000 on in
 * 万 (`1 万`, `12.5 万`).
 */
export function formatCount(n: number, locale: string): string {
  if (locale.startsWith('zh') && n >= 10_000) {
    const compact = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(n)
    return compact.replace(/(\d)(\D+)$/, '$1 $2')
  }
  return new Intl.NumberFormat(locale).format(n)
}

/** "1 song", "10,000 songs", "1 万首歌曲": the pluralised, localised song count. */
export function useSongCount(): (n: number) => string {
  const { t, locale } = useI18n()
  return (n) => t('common.songs', { count: formatCount(n, locale.value) }, n)
}

/**
 * A message with a count in it, in the plural form the count takes and the count written as people of the
 * language write it: `t(key, { n: '10,000' }, 10000)`. Other values go in `values`.
 */
export function useCountText(): (key: string, n: number, values?: Record<string, unknown>) => string {
  const { t, locale } = useI18n()
  return (key, n, values = {}) => t(key, { ...values, n: formatCount(n, locale.value) }, n)
}

/**
 * A list's total time as the header says it: hours and minutes from an hour on, else minutes and seconds.
 * The message key and its values, for the i18n layer to word.
 */
export function totalDuration(ms: number): {
  key: 'common.totalHours' | 'common.totalMinutes'
  values: Record<string, number>
} {
  // Rounded down, as every time shown is (`formatDuration`): one 19.6 s song is 0:19 and "0 min 19 s".
  const total = Math.floor(Math.max(0, ms) / 1000)
  if (total >= 3600)
    return {
      key: 'common.totalHours',
      values: { h: Math.floor(total / 3600), m: Math.floor(total / 60) % 60 },
    }
  return { key: 'common.totalMinutes', values: { m: Math.floor(total / 60), s: total % 60 } }
}

/** A playback speed as the controls show it: `1×`, `1.5×`, `1.25×`. */
export function formatSpeed(speed: number): string {
  return `${Number(speed.toFixed(2))}×`
}

/** A gain in dB with its sign (a true minus): `+6 dB`, `−3 dB`, `0 dB`. */
export function formatDb(db: number): string {
  const size = Number(Math.abs(db).toFixed(1))
  if (size === 0) return '0 dB'
  return `${db > 0 ? '+' : '−'}${size} dB`
}

/** An equaliser band's centre: `31 Hz`, `1 kHz`, `16 kHz`. */
export function formatHz(hz: number): string {
  return hz < 1000 ? `${hz} Hz` : `${Number((hz / 1000).toFixed(1))} kHz`
}

/** The first letter of a name, for an avatar without its picture (`?` without a name). */
export function initial(name: string | undefined): string {
  const first = [...(name?.trim() ?? '')][0]
  return first ? first.toLocaleUpperCase() : '?'
}
