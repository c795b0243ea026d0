import type { Rng } from './prng'
import { anyValue, deepJson, edgeNumber, edgeString, mutate } from './values'

/**
 * Hostile IPC arguments. Most are what can really arrive through Electron (structured-clone values:
 * NaN, Infinity, -0, Dates, Maps, typed arrays, sparse arrays, cycles, prototype-pollution keys from
 * JSON.parse); a few only exist in-process (functions, symbols, throwing getters, proxies), since the e2e
 * harness and any future caller hand the router live objects.
 */

/** A plausible valid argument per channel, which the generator then breaks. Unknown channels get `{}`. */
export const VALID_ARGS: Record<string, unknown> = {
  'catalog:recommend-playlists': { limit: 10 },
  'catalog:toplists': { limit: 10 },
  'catalog:user-playlists': { limit: 10, offset: 0 },
  'catalog:playlist': { id: 1 },
  'catalog:playlist-rows': { id: 1, offset: 0, limit: 100, query: 'rain' },
  'catalog:recommend-songs': { limit: 10 },
  'catalog:recommend-artists': { limit: 10 },
  'catalog:artist': { id: 1 },
  'catalog:search': { keywords: 'rain', limit: 10 },
  'catalog:like': { id: 1, like: true },
  'player:resolve': { id: 1, br: 320000 },
  'player:report-state': {
    playing: true,
    song: { id: 1, name: 'Song', artists: 'Artist', liked: false },
  },
  'player:save-session': { version: 1, queue: { items: [] }, positionMs: 0, volume: 1, muted: false },
  'sources:add': { url: 'http://127.0.0.1:4000', name: 'Mine' },
  'sources:remove': { id: 'x' },
  'sources:activate': { id: 'x' },
  'sources:set-local-host': { id: 'x', host: 'nas.local' },
  'settings:update': { theme: 'dark' },
}

const HUGE = 'A'.repeat(10 * 1024 * 1024)
const BIG = 'b'.repeat(300_000)

function pollution(rng: Rng): unknown {
  const payloads = [
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"id":1,"__proto__":{"polluted":true,"isAdmin":true}}',
    '{"url":"https://example.com/","__proto__":{"polluted":true}}',
    '{"limit":5,"__proto__":{"limit":1e9,"polluted":true}}',
    '{"keywords":"x","constructor":{"prototype":{"polluted":true}}}',
    '{"theme":"dark","__proto__":{"polluted":true}}',
    '{"version":1,"queue":{"__proto__":{"polluted":true}},"positionMs":0,"volume":1,"muted":false}',
    '[{"__proto__":{"polluted":true}}]',
    '{"prototype":{"polluted":true},"__defineGetter__":1}',
  ]
  return JSON.parse(rng.pick(payloads))
}

function deepObject(depth: number, rng: Rng): unknown {
  return JSON.parse(deepJson(depth, rng))
}

function cyclic(base: unknown): unknown {
  const value = { ...(typeof base === 'object' && base ? base : {}) } as Record<string, unknown>
  value.self = value
  return value
}

/** Values that only live in-process: they cannot cross structured clone, but the router sees them here. */
function inProcessOnly(rng: Rng, valid: unknown): unknown {
  const kind = rng.int(0, 6)
  if (kind === 0) return () => 1
  if (kind === 1) return Symbol('x')
  if (kind === 2) return 10n ** 30n
  if (kind === 3)
    return Object.defineProperty({ ...(valid as object) }, 'id', {
      enumerable: true,
      get() {
        throw new Error('getter says no')
      },
    })
  if (kind === 4)
    return new Proxy(
      {},
      {
        get() {
          throw new Error('proxy says no')
        },
        ownKeys() {
          throw new Error('proxy says no')
        },
      },
    )
  if (kind === 5) return { then: (resolve: (v: unknown) => void) => resolve(valid) }
  return { ...(valid as object), toString: () => 'x', valueOf: () => 1, toJSON: () => valid }
}

