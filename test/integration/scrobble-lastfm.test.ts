import { createHash } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Core } from '@main/core'
import { startFakeLastfm } from '../support/fake-lastfm'
import type { FakeLastfm } from '../support/fake-lastfm'
import { manualTimers } from '../support/manual-timers'
import { aListen, call, nowPlaying, scrobbleState, scrobbleWorld } from '../support/scrobble-core'

const KEY = 'b25b959554ed76058ac220b7b2e0a026'
const SECRET = '425b55975eed76058ac220b7b2e0a026'
const POLL = { timeout: 15_000 }

let fake: FakeLastfm
let world: ReturnType<typeof scrobbleWorld>
let opened: string[]

/** Last.fm's documented `api_sig`, computed here from the documentation alone. */
function expectedSignature(params: Record<string, string>) {
  const names = Object.keys(params)
    .filter((n) => !['format', 'callback', 'api_sig'].includes(n))
    .sort()
  const text = names.map((n) => `${n}${params[n]}`).join('') + SECRET
  return createHash('md5').update(text, 'utf8').digest('hex')
}

beforeEach(async () => {
  fake = await startFakeLastfm({ apiKey: KEY, secret: SECRET, user: 'rj' })
  opened = []
  world = scrobbleWorld({
    lastfm: { apiKey: KEY, secret: SECRET, root: fake.root, authPage: fake.authPage },
    openExternal: (url) => void opened.push(url),
  })
})
afterEach(async () => {
  world.dispose()
  await fake.close()
})

/** The desktop sign-in, the person allowing Cadence in the browser in between. */
async function signedIn(core: Core = world.start()) {
  expect(await call(core, 'scrobble:lastfm-begin')).toBe('opened')
  // The browser opens the page, the person clicks "Allow".
  expect((await fetch(opened.at(-1)!)).status).toBe(200)
  expect(await call(core, 'scrobble:lastfm-finish')).toBe('connected')
  return core
}

const scrobbleCalls = () => fake.calls.filter((c) => c.method === 'track.scrobble')

