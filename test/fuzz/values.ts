import type { Rng } from './prng'

/** Generators of hostile values: odd strings, odd numbers, wrong types, deep and huge structures. */

export const EDGE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800', // lone high surrogate
  '\udfff', // lone low surrogate
  'x\ud83dy', // broken pair
  '\u202eevil\u202c', // RTL override
  'שלום עולם', // RTL text
  'مرحبا',
  '\u200b\u200c\u200d\ufeff', // zero-width characters and BOM
  'e\u0301\u0301\u0301\u0301', // stacked combining marks
  '👩‍👩‍👧‍👦🏳️‍🌈',
  '周杰伦',
  '<script>alert(1)</script>',
  '"; DROP TABLE songs; --',
  '../../etc/passwd',
  'javascript:alert(1)',
  'http://',
  'data:text/html,<b>x</b>',
  '%00%ff',
  '\\u0000',
  '\r\n\t\v\f',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e400',
  'true',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
]

export const EDGE_NUMBERS: readonly number[] = [
  0,
  -0,
  -1,
  1,
  0.5,
  -0.5,
  2 ** 31,
  -(2 ** 31),
  2 ** 53,
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  1e21,
  -1e21,
  128000,
  320000,
]

export function edgeString(rng: Rng): string {
  if (rng.chance(0.1)) return rng.pick(EDGE_STRINGS).repeat(rng.int(100, 5000))
  if (rng.chance(0.01)) return 'x'.repeat(rng.int(100_000, 1_000_000))
  if (rng.chance(0.3)) return rng.pick(EDGE_STRINGS) + rng.pick(EDGE_STRINGS)
  return rng.pick(EDGE_STRINGS)
}

/** A number, or (in JSON text, see `rawNumber`) something JSON.parse turns into Infinity or -0. */
export function edgeNumber(rng: Rng): number {
  if (rng.chance(0.3)) return rng.int(-1000, 100000)
  return rng.pick(EDGE_NUMBERS)
}

/** Numbers only JSON text can carry: they parse to Infinity, -Infinity, -0 or lose precision. */
export const RAW_NUMBERS: readonly string[] = [
  '1e400',
  '-1e400',
  '-0',
  '123456789012345678901234567890',
  '0.1e-400',
  '1E+2',
]

/** Any JSON value of a random type, nested a little. */
export function anyValue(rng: Rng, depth = 0): unknown {
  const kind = rng.int(0, depth > 3 ? 5 : 8)
  switch (kind) {
    case 0:
      return null
    case 1:
      return rng.chance(0.5)
    case 2:
      return edgeNumber(rng)
    case 3:
    case 4:
      return edgeString(rng)
    case 5:
      return rng.chance(0.5) ? [] : {}
    case 6:
      return Array.from({ length: rng.int(0, 5) }, () => anyValue(rng, depth + 1))
    default: {
      const out: Record<string, unknown> = {}
      for (let i = rng.int(0, 5); i > 0; i--) out[rng.pick(KEYS)] = anyValue(rng, depth + 1)
      return out
    }
  }
}

const KEYS = [
  'id',
  'name',
  'songs',
  'artists',
  'album',
  'meta',
  'privilege',
  'cover',
  'url',
  'status',
  'cookie',
  'playable',
  'x',
  '',
  '__proto__',
  'constructor',
]

/** JSON text for a value nested `depth` levels deep: arrays, objects or a mix. */
export function deepJson(depth: number, rng: Rng, leaf = '1'): string {
  const style = rng.int(0, 2)
  if (style === 0) return '['.repeat(depth) + leaf + ']'.repeat(depth)
  if (style === 1) return '{"a":'.repeat(depth) + leaf + '}'.repeat(depth)
  let open = ''
  let close = ''
  for (let i = 0; i < depth; i++) {
    if (i % 2) {
      open += '{"meta":'
      close = '}' + close
    } else {
      open += '['
      close = ']' + close
    }
  }
  return open + leaf + close
}

/** Changes one random place in a JSON-like value: a wrong type, a missing key, null, a hostile string. */
export function mutate(value: unknown, rng: Rng, depth = 0): unknown {
  if (Array.isArray(value)) {
    if (value.length === 0 || rng.chance(0.15))
      return rng.chance(0.5) ? anyValue(rng) : [...value, anyValue(rng)]
    const copy = [...value]
    const i = rng.int(0, copy.length - 1)
    copy[i] = mutate(copy[i], rng, depth + 1)
    return copy
  }
  if (value && typeof value === 'object') {
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) }
    const keys = Object.keys(copy)
    const roll = rng.int(0, 9)
    if (keys.length === 0 || roll === 0) {
      copy[rng.pick(KEYS)] = anyValue(rng)
      return copy
    }
    const key = rng.pick(keys)
    if (roll === 1) delete copy[key]
    else if (roll === 2) copy[key] = null
    else if (roll === 3) copy[key] = anyValue(rng)
    else if (roll === 4) copy[key] = edgeString(rng)
    else if (roll === 5) copy[key] = edgeNumber(rng)
    else copy[key] = mutate(copy[key], rng, depth + 1)
    return copy
  }
  if (rng.chance(0.5)) return anyValue(rng)
  return typeof value === 'string' ? edgeString(rng) : typeof value === 'number' ? edgeNumber(rng) : null
}
