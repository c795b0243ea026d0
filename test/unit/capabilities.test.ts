import { describe, expect, it } from 'vitest'
import { CadenceError, DataSourceError } from '@shared/errors'
import type { EventMap } from '@shared/ipc/contract'
import { createCapabilities, isAbsentAnswer } from '@main/core/capabilities'
import { createEventHub } from '@main/core/events'
import { silentLogger } from '@main/core/log'
import { createMemoryStore } from '@main/core/ports'

const http404 = () =>
  new DataSourceError({ kind: 'http', status: 404, endpoint: '/album/detail', message: 'HTTP 404' })
const code404 = () =>
  new DataSourceError({
    kind: 'api',
    status: 200,
    code: 404,
    endpoint: '/album/detail',
    message: 'Not found',
  })
const generic = () =>
  new DataSourceError({
    kind: 'api',
    status: 200,
    code: -1,
    endpoint: '/album/detail',
    message: '服务器内部错误',
  })

function memory(url = 'http://a:1') {
  const store = createMemoryStore()
  const events = createEventHub()
  const seen: Array<EventMap['capabilities:changed']> = []
  events.subscribe((event, payload) => {
    if (event === 'capabilities:changed') seen.push(payload as EventMap['capabilities:changed'])
  })
  let address = url
  const caps = createCapabilities({
    store,
    events,
    log: silentLogger('capabilities'),
    sourceUrl: () => address,
    activeSourceId: () => 's1',
  })
  return { caps, store, seen, move: (next: string) => (address = next) }
}

describe('capabilities', () => {
  it('treats HTTP 404, an envelope code 404 and 405 as absent, and nothing else', () => {
    expect(isAbsentAnswer(http404())).toBe(true)
    expect(isAbsentAnswer(code404())).toBe(true)
    expect(isAbsentAnswer(new DataSourceError({ kind: 'http', status: 405, message: 'x' }))).toBe(true)
    expect(isAbsentAnswer(generic())).toBe(false)
    expect(isAbsentAnswer(new DataSourceError({ kind: 'network', message: 'x' }))).toBe(false)
    expect(isAbsentAnswer(new Error('404'))).toBe(false)
  })

  it('remembers an endpoint answering 404 as absent: refused at once after, with plain words', async () => {
    const { caps, store, seen } = memory()
    let asked = 0
    const run = async () => {
      asked++
      throw code404()
    }
    await expect(caps.use('s1', 'album-detail', run)).rejects.toMatchObject({
      kind: 'unavailable',
      message: 'This data source has no album pages',
    })
    await expect(caps.use('s1', 'album-detail', run)).rejects.toBeInstanceOf(CadenceError)
    expect(asked).toBe(1)
    expect(caps.get()['album-detail']).toBe('absent')
    expect(seen.at(-1)?.capabilities['album-detail']).toBe('absent')
    expect(store.get('capabilities:s1')).toEqual({ url: 'http://a:1', absent: ['album-detail'] })
  })

  it('counts any other answer, a failure included, as present, and passes the failure on', async () => {
    const { caps } = memory()
    const refusal = generic()
    await expect(caps.use('s1', 'playlist-songs', () => Promise.reject(refusal))).rejects.toBe(refusal)
    expect(caps.get()['playlist-songs']).toBe('present')
    expect(await caps.use('s1', 'album-like', async () => 7)).toBe(7)
    expect(caps.get()['album-like']).toBe('present')
    await caps
      .use('s1', 'song-like-state', () =>
        Promise.reject(new DataSourceError({ kind: 'network', message: 'x' })),
      )
      .catch(() => undefined)
    expect(caps.get()['song-like-state']).toBe('unknown')
  })

  it('forgets what it learnt when the source moves to another address', async () => {
    const { caps, move } = memory()
    await caps.use('s1', 'album-detail', () => Promise.reject(http404())).catch(() => undefined)
    expect(caps.has('s1', 'album-detail')).toBe(false)
    move('http://b:2')
    expect(caps.has('s1', 'album-detail')).toBe(true)
    expect(caps.get()['album-detail']).toBe('unknown')
  })
})
