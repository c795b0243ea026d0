import { afterAll, describe, expect, it } from 'vitest'
import { createApiClient } from '@main/core/api/client'
import type { ApiClient } from '@main/core/api/client'
import { DATA_SOURCE_ERROR_KINDS, DataSourceError } from '@shared/errors'
import { createRng, fuzzSeed } from '../fuzz/prng'
import type { Rng } from '../fuzz/prng'
import { anyValue, deepJson, edgeNumber, edgeString, mutate, RAW_NUMBERS } from '../fuzz/values'
import * as check from '../fuzz/models-check'
import * as sample from '../fuzz/samples'

/**
 * Issue #7: every endpoint method of the API client gets 1,000 generated hostile answers through an
 * injected fetch (no sockets). Each outcome must be a value of the normalised model type that can cross
 * IPC (structured clone, as Electron does), or a DataSourceError with a known kind. Nothing else.
 *
 * Reproduce a failure with FUZZ_SEED=<seed printed in the failure> npx vitest run test/unit/fuzz-api-client.
 */

const ITERATIONS = 1000
const SEED = fuzzSeed(0xcade7)
const TIMEOUT_MS = 25
/** Where each endpoint gets its one 100,000-element answer (the slow kind); the variant rotates. */
const HUGE_AT = 500

interface Endpoint {
  name: string
  call: (api: ApiClient) => Promise<unknown>
  sample: () => unknown
  check: (value: unknown, path: string, problems: string[]) => void
  list: boolean
}

const ENDPOINTS: Endpoint[] = [
  {
    name: 'qrKey',
    call: (a) => a.qrKey(),
    sample: () => ({ unikey: 'k1' }),
    check: check.checkQrKey,
    list: false,
  },
  {
    name: 'qrCreate',
    call: (a) => a.qrCreate('k1'),
    sample: () => ({ qrurl: 'http://127.0.0.1/q/k1', qrimg: 'data:image/png;base64,AAAA' }),
    check: check.checkQrCode,
    list: false,
  },
  {
    name: 'qrCheck',
    call: (a) => a.qrCheck('k1'),
    sample: () => ({ status: 2, cookie: 'secret' }),
    check: check.checkQrStatus,
    list: false,
  },
  {
    name: 'loginStatus',
    call: (a) => a.loginStatus(),
    sample: () => sample.user(1),
    check: check.checkUser,
    list: false,
  },
  {
    name: 'userPlaylists',
    call: (a) => a.userPlaylists(1, { limit: 5 }),
    sample: () => [sample.playlist(1), sample.playlist(2)],
    check: check.checkPlaylists,
    list: true,
  },
  {
    name: 'recommendPlaylists',
    call: (a) => a.recommendPlaylists(10),
    sample: () => [sample.playlist(1), sample.playlist(2)],
    check: check.checkPlaylists,
    list: true,
  },
  {
    name: 'toplists',
    call: (a) => a.toplists(),
    sample: () => [sample.playlist(3)],
    check: check.checkPlaylists,
    list: true,
  },
  {
    name: 'playlistDetail',
    call: (a) => a.playlistDetail(1),
    sample: () => sample.playlist(1, 3),
    check: check.checkPlaylist,
    list: false,
  },
  {
    name: 'recommendSongs',
    call: (a) => a.recommendSongs(10),
    sample: () => [sample.song(1), sample.song(2)],
    check: check.checkSongs,
    list: true,
  },
  {
    name: 'songDetail',
    call: (a) => a.songDetail(1, 1, 320000),
    sample: () => sample.song(1),
    check: check.checkSong,
    list: false,
  },
  {
    name: 'likeSong',
    call: (a) => a.likeSong(1, true),
    sample: () => ({ id: 1, like: true, playlist: 9 }),
    check: check.checkLikeResult,
    list: false,
  },
  {
    name: 'recommendArtists',
    call: (a) => a.recommendArtists(10),
    sample: () => [sample.artist(1), sample.artist(2)],
    check: check.checkArtists,
    list: true,
  },
  {
    name: 'artistDetail',
    call: (a) => a.artistDetail(1),
    sample: () => sample.playlist(1, 2),
    check: check.checkPlaylist,
    list: false,
  },
  {
    name: 'search',
    call: (a) => a.search('x', 10),
    sample: sample.searchResult,
    check: check.checkSearchResult,
    list: false,
  },
]