describe('Last.fm scrobbling', () => {
  it('says it is not available in a build without an API key', async () => {
    const core = world.start({ lastfm: undefined })
    expect((await scrobbleState(core)).lastfm.status).toBe('unavailable')
    expect(await call(core, 'scrobble:lastfm-begin')).toBe('unavailable')
    expect(fake.calls).toEqual([])
  })

  it('signs in the desktop way: auth.getToken, the auth page in the browser, auth.getSession; every call signed as documented', async () => {
    const core = world.start()
    expect((await scrobbleState(core)).lastfm.status).toBe('off')
    expect(await call(core, 'scrobble:lastfm-begin')).toBe('opened')
    expect((await scrobbleState(core)).lastfm.status).toBe('authorising')
    const token = fake.calls[0]
    expect(token).toMatchObject({ method: 'auth.getToken', api_key: KEY, format: 'json' })
    const page = new URL(opened[0])
    expect(`${page.origin}${page.pathname}`).toBe(fake.authPage)
    expect(page.searchParams.get('api_key')).toBe(KEY)
    expect(page.searchParams.get('token')).toMatch(/^[0-9a-f]{32}$/)

    // Not allowed yet in the browser.
    expect(await call(core, 'scrobble:lastfm-finish')).toBe('not-yet')
    expect((await fetch(opened[0])).status).toBe(200)
    expect(await call(core, 'scrobble:lastfm-finish')).toBe('connected')
    const state = await scrobbleState(core)
    expect(state.lastfm).toMatchObject({ status: 'connected', user: 'rj' })

    const session = fake.calls.filter((c) => c.method === 'auth.getSession')
    expect(session.map((c) => c.token)).toEqual([
      page.searchParams.get('token'),
      page.searchParams.get('token'),
    ])
    for (const c of fake.calls) expect(c.api_sig).toBe(expectedSignature(c))
    // The session key is sealed: never in the state, never in plain text in the store.
    const [key] = fake.sessionKeys()
    expect(key).toMatch(/^[0-9a-f]{32}$/)
    expect(JSON.stringify(state)).not.toContain(key)
    expect(JSON.stringify(world.store.snapshot())).not.toContain(key)
  })

  it('sends track.updateNowPlaying at the start and track.scrobble with the UTC start time, chosenByUser=0 for autoplay', async () => {
    const core = await signedIn()
    const chosen = aListen({ title: 'Chosen' })
    const added = aListen({ title: 'By autoplay', autoplay: true })
    await call(core, 'scrobble:now-playing', nowPlaying(chosen))
    await expect.poll(() => fake.nowPlaying.length, POLL).toBe(1)
    const np = fake.calls.find((c) => c.method === 'track.updateNowPlaying')!
    const { api_sig: sig, sk, ...rest } = np
    expect(rest).toEqual({
      method: 'track.updateNowPlaying',
      api_key: KEY,
      artist: 'Miles Davis, Bill Evans',
      track: 'Chosen',
      album: 'Kind of Blue',
      duration: '337',
      format: 'json',
    })
    expect(sk).toMatch(/^[0-9a-f]{32}$/)
    expect(sig).toBe(expectedSignature(np))

    await call(core, 'history:record', chosen)
    await expect.poll(() => fake.scrobbles.length, POLL).toBe(1)
    await call(core, 'history:record', added)
    await expect.poll(() => fake.scrobbles.length, POLL).toBe(2)
    const [first, second] = scrobbleCalls()
    expect(first).toMatchObject({
      'artist[0]': 'Miles Davis, Bill Evans',
      'track[0]': 'Chosen',
      'timestamp[0]': String(Math.floor(chosen.listenedAt / 1000)),
      'album[0]': 'Kind of Blue',
      'duration[0]': '337',
    })
    expect(first['chosenByUser[0]']).toBeUndefined()
    expect(second).toMatchObject({ 'track[0]': 'By autoplay', 'chosenByUser[0]': '0' })
    for (const c of scrobbleCalls()) expect(c.api_sig).toBe(expectedSignature(c))
  })

  it('sends a backlog in batches of at most 50, each listen once', async () => {
    const core = await signedIn()
    fake.setDown(true)
    const listens = Array.from({ length: 120 }, (_, i) => aListen({ title: `Song ${i}` }))
    for (const l of listens) await call(core, 'history:record', l)
    await expect
      .poll(async () => (await scrobbleState(core)).lastfm, POLL)
      .toMatchObject({ waiting: 120, problem: 'unreachable' })
    fake.setDown(false)
    await expect.poll(() => fake.scrobbles.length, POLL).toBe(120)
    expect(
      scrobbleCalls().map((c) => Object.keys(c).filter((k) => k.startsWith('timestamp[')).length),
    ).toEqual([50, 50, 20])
    expect(fake.scrobbles.map((s) => s.track)).toEqual(listens.map((l) => l.title))
    await expect.poll(async () => (await scrobbleState(core)).lastfm.waiting, POLL).toBe(0)
  })

  it('signs out of Last.fm on error 9 with the listens kept, and retries 11/16 and 29 after a wait', async () => {
    const timers = manualTimers()
    const core = await signedIn(world.start({ timers }))
    fake.failNext(16, 1, 'track.scrobble')
    await call(core, 'history:record', aListen({ title: 'Temporary' }))
    await expect.poll(async () => (await scrobbleState(core)).lastfm.problem, POLL).toBe('unreachable')
    expect(timers.delays()).toContain(200)
    timers.fire(200)
    await expect.poll(() => fake.scrobbles.map((s) => s.track), POLL).toEqual(['Temporary'])

    fake.failNext(29, 1, 'track.scrobble')
    await call(core, 'history:record', aListen({ title: 'Rate limited' }))
    await expect.poll(async () => (await scrobbleState(core)).lastfm.problem, POLL).toBe('rate-limited')
    expect(timers.delays()).toContain(60_000)
    timers.fire(60_000)
    await expect.poll(() => fake.scrobbles.map((s) => s.track), POLL).toEqual(['Temporary', 'Rate limited'])

    // No retry for "now playing".
    fake.failNext(11, 1, 'track.updateNowPlaying')
    await call(core, 'scrobble:now-playing', nowPlaying(aListen()))
    await expect
      .poll(() => fake.calls.filter((c) => c.method === 'track.updateNowPlaying').length, POLL)
      .toBe(1)
    expect(timers.delays().filter((d) => d === 200)).toEqual([])

    fake.revokeSessions()
    await call(core, 'history:record', aListen({ title: 'Kept' }))
    await expect
      .poll(async () => (await scrobbleState(core)).lastfm, POLL)
      .toMatchObject({ status: 'invalid', waiting: 1 })
    // Signed in again: what waited goes.
    await signedIn(core)
    await expect
      .poll(() => fake.scrobbles.map((s) => s.track), POLL)
      .toEqual(['Temporary', 'Rate limited', 'Kept'])
  })

  it('sends nothing in a private session, and never the free-app placeholder', async () => {
    const core = await signedIn()
    await call(core, 'history:set-private', { on: true })
    await call(core, 'scrobble:now-playing', nowPlaying(aListen({ title: 'Private' })))
    await call(core, 'history:record', aListen({ title: 'Private' }))
    await call(core, 'history:set-private', { on: false })
    const placeholder = aListen({ songId: 'free-app', title: 'Placeholder' })
    await call(core, 'scrobble:now-playing', nowPlaying(placeholder))
    await call(core, 'history:record', placeholder)
    await call(core, 'history:record', aListen({ title: 'Public' }))
    await expect.poll(() => fake.scrobbles.map((s) => s.track), POLL).toEqual(['Public'])
    expect(fake.nowPlaying).toEqual([])
  })
})
