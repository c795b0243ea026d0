/**
 * The address a person typed for a data source, as the app will ask it: `host:port` (or a bare host)
 * gets `http://`; anything that is then not an http(s) address with a host is `undefined`.
 */
export function sourceAddress(typed: string): string | undefined {
  const value = typed.trim()
  if (!value || /\s/.test(value)) return undefined
  const full = /^[a-z][a-z\d+.-]*:\/\//i.test(value) ? value : `http://${value}`
  try {
    const url = new URL(full)
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return undefined
    return full
  } catch {
    return undefined
  }
}