/** One hostile answer: how fetch behaves for every attempt of one call (the client retries GETs once). */
type Answer = { label: string; respond: (signal: AbortSignal | undefined) => Promise<Response> }

const NULL_BODY_STATUSES = new Set([204, 205, 304])
const STATUSES = [200, 200, 200, 201, 203, 204, 206, 299, 301, 304, 400, 401, 403, 404, 408, 418, 429, 500]
  .concat([501, 502, 503, 504, 599, 205, 226])
  .sort((a, b) => a - b)

function respond(
  label: string,
  body: BodyInit | null,
  status = 200,
  contentType = 'application/json',
): Answer {
  return {
    label,
    respond: async () =>
      new Response(NULL_BODY_STATUSES.has(status) ? null : body, {
        status,
        headers: { 'Content-Type': contentType },
      }),
  }
}

const envelope = (data: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ code: 0, message: 'Success', data, timestamp: '2024-01-01T00:00:00.000Z', ...extra })

const HTML_502 =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>'

/** Expensive bodies are built once per shape and reused. */
const cache = new Map<string, string>()
function cached(key: string, build: () => string): string {
  let value = cache.get(key)
  if (value === undefined) cache.set(key, (value = build()))
  return value
}

/** 100,000-element arrays: junk items, minimal valid items, and nested lists of a detail answer. */
function hugeArray(endpoint: Endpoint, variant: number): Answer {
  const body = cached(`${endpoint.name}:huge:${variant}`, () => {
    const n = 100_000
    if (variant === 0) return envelope(Array.from({ length: n }, (_, i) => i))
    const items = `[${Array.from({ length: n }, (_, i) => `{"id":${i + 1},"name":"n"}`).join(',')}]`
    if (variant === 1 && endpoint.list) return `{"code":0,"message":"Success","data":${items}}`
    // A detail answer whose nested lists are huge.
    return `{"code":0,"data":{"id":1,"name":"x","status":0,"unikey":"k","qrurl":"u","like":true,"songs":${items},"artists":${items},"tns":${items},"albums":[],"playlists":[]}}`
  })
  return respond(`huge array (${variant})`, body)
}

function deep(endpoint: Endpoint, rng: Rng): Answer {
  const depth = rng.pick([1000, 5000, 20_000, 100_000])
  const where = rng.int(0, 4)
  const nest = deepJson(depth, rng)
  const base = JSON.stringify(endpoint.sample())
  let body: string
  if (where === 0) body = `{"code":0,"data":${nest}}`
  else if (where === 1) body = nest
  else if (where === 2 && base.startsWith('{')) body = `{"code":0,"data":{"meta":${nest},${base.slice(1)}}`
  else if (where === 3)
    body = `{"code":0,"data":${base.replace('"lyric":{', `"lyric":{"extra":${nest},`).replace('"meta":{', `"meta":{"deep":${nest},`)}}`
  else body = `{"code":0,"extra":${nest},"data":${base}}`
  return respond(`deep nesting ${depth} (${where})`, body)
}

function transportFailure(rng: Rng): Answer {
  const kind = rng.int(0, 5)
  if (kind === 0)
    return {
      label: 'fetch rejects TypeError',
      respond: () => Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })),
    }
  if (kind === 1) return { label: 'fetch rejects a non-error', respond: () => Promise.reject('boom') }
  if (kind === 2) return { label: 'fetch rejects undefined', respond: () => Promise.reject(undefined) }
  if (kind === 3)
    return {
      label: 'body stream errors midway',
      respond: async () => {
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"code":0,"data":[{"id":1,'))
            controller.error(new Error('socket hang up'))
          },
        })
        return new Response(stream, { status: 200 })
      },
    }
  if (kind === 4)
    return {
      label: 'fetch throws synchronously',
      respond: () => {
        throw new RangeError('bad')
      },
    }
  return {
    label: 'hangs past the timeout',
    respond: (signal) =>
      new Promise<Response>((_, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true })
      }),
  }
}

