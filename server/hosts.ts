import { hostname, networkInterfaces } from 'node:os'

/**
 * The names this server answers to. A request whose Host header names anything else is refused, so a web
 * page the owner visits cannot reach the server through a DNS name it controls (DNS rebinding).
 *
 * Allowed: loopback names (localhost, *.localhost, 127.0.0.0/8, ::1), the address the server is bound to,
 * every address of this machine when bound to all interfaces (0.0.0.0 or ::), this machine's host name and
 * its `.local` mDNS name, the host of `--public-url`, and every `--public-name`.
 */
export function hostAllowList(opts: {
  bindHost: string
  publicUrl?: string
  publicNames?: readonly string[]
}): (hostHeader: unknown) => boolean {
  const names = new Set<string>(['localhost', '::1'])
  const add = (name: string | undefined) => {
    if (name) names.add(normalise(name))
  }
  add(opts.bindHost)
  if (['0.0.0.0', '::', '[::]', ''].includes(opts.bindHost)) {
    for (const list of Object.values(networkInterfaces())) {
      for (const address of list ?? []) add(address.address.split('%')[0])
    }
    const machine = hostname()
    add(machine)
    add(`${machine.split('.')[0]}.local`)
  }
  if (opts.publicUrl) {
    try {
      add(new URL(opts.publicUrl).hostname)
    } catch {
      // parseArgs checks the URL; an unparsable one simply adds no name.
    }
  }
  for (const name of opts.publicNames ?? []) add(name)

  return (hostHeader) => {
    if (typeof hostHeader !== 'string' || hostHeader.length === 0 || hostHeader.length > 300) return false
    const name = hostOf(hostHeader)
    if (name === undefined) return false
    return names.has(name) || name.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
  }
}

function normalise(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
}

/** The host name of a Host header value (port dropped, IPv6 brackets removed), or undefined if malformed. */
export function hostOf(hostHeader: string): string | undefined {
  try {
    const url = new URL(`http://${hostHeader}/`)
    if (url.username || url.password || url.pathname !== '/') return undefined
    return normalise(url.hostname)
  } catch {
    return undefined
  }
}
