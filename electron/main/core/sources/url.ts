import { isIP } from 'node:net'
import { CadenceError } from '@shared/errors'

/**
 * Which data-source addresses Cadence accepts: http(s) only; https unless the host is this machine or a
 * private LAN address (plain http on the LAN is allowed with a warning, `insecure: true`).
 */

function ipv4(host: string): number[] | undefined {
  const parts = host.split('.')
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined
  return parts.map(Number)
}

export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '')
  if (h === 'localhost' || h.endsWith('.localhost') || h === '::1') return true
  const v4 = ipv4(h) ?? mappedV4(h)
  return !!v4 && v4[0] === 127
}

function mappedV4(host: string): number[] | undefined {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host)
  return m ? ipv4(m[1]) : undefined
}

export function isPrivateLanHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '')
  if (h.endsWith('.local')) return true
  const v4 = ipv4(h) ?? mappedV4(h)
  if (v4) {
    const [a, b] = v4
    return (
      a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)
    )
  }
  if (h.includes(':')) {
    // fc00::/7 (unique local) and fe80::/10 (link local).
    return /^f[cd][0-9a-f]{0,2}:/.test(h) || /^fe[89ab][0-9a-f]?:/.test(h)
  }
  return false
}

export interface ValidatedSourceUrl {
  /** Normalised: origin plus path, no trailing slash, no query, fragment or credentials. */
  url: string
  insecure: boolean
}

const invalid = (message: string) => new CadenceError({ kind: 'invalid-argument', message })

export function validateSourceUrl(raw: string): ValidatedSourceUrl {
  let text = raw.trim()
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) text = `http://${text}`
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw invalid('That is not a web address. Enter something like https://music.example.com')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid('Only http and https addresses can be data sources')
  }
  if (url.username || url.password) {
    throw invalid('Leave the user name and password out of the address; Cadence signs in with a QR code')
  }
  if (!url.hostname) throw invalid('The address has no host name')
  const loopback = isLoopbackHost(url.hostname)
  const lan = isPrivateLanHost(url.hostname)
  if (url.protocol === 'http:' && !loopback && !lan) {
    throw invalid(
      'This data source is on the internet: use an https:// address (plain http is only allowed on this computer or your local network)',
    )
  }
  const path = url.pathname.replace(/\/+$/, '')
  return { url: `${url.origin}${path}`, insecure: url.protocol === 'http:' && !loopback }
}

/**
 * The one more local host a data source may point media and covers at: a host name or an IP address,
 * nothing else (no scheme, port or path). Lower-cased, IPv6 without brackets; `''` means none.
 */
export function validateLocalHost(raw: string): string {
  const text = raw.trim().toLowerCase().replace(/\.$/, '')
  if (!text) return ''
  const literal = text.replace(/^\[|\]$/g, '')
  if (isIP(literal) === 6) return literal
  let host: string | undefined
  try {
    const url = new URL(`http://${literal}/`)
    if (!url.port && !url.username && !url.password) host = url.hostname
  } catch {
    host = undefined
  }
  // The parser's spelling must be what was typed: no path, port or user, no "192.168.1" read as an address.
  if (host !== literal) {
    throw invalid('Enter only a host name or an IP address, such as nas.local or 192.168.1.20')
  }
  return host
}