function generate(endpoint: Endpoint, rng: Rng): Answer {
  const roll = rng.next()
  const data = endpoint.sample()
  if (roll < 0.3) {
    let value = data
    for (let i = rng.int(1, 4); i > 0; i--) value = mutate(value, rng)
    return respond('mutated data', envelope(value))
  }
  if (roll < 0.38) return respond('random data', envelope(anyValue(rng)))
  if (roll < 0.48) {
    const code = rng.pick<unknown>([
      0,
      '0',
      200,
      '200',
      -1,
      '-1',
      1,
      404,
      500,
      -2,
      '',
      'abc',
      null,
      true,
      0.5,
    ])
    const extra: Record<string, unknown> = { code }
    if (rng.chance(0.3)) extra.message = rng.pick<unknown>([null, 42, edgeString(rng), { a: 1 }, undefined])
    if (rng.chance(0.3)) extra.timestamp = rng.pick<unknown>([1700000000000, 'yesterday', null, {}])
    if (rng.chance(0.2)) extra.data = null
    if (rng.chance(0.1)) extra.code = undefined
    return respond(
      `envelope code ${JSON.stringify(code)}`,
      envelope(rng.chance(0.7) ? data : mutate(data, rng), extra),
    )
  }
  if (roll < 0.55) {
    const bodies = [
      '',
      ' ',
      '\n',
      HTML_502,
      'OK',
      'Internal Server Error',
      '<?xml version="1.0"?><error/>',
      '\ufeff' + envelope(data),
      envelope(data) + 'garbage',
      envelope(data) + envelope(data),
      "{'code': 0}",
      '{"code":0,"data":NaN}',
      '{"code":0,"data":undefined}',
      '{"code":0,,}',
    ]
    return respond(
      'not JSON',
      rng.pick(bodies),
      200,
      rng.pick(['application/json', 'text/html', 'text/plain']),
    )
  }
  if (roll < 0.62) {
    const full = envelope(data)
    return respond('truncated JSON', full.slice(0, rng.int(0, full.length - 1)))
  }
  if (roll < 0.7) {
    const status = rng.pick(STATUSES)
    const body = rng.pick([HTML_502, envelope(data), envelope(null, { code: -1, message: 'nope' }), '', 'x'])
    return respond(`HTTP ${status}`, body, status, rng.pick(['application/json', 'text/html']))
  }
  if (roll < 0.75) {
    return respond(
      'top-level non-envelope',
      rng.pick(['null', 'true', '1', '"str"', '[]', `[${envelope(data)}]`, '{}']),
    )
  }
  if (roll < 0.8) {
    // Numbers that only JSON text can carry: Infinity, -0, lost precision.
    const raw = rng.pick(RAW_NUMBERS)
    const text = envelope(data).replace(/(?<=[:[,])-?\d+(\.\d+)?(?=[,\]}])/g, (m) =>
      rng.chance(0.5) ? raw : m,
    )
    return respond(`raw number ${raw}`, text)
  }
  if (roll < 0.85) {
    // Unicode edge cases in the raw text: escaped lone surrogates and NUL, and bytes that are not UTF-8.
    const kind = rng.int(0, 2)
    if (kind === 0) {
      const text = envelope(data).replace(
        /"(name|unikey|qrurl|cookie|url|cover)":"/g,
        (m) => `${m}\\ud800\\u0000\\u202e`,
      )
      return respond('escaped lone surrogate', text)
    }
    if (kind === 1) {
      const bytes = new TextEncoder().encode(envelope(data))
      const broken = new Uint8Array(bytes.length + 4)
      broken.set(bytes.subarray(0, 20))
      broken.set([0xff, 0xfe, 0xc0, 0x80], 20)
      broken.set(bytes.subarray(20), 24)
      return respond('invalid UTF-8 bytes', broken)
    }
    return respond('UTF-16 body', new Uint8Array(Buffer.from(envelope(data), 'utf16le')))
  }
  if (roll < 0.88) return deep(endpoint, rng)
  if (roll < 0.93) return transportFailure(rng)
  if (roll < 0.95)
    return respond('huge numbers', envelope(mutate(mutate(data, rng), rng), { code: edgeNumber(rng) }))
  return respond('valid', envelope(data))
}

const PROFILE = new Map<string, number>()

interface Outcome {
  values: number
  errors: Record<string, number>
  failures: string[]
}

