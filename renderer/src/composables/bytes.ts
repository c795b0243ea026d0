/** A size in bytes as people read it: 0 B, 812 KB, 4.2 MB, 1.9 GB (decimal units, as file managers show). */
export function formatBytes(bytes: number | undefined, locale = 'en'): string {
  if (bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return ''
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit++
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1
  return `${value.toLocaleString(locale, { maximumFractionDigits: digits })} ${units[unit]}`
}
