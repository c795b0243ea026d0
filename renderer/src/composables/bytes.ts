/**
 * A size in bytes as people read it: 0 B, 812 KB, 4.2 MB, 1.9 GB. Counted in 1024s, as the sizes the app
 * offers are (a cache of 512 MiB reads "512 MB", 1 GiB "1 GB", not "537 MB" and "1.1 GB"), with the unit
 * names people know.
 */
export function formatBytes(bytes: number | undefined, locale = 'en'): string {
  if (bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return ''
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1
  return `${value.toLocaleString(locale, { maximumFractionDigits: digits })} ${units[unit]}`
}