async function fuzzEndpoint(endpoint: Endpoint, seed: number, variant: number): Promise<Outcome> {
  const rng = createRng(seed)
  let answer: Answer = respond('none', envelope(null))
  const fakeFetch = ((_url: URL, init?: RequestInit) =>
    answer.respond(init?.signal ?? undefined)) as typeof fetch
  const api = createApiClient({
    baseUrl: 'http://data-source.test',
    getCredential: () => 'credential',
    fetch: fakeFetch,
    timeoutMs: TIMEOUT_MS,
    cacheTtlMs: 0,
    retryDelayMs: 0,
  })
  const outcome: Outcome = { values: 0, errors: {}, failures: [] }
  for (let i = 0; i < ITERATIONS; i++) {
    answer = i === HUGE_AT ? hugeArray(endpoint, variant) : generate(endpoint, rng)
    const where = `${endpoint.name} #${i} (${answer.label}, seed ${seed})`
    let result: { ok: true; value: unknown } | { ok: false; error: unknown }
    const t0 = performance.now()
    try {
      result = { ok: true, value: await endpoint.call(api) }
    } catch (error) {
      result = { ok: false, error }
    }
    if (process.env.FUZZ_PROFILE) {
      const label = answer.label.replace(/\d+/g, 'N')
      PROFILE.set(label, (PROFILE.get(label) ?? 0) + performance.now() - t0)
    }
    if (result.ok) {
      outcome.values++
      const problems = check.problemsOf(endpoint.check, result.value)
      if (problems.length) outcome.failures.push(`${where}: ${problems.slice(0, 3).join('; ')}`)
      try {
        structuredClone(result.value)
      } catch (error) {
        outcome.failures.push(`${where}: value cannot cross IPC (${(error as Error).message})`)
      }
    } else if (result.error instanceof DataSourceError) {
      const error = result.error
      outcome.errors[error.kind] = (outcome.errors[error.kind] ?? 0) + 1
      if (!DATA_SOURCE_ERROR_KINDS.includes(error.kind))
        outcome.failures.push(`${where}: unknown kind ${error.kind}`)
      if (typeof error.message !== 'string' || !error.message) outcome.failures.push(`${where}: no message`)
      if (error.endpoint === undefined) outcome.failures.push(`${where}: no endpoint`)
      try {
        structuredClone(error.toPayload())
      } catch {
        outcome.failures.push(`${where}: error payload cannot cross IPC`)
      }
    } else {
      const e = result.error as Error | undefined
      outcome.failures.push(
        `${where}: threw ${e?.constructor?.name ?? typeof e}: ${String(e?.message ?? e).slice(0, 200)}`,
      )
    }
  }
  return outcome
}

describe('API client fuzz', () => {
  afterAll(() => {
    if (process.env.FUZZ_PROFILE) console.log([...PROFILE].sort((a, b) => b[1] - a[1]).slice(0, 15))
  })
  it.each(ENDPOINTS.map((e, i) => [e.name, e, SEED + i] as const))(
    '%s: 1,000 hostile answers give a model value or a DataSourceError',
    async (_name, endpoint, seed) => {
      const before = Object.getOwnPropertyNames(Object.prototype).sort()
      const outcome = await fuzzEndpoint(endpoint, seed, seed % 3)
      expect(outcome.failures.slice(0, 5)).toEqual([])
      // The fuzz is only worth something if it reaches both sides: some answers parse, many fail typed.
      expect(outcome.values).toBeGreaterThan(20)
      expect(Object.keys(outcome.errors)).toEqual(
        expect.arrayContaining(['network', 'timeout', 'http', 'invalid-response', 'api']),
      )
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before)
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    },
    60_000,
  )

  it('refuses an answer nested 5,000 levels deep with a typed error, not a value IPC cannot clone', async () => {
    const nested = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000)
    const api = createApiClient({
      baseUrl: 'http://data-source.test',
      getCredential: () => undefined,
      fetch: (async () => new Response(`{"code":0,"data":{"id":1,"meta":${nested}}}`)) as typeof fetch,
    })
    await expect(api.songDetail(1, 1)).rejects.toMatchObject({
      name: 'DataSourceError',
      kind: 'invalid-response',
    })
    // Ordinary nesting still parses.
    const shallow = createApiClient({
      baseUrl: 'http://data-source.test',
      getCredential: () => undefined,
      fetch: (async () =>
        new Response(`{"code":0,"data":{"id":1,"meta":{"a":{"b":[[["x"]]]}}}}`)) as typeof fetch,
    })
    expect((await shallow.songDetail(1, 1)).meta).toEqual({ a: { b: [[['x']]] } })
  })
})
