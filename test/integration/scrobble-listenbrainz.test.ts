import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startFakeListenBrainz } from '../support/fake-listenbrainz'
import type { FakeListenBrainz } from '../support/fake-listenbrainz'
import { manualTimers } from '../support/manual-timers'
import { aListen, call, nowPlaying, scrobbleState, scrobbleWorld } from '../support/scrobble-core'

const TOKEN = '6a6c5a30-8c4e-4d62-9b7b-2f6f3b1c9d10'
const POLL = { timeout: 15_000 }

let fake: FakeListenBrainz
let world: ReturnType<typeof scrobbleWorld>

beforeEach(async () => {
  fake = await startFakeListenBrainz({ tokens: { [TOKEN]: 'rob' } })
  world = scrobbleWorld()
})
afterEach(async () => {
  world.dispose()
  await fake.close()
})

async function connected(core = world.start()) {
  expect(await call(core, 'scrobble:connect-listenbrainz', { token: TOKEN, server: fake.url })).toBe(
    'connected',
  )
  return core
}

/** Payload entries of the accepted submissions, by track name. */
const acceptedTracks = () =>
  fake.accepted.flatMap((b) => b.payload.map((p) => (p.track_metadata as { track_name: string }).track_name))

describe('ListenBrainz scrobbling', () => {
  it('checks the token, keeps it sealed, and sends playing_now at the start and single at the listen rule', async () => {
    const core = world.start()
    expect((await scrobbleState(core)).listenbrainz.status).toBe('off')
    await connected(core)
    const validate = fake.requests.find((r) => r.path === '/1/validate-token')!
    expect(validate.method).toBe('GET')
    expect(validate.headers.authorization).toBe(`Token ${TOKEN}`)
    const state = await scrobbleState(core)
    expect(state.listenbrainz).toMatchObject({
      status: 'connected',
      user: 'rob',
      server: fake.url,
      waiting: 0,
    })
    // Never in the renderer's sight, never in plain text at rest.
    expect(JSON.stringify(state)).not.toContain(TOKEN)
    expect(JSON.stringify(world.store.snapshot())).not.toContain(TOKEN)

    const listen = aListen()
    await call(core, 'scrobble:now-playing', nowPlaying(listen))
    await expect.poll(() => fake.playingNow.length, POLL).toBe(1)
    const playing = fake.requests.find(
      (r) => (r.body as { listen_type?: string })?.listen_type === 'playing_now',
    )!
    expect(playing.headers.authorization).toBe(`Token ${TOKEN}`)
    expect(playing.headers['content-type']).toBe('application/json')
    expect(playing.body).toEqual({
      listen_type: 'playing_now',
      payload: [
        {
          track_metadata: {
            artist_name: 'Miles Davis, Bill Evans',
            track_name: 'Blue in Green',
            release_name: 'Kind of Blue',
            additional_info: {
              media_player: 'Cadence',
              submission_client: 'Cadence',
              submission_client_version: '9.8.7',
              duration_ms: 337_000,
            },
          },
        },
      ],
    })

    expect(await call(core, 'history:record', listen)).toBe(true)
    await expect.poll(() => fake.accepted.length, POLL).toBe(1)
    expect(fake.accepted[0]).toEqual({
      listen_type: 'single',
      payload: [
        {
          listened_at: Math.floor(listen.listenedAt / 1000),
          track_metadata: (playing.body as { payload: Array<{ track_metadata: unknown }> }).payload[0]
            .track_metadata,
        },
      ],
    })
    await expect.poll(async () => (await scrobbleState(core)).listenbrainz.waiting, POLL).toBe(0)
  })

  it('refuses a token the server does not know, and keeps nothing', async () => {
    const core = world.start()
    expect(await call(core, 'scrobble:connect-listenbrainz', { token: 'nope', server: fake.url })).toBe(
      'invalid',
    )
    expect((await scrobbleState(core)).listenbrainz.status).toBe('off')
    expect(JSON.stringify(world.store.snapshot())).not.toContain('nope')
  })

  it('keeps listens made while the service is down and sends them once, as one import, when it is back', async () => {
    const core = await connected()
    fake.setDown(true)
    const [a, b] = [aListen({ title: 'One' }), aListen({ title: 'Two' })]
    await call(core, 'history:record', a)
    await call(core, 'history:record', b)
    await expect
      .poll(async () => (await scrobbleState(core)).listenbrainz, POLL)
      .toMatchObject({ waiting: 2, problem: 'unreachable' })
    fake.setDown(false)
    await expect.poll(() => acceptedTracks(), POLL).toEqual(['One', 'Two'])
    expect(fake.accepted.map((s) => s.listen_type)).toEqual(['import'])
    await expect.poll(async () => (await scrobbleState(core)).listenbrainz.waiting, POLL).toBe(0)
    expect((await scrobbleState(core)).listenbrainz.problem).toBeUndefined()
    // A later listen goes alone: nothing of the backlog is sent again.
    await call(core, 'history:record', aListen({ title: 'Three' }))
    await expect.poll(() => acceptedTracks(), POLL).toEqual(['One', 'Two', 'Three'])
    expect(fake.accepted.at(-1)!.listen_type).toBe('single')
  })

  it('stops sending on a 401, keeps the queue, says the token is no longer valid, and sends it after a new token', async () => {
    const core = await connected()
    fake.revoke(TOKEN)
    await call(core, 'history:record', aListen({ title: 'Kept' }))
    await expect
      .poll(async () => (await scrobbleState(core)).listenbrainz, POLL)
      .toMatchObject({ status: 'invalid', waiting: 1, user: 'rob' })
    const sent = fake.requests.length
    await call(core, 'history:record', aListen({ title: 'Kept too' }))
    await call(core, 'scrobble:now-playing', nowPlaying(aListen()))
    expect((await scrobbleState(core)).listenbrainz.waiting).toBe(2)
    expect(fake.requests.length).toBe(sent)

    fake.addToken('new-token', 'rob')
    expect(await call(core, 'scrobble:connect-listenbrainz', { token: 'new-token' })).toBe('connected')
    await expect.poll(() => acceptedTracks(), POLL).toEqual(['Kept', 'Kept too'])
    expect(fake.accepted[0].listen_type).toBe('import')
  })

  it('waits out a 429 for the X-RateLimit-Reset-In it names, then sends', async () => {
    const timers = manualTimers()
    const core = await connected(world.start({ timers }))
    fake.rateLimit(1, 7)
    await call(core, 'history:record', aListen({ title: 'Later' }))
    await expect.poll(async () => (await scrobbleState(core)).listenbrainz.problem, POLL).toBe('rate-limited')
    expect(timers.delays()).toContain(7000)
    expect(fake.accepted).toEqual([])
    timers.fire(7000)
    await expect.poll(() => acceptedTracks(), POLL).toEqual(['Later'])
    await expect.poll(async () => (await scrobbleState(core)).listenbrainz.problem, POLL).toBeUndefined()
  })

  it('waits X-RateLimit-Reset-In after an answer with X-RateLimit-Remaining: 0 before the next request', async () => {
    const timers = manualTimers()
    const core = await connected(world.start({ timers }))
    fake.lastAllowedFor(9)
    await call(core, 'history:record', aListen({ title: 'Last allowed' }))
    await expect.poll(() => acceptedTracks(), POLL).toEqual(['Last allowed'])
    await expect.poll(() => timers.delays(), POLL).toContain(9000)
    const sent = fake.requests.length
    await call(core, 'history:record', aListen({ title: 'Waits' }))
    expect((await scrobbleState(core)).listenbrainz.waiting).toBe(1)
    expect(fake.requests.length).toBe(sent)
    timers.fire(9000)
    await expect.poll(() => acceptedTracks(), POLL).toEqual(['Last allowed', 'Waits'])
  })

  it('after a crash between send and acknowledgement, sends the listen again with the same listened_at; the server keeps one', async () => {
    const first = await connected()
    fake.holdNextAnswer()
    const listen = aListen({ title: 'Interrupted' })
    await call(first, 'history:record', listen)
    await expect.poll(() => fake.heldCount(), POLL).toBe(1)
    first.dispose()
    fake.release()

    const second = world.start()
    await expect.poll(() => acceptedTracks().filter((t) => t === 'Interrupted').length, POLL).toBe(2)
    const [one, two] = fake.accepted.filter((b) => b.payload.length === 1)
    expect(two.payload).toEqual(one.payload)
    expect(fake.listens.filter((l) => l.track_metadata.track_name === 'Interrupted')).toHaveLength(1)
    await expect.poll(async () => (await scrobbleState(second)).listenbrainz.waiting, POLL).toBe(0)

    // Acknowledged now: a third start sends nothing of it.
    second.dispose()
    const third = world.start()
    await call(third, 'history:record', aListen({ title: 'After' }))
    await expect.poll(() => acceptedTracks(), POLL).toEqual(['Interrupted', 'Interrupted', 'After'])
  })

  it('sends nothing in a private session, and never the free-app placeholder', async () => {
    const core = await connected()
    await call(core, 'history:set-private', { on: true })
    const secret = aListen({ title: 'Private' })
    await call(core, 'scrobble:now-playing', nowPlaying(secret))
    expect(await call(core, 'history:record', secret)).toBe(false)
    expect((await scrobbleState(core)).listenbrainz.waiting).toBe(0)
    await call(core, 'history:set-private', { on: false })
    const placeholder = aListen({ title: 'Placeholder', songId: 'free-app' })
    await call(core, 'scrobble:now-playing', nowPlaying(placeholder))
    expect(await call(core, 'history:record', placeholder)).toBe(false)

    await call(core, 'history:record', aListen({ title: 'Public' }))
    await expect.poll(() => acceptedTracks(), POLL).toEqual(['Public'])
    expect(fake.playingNow).toEqual([])
    expect(JSON.stringify(fake.requests)).not.toMatch(/Private|Placeholder|free-app/)
  })

  it('takes a huge or garbage answer as a failure, keeps the listen, and sends it later', async () => {
    const core = await connected()
    fake.setGarbage('huge')
    await call(core, 'history:record', aListen({ title: 'Survives' }))
    await expect
      .poll(async () => (await scrobbleState(core)).listenbrainz, POLL)
      .toMatchObject({ waiting: 1, problem: 'unreachable' })
    fake.setGarbage('html')
    const tries = fake.requests.length
    await expect.poll(() => fake.requests.length, POLL).toBeGreaterThan(tries)
    expect((await scrobbleState(core)).listenbrainz.waiting).toBe(1)
    fake.setGarbage(undefined)
    await expect.poll(async () => (await scrobbleState(core)).listenbrainz.waiting, POLL).toBe(0)
    expect(fake.listens.map((l) => l.track_metadata.track_name)).toEqual(['Survives'])
  })

  it('turns off on Disconnect: the token is forgotten and nothing more is sent', async () => {
    const core = await connected()
    const state = await call<{ listenbrainz: { status: string } }>(core, 'scrobble:disconnect', {
      service: 'listenbrainz',
    })
    expect(state.listenbrainz.status).toBe('off')
    expect(JSON.stringify(world.store.snapshot())).not.toContain('connection:listenbrainz')
    const sent = fake.requests.length
    await call(core, 'history:record', aListen())
    await call(core, 'scrobble:now-playing', nowPlaying(aListen()))
    expect(fake.requests.length).toBe(sent)
  })
})
