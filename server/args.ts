import type { DataSourceOptions } from './index'
import { isIP } from 'node:net'
import { checkPassphrase } from './owner'

export const USAGE = `Usage: npm run serve -- [options]

The Cadence reference data source: a music data-source API server over SQLite.

Options:
  --host HOST               address to listen on (default 127.0.0.1; 0.0.0.0 for every device on your network)
  --port N                  port (default 4000; 0 picks a free one)
  --data DIR                data directory: database, audio cache, secrets (default ./data)
  --demo N                  generate a demo catalogue of N songs on first start (default 300, 0 with --library)
  --no-demo                 take the demo catalogue out of the data dir (a later --demo N makes it again)
  --library DIR             import a folder of your own music (rescanned on every start; repeat for several)
  --public-url URL          the address other devices use, for links in answers (http://192.168.1.20:4000)
  --public-name NAME        another host name this server answers to (repeatable; loopback, this machine's
                            addresses and names, and --public-url's host are always allowed)
  --owner NAME              the owner's display name (default "Owner")
  --owner-passphrase P      the passphrase a phone must give to confirm a sign-in (at least 8 characters);
                            without it the stored one is kept, and the first start makes one and prints it
  --anonymous-audio-mb N    demo audio made for requests without a login, in all per start (default 48); past
                            it they are asked to sign in for songs not made yet
  --sign-out-everywhere     revoke every credential and forget every remembered phone on this start (a new
                            --owner-passphrase does the same by itself)
  --require-login           list, search and stream nothing without a login (covers, the sign-in and its phone
                            page, / and /health stay open); the desktop app starts its library so on a network
  --audio-cache-mb N        size quota of the synthesised demo-audio cache (default 512); least recently
                            used files are deleted past it
  --trust-proxy ADDR        a reverse proxy in front of this server whose X-Forwarded-For to believe: an
                            address or CIDR range (repeatable or comma-separated); without it every client
                            behind the proxy has the proxy's address
  --log                     log every request
  --help                    print this help
`

export type ServerArgs = DataSourceOptions & { port: number; host: string; help?: boolean }

/** Parses the command line (see USAGE). */
export function parseArgs(argv: readonly string[]): ServerArgs {
  const opts: ServerArgs = {
    dataDir: './data',
    host: '127.0.0.1',
    port: 4000,
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined]
    const value = (): string => {
      const v = inline ?? argv[++i]
      if (v === undefined) throw new Error(`Missing value for ${flag}`)
      return v
    }
    const int = (): number => {
      const v = value()
      if (!/^\d+$/.test(v)) throw new Error(`${flag} needs a non-negative integer, got "${v}"`)
      return Number(v)
    }
    switch (flag) {
      case '--host':
        opts.host = value()
        break
      case '--port':
        opts.port = int()
        break
      case '--data':
      case '--data-dir':
        opts.dataDir = value()
        break
      case '--demo':
        opts.demo = int()
        break
      case '--no-demo':
        opts.removeDemo = true
        break
      case '--library':
        opts.library = [...[opts.library ?? []].flat(), value()]
        break
      case '--public-url':
        opts.publicUrl = value()
        break
      case '--owner':
        opts.ownerName = value()
        break
      case '--public-name':
        opts.publicNames = [...(opts.publicNames ?? []), value()]
        break
      case '--owner-passphrase':
        opts.ownerPassphrase = value()
        checkPassphrase(opts.ownerPassphrase)
        break
      case '--sign-out-everywhere':
        opts.signOutEverywhere = true
        break
      case '--require-login':
        opts.requireLogin = true
        break
      case '--anonymous-audio-mb':
        opts.anonymousAudioBytes = int() * 1024 * 1024
        break
      case '--audio-cache-mb':
        opts.audioCacheBytes = int() * 1024 * 1024
        break
      case '--trust-proxy':
        opts.trustProxy = [...(opts.trustProxy ?? []), ...proxyList(value())]
        break
      case '--log':
        opts.logger = true
        break
      case '--help':
      case '-h':
        opts.help = true
        break
      default:
        throw new Error(`Unknown option ${arg}`)
    }
  }
  return opts
}

/** `--trust-proxy`'s value: addresses or CIDR ranges, comma-separated; anything else is refused. */
function proxyList(value: string): string[] {
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/')
    const family = isIP(address)
    const maxBits = family === 6 ? 128 : 32
    if (
      family === 0 ||
      extra !== undefined ||
      (bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > maxBits))
    ) {
      throw new Error(
        `--trust-proxy needs IP addresses or CIDR ranges (e.g. 127.0.0.1 or 10.0.0.0/8), got "${entry}"`,
      )
    }
  }
  if (entries.length === 0) throw new Error('--trust-proxy needs an address')
  return entries
}
