import { BlockList, isIP } from 'node:net'

/**
 * Which IP addresses a data source may point main at without naming them as its own host: the public
 * internet only. Loopback, private (RFC 1918, CGNAT, unique local), link-local, unspecified, multicast,
 * documentation and reserved ranges are this computer or the user's network (or nobody's).
 */

const v4 = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  v4.addSubnet(net, prefix, 'ipv4')
}

const v6 = new BlockList()
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  v6.addSubnet(net, prefix, 'ipv6')
}

/** An IPv6 address as its eight 16-bit groups (zone and brackets removed), or undefined. */
function groups6(address: string): number[] | undefined {
  let text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  if (isIP(text) !== 6) return undefined
  // A dotted IPv4 tail (::ffff:1.2.3.4) becomes two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::') as [string, string | undefined]
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : [])
  const front = parse(head)
  const back = tail === undefined ? [] : parse(tail)
  const middle = tail === undefined ? [] : new Array<number>(8 - front.length - back.length).fill(0)
  const all = [...front, ...middle, ...back]
  return all.length === 8 ? all : undefined
}

const dottedOf = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`

/** The IPv4 address an IPv6 one carries (mapped, NAT64, 6to4), if any. */
function embeddedV4(g: number[]): string | undefined {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0)
  if (zeros(0, 5) && g[5] === 0xffff) return dottedOf(g[6]!, g[7]!) // ::ffff:a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return dottedOf(g[6]!, g[7]!) // NAT64
  if (g[0] === 0x2002) return dottedOf(g[1]!, g[2]!) // 6to4
  return undefined
}

/**
 * One spelling per address, to compare addresses: IPv4 dotted, IPv4-mapped IPv6 as its IPv4, other IPv6
 * as eight lower-case groups. Undefined for anything that is not an IP address.
 */
export function canonicalAddress(address: string): string | undefined {
  const text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  if (isIP(text) === 4) return text.split('.').map(Number).join('.')
  const g = groups6(text)
  if (!g) return undefined
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return dottedOf(g[6]!, g[7]!)
  return g.map((x) => x.toString(16)).join(':')
}

/** Whether an IP address is on the public internet (false for anything else, and for a name). */
export function isPublicAddress(address: string): boolean {
  const text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  const family = isIP(text)
  if (family === 4) return !v4.check(text, 'ipv4')
  if (family !== 6) return false
  const g = groups6(text)
  if (!g) return false
  const inner = embeddedV4(g)
  if (inner !== undefined && !isPublicAddress(inner)) return false
  return !v6.check(g.map((x) => x.toString(16)).join(':'), 'ipv6')
}

/** Names that only ever mean this computer or the local network, whatever they resolve to. */
export function isLocalName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '')
  return h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local')
}