export function hostileArgs(rng: Rng, channel: string): { label: string; args: unknown } {
  const valid = VALID_ARGS[channel] ?? {}
  const roll = rng.int(0, 19)
  switch (roll) {
    case 0:
      return {
        label: 'primitive',
        args: rng.pick<unknown>([null, true, false, 0, -0, 1, NaN, Infinity, -Infinity, '', 'x', '{}']),
      }
    case 1:
      return { label: 'huge string', args: rng.pick([HUGE, BIG]) }
    case 2:
      return {
        label: 'array',
        args: rng.pick<unknown>([[], [valid], [valid, valid], new Array(5), [1, 2, 3]]),
      }
    case 3:
    case 4:
      return { label: 'prototype pollution', args: pollution(rng) }
    case 5: {
      const key = rng.pick(['extra', '__proto__', 'constructor', 'prototype', BIG, '', ' id', 'ID'])
      const args = { ...(valid as object) } as Record<string, unknown>
      Object.defineProperty(args, key, { value: anyValue(rng), enumerable: true, configurable: true })
      return { label: 'extra key', args }
    }
    case 6:
    case 7:
    case 8: {
      let args: unknown = valid
      for (let i = rng.int(1, 3); i > 0; i--) args = mutate(args, rng)
      return { label: 'mutated', args }
    }
    case 9: {
      const args = { ...(valid as object) } as Record<string, unknown>
      const key = Object.keys(args)[0] ?? 'id'
      args[key] = rng.pick<unknown>([
        NaN,
        Infinity,
        -Infinity,
        -0,
        1e308,
        -1,
        0.5,
        2 ** 53 + 1,
        edgeNumber(rng),
      ])
      return { label: 'odd number', args }
    }
    case 10:
      return { label: 'deep object', args: deepObject(rng.pick([100, 1000, 5000]), rng) }
    case 11: {
      const args = { ...(valid as object) } as Record<string, unknown>
      args[Object.keys(args)[0] ?? 'id'] = deepObject(rng.pick([100, 3000]), rng)
      return { label: 'deep field', args }
    }
    case 12:
      return {
        label: 'structured-clone types',
        args: rng.pick<unknown>([
          new Date(),
          new Map([['id', 1]]),
          new Set([1]),
          /x/g,
          new Uint8Array(16),
          new ArrayBuffer(8),
          new Error('x'),
          Object.create(null),
        ]),
      }
    case 13:
      return { label: 'cyclic', args: cyclic(valid) }
    case 14:
      return { label: 'in-process only', args: inProcessOnly(rng, valid) }
    case 15: {
      const args = { ...(valid as object) } as Record<string, unknown>
      args[Object.keys(args)[0] ?? 'id'] = edgeString(rng)
      return { label: 'edge string field', args }
    }
    case 16:
      return { label: 'random value', args: anyValue(rng) }
    case 17:
      return { label: 'empty object', args: rng.pick<unknown>([{}, Object.create(null)]) }
    case 18:
      return { label: 'undefined', args: undefined }
    default:
      return { label: 'valid-ish', args: valid }
  }
}

export const UNTRUSTED_SENDERS: readonly unknown[] = [
  'https://evil.example/',
  'http://127.0.0.1:1/index.html',
  'file:///etc/passwd',
  'about:blank',
  'javascript:alert(1)',
  'data:text/html,<script>1</script>',
  '',
  'app://cadence.evil/index.html',
  'devtools://devtools/bundled/inspector.html',
  undefined,
  null,
  42,
  { toString: () => 'app://cadence/index.html' },
]

/** Channel names that are not channels: near misses, prototype keys, odd strings. */
export function unknownChannel(rng: Rng, known: readonly string[]): string {
  const real = rng.pick(known)
  const variants = [
    real.toUpperCase(),
    ` ${real}`,
    `${real}\u0000`,
    real.replace(':', '/'),
    `${real}:x`,
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'valueOf',
    'prototype',
    '',
    'fs:read',
    'shell:open',
    'auth:credential',
    'vault:get',
    edgeString(rng),
    real.normalize('NFD') + '\u0301',
  ]
  return rng.pick(variants)
}
