import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startQrFlow } from '@main/core/auth/qr-flow'
import type { QrApi, QrFlowDeps } from '@main/core/auth/qr-flow'
import { realTimers } from '@main/core/ports'
import { silentLogger } from '@main/core/log'
import { DataSourceError } from '@shared/errors'
import type { QrEvent } from '@shared/ipc/contract'
import type { User } from '@shared/api/models'

const INTERVAL = 3000
const IMG = 'data:image/png;base64,AAAA'

type Check = { status: number; cookie?: string } | Error
interface FakeApi {
  qrKey: ReturnType<typeof vi.fn<QrApi['qrKey']>>
  qrCreate: ReturnType<typeof vi.fn<QrApi['qrCreate']>>
  qrCheck: ReturnType<typeof vi.fn<QrApi['qrCheck']>>
}
/** A fake data source: keys k1, k2…; qrCheck answers from a script, then keeps answering waiting. */
function setup(
  options: {
    checks?: Check[]
    qrimg?: string
    deps?: Partial<QrFlowDeps>
    before?: (api: FakeApi) => void
  } = {},
) {
  const checks = [...(options.checks ?? [])]
  let keys = 0
  const signals: AbortSignal[] = []
  const api = {
    qrKey: vi.fn(async () => ({ unikey: `k${++keys}` })),
    qrCreate: vi.fn(async (key: string) => ({
      qrurl: `http://source/phone/${key}`,
      qrimg: options.qrimg === undefined ? IMG : options.qrimg,
    })),
    qrCheck: vi.fn(async (_key: string, o: { signal?: AbortSignal } = {}) => {
      if (o.signal) signals.push(o.signal)
      const next = checks.shift() ?? { status: 0 }
      if (next instanceof Error) throw next
      return { status: next.status, cookie: next.cookie }
    }),
  }
  options.before?.(api)
  const events: QrEvent[] = []
  const authorise = vi.fn(async (credential: string): Promise<User> => ({
    id: 1,
    name: `user of ${credential}`,
    avatar: undefined,
    description: undefined,
  }))
  const renderQr = vi.fn(async (text: string) => `data:image/png;base64,LOCAL:${text}`)
  const flow = startQrFlow({
    api: api as unknown as QrApi,
    timers: realTimers,
    intervalMs: () => INTERVAL,
    renderQr,
    emit: (e) => events.push(e),
    authorise,
    log: silentLogger('qr'),
    ...options.deps,
  })
  return { flow, api, events, authorise, renderQr, signals, phases: () => events.map((e) => e.phase) }
}

const network = () => new DataSourceError({ kind: 'network', endpoint: '/connect/qr/check', message: 'down' })

describe('startQrFlow', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('shows the code, polls every interval and signs in at status 2', async () => {
    const t = setup({ checks: [{ status: 0 }, { status: 1 }, { status: 1 }, { status: 2, cookie: 'CRED' }] })
    await vi.advanceTimersByTimeAsync(0)
    expect(t.phases()).toEqual(['loading', 'waiting'])
    expect(t.events[1]).toMatchObject({ qrimg: IMG, qrurl: 'http://source/phone/k1', refreshes: 0 })
    expect(t.api.qrCheck).not.toHaveBeenCalled()

    await vi.advanceTimersByTimeAsync(INTERVAL)
    expect(t.api.qrCheck).toHaveBeenCalledTimes(1)
    expect(t.api.qrCheck).toHaveBeenCalledWith('k1', expect.anything())
    await vi.advanceTimersByTimeAsync(INTERVAL)
    expect(t.phases().at(-1)).toBe('scanned')
    await vi.advanceTimersByTimeAsync(INTERVAL * 2)
    expect(t.authorise).toHaveBeenCalledWith('CRED')
    expect(t.phases()).toEqual(['loading', 'waiting', 'scanned', 'authorised'])
    expect(t.events.at(-1)?.user).toEqual({ id: 1, name: 'user of CRED' })
    expect(await t.flow.done).toBe('authorised')
    expect(vi.getTimerCount()).toBe(0)
  })

  it('renders qrurl locally when the server sends no image', async () => {
    const t = setup({ qrimg: '' })
    await vi.advanceTimersByTimeAsync(0)
    expect(t.renderQr).toHaveBeenCalledWith('http://source/phone/k1')
    expect(t.events[1].qrimg).toBe('data:image/png;base64,LOCAL:http://source/phone/k1')
    t.flow.cancel()
  })

  it('ignores a cookie sent before status 2', async () => {
    const t = setup({
      checks: [
        { status: 0, cookie: 'EARLY' },
        { status: 1, cookie: 'EARLY' },
        { status: 2, cookie: 'REAL' },
      ],
    })
    await vi.advanceTimersByTimeAsync(INTERVAL * 2)
    expect(t.authorise).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(INTERVAL)
    expect(t.authorise).toHaveBeenCalledTimes(1)
    expect(t.authorise).toHaveBeenCalledWith('REAL')
  })

  it('gets a new key and code by itself when the code expires', async () => {
    const t = setup({ checks: [{ status: -1 }, { status: 0 }] })
    await vi.advanceTimersByTimeAsync(INTERVAL)
    expect(t.api.qrKey).toHaveBeenCalledTimes(2)
    const waiting = t.events.filter((e) => e.phase === 'waiting')
    expect(waiting.map((e) => [e.qrurl, e.refreshes])).toEqual([
      ['http://source/phone/k1', 0],
      ['http://source/phone/k2', 1],
    ])
    await vi.advanceTimersByTimeAsync(INTERVAL)
    expect(t.api.qrCheck).toHaveBeenLastCalledWith('k2', expect.anything())
    t.flow.cancel()
  })

  it('gives up after three refreshes with phase expired and no timer left', async () => {
    const t = setup({ checks: [{ status: -1 }, { status: -1 }, { status: -1 }, { status: -1 }] })
    await vi.advanceTimersByTimeAsync(INTERVAL * 10)
    expect(t.api.qrKey).toHaveBeenCalledTimes(4)
    expect(t.phases().at(-1)).toBe('expired')
    expect(t.events.at(-1)?.refreshes).toBe(3)
    expect(await t.flow.done).toBe('expired')
    expect(vi.getTimerCount()).toBe(0)
    const checks = t.api.qrCheck.mock.calls.length
    await vi.advanceTimersByTimeAsync(60_000)
    expect(t.api.qrCheck.mock.calls.length).toBe(checks)
  })

  it('stops at once when cancelled: no timer, the request in flight aborted', async () => {
    let release!: () => void
    const t = setup()
    t.api.qrCheck.mockImplementationOnce(async (_key, o = {}) => {
      t.signals.push(o.signal!)
      await new Promise<void>((resolve) => (release = resolve))
      return { status: 2, cookie: 'LATE' }
    })
    await vi.advanceTimersByTimeAsync(INTERVAL)
    expect(t.api.qrCheck).toHaveBeenCalledTimes(1)
    t.flow.cancel()
    expect(t.signals[0].aborted).toBe(true)
    expect(t.phases().at(-1)).toBe('cancelled')
    release()
    await vi.advanceTimersByTimeAsync(INTERVAL * 5)
    expect(t.authorise).not.toHaveBeenCalled()
    expect(t.phases().at(-1)).toBe('cancelled')
    expect(vi.getTimerCount()).toBe(0)
    expect(await t.flow.done).toBe('cancelled')
  })

  it('cancels while waiting for the next poll without any further request', async () => {
    const t = setup()
    await vi.advanceTimersByTimeAsync(0)
    expect(vi.getTimerCount()).toBe(1)
    t.flow.cancel()
    t.flow.cancel()
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(t.api.qrCheck).not.toHaveBeenCalled()
    expect(t.phases().filter((p) => p === 'cancelled')).toHaveLength(1)
  })

  it('backs off on network errors (doubling up to 30 s), reports them and keeps trying', async () => {
    const t = setup({ checks: [network(), network(), network(), network(), network(), { status: 1 }] })
    await vi.advanceTimersByTimeAsync(INTERVAL) // first check fails
    expect(t.phases().at(-1)).toBe('error')
    expect(t.events.at(-1)?.error).toMatchObject({ kind: 'network', message: 'down' })
    const times: number[] = []
    const start = Date.now()
    t.api.qrCheck.mock.calls.length = 0
    for (let i = 0; i < 5; i++) {
      const before = t.api.qrCheck.mock.calls.length
      while (t.api.qrCheck.mock.calls.length === before) await vi.advanceTimersByTimeAsync(500)
      times.push(Date.now() - start)
    }
    const gaps = times.map((time, i) => time - (i ? times[i - 1] : 0))
    expect(gaps).toEqual([6000, 12000, 24000, 30000, 30000])
    expect(t.phases().at(-1)).toBe('scanned')
    // Back to the normal interval after a success.
    const before = t.api.qrCheck.mock.calls.length
    await vi.advanceTimersByTimeAsync(INTERVAL)
    expect(t.api.qrCheck.mock.calls.length).toBe(before + 1)
    t.flow.cancel()
  })

  it('retries getting a key when the data source is unreachable at first', async () => {
    const t = setup({
      before: (api) =>
        api.qrKey.mockRejectedValueOnce(new DataSourceError({ kind: 'timeout', message: 'slow' })),
    })
    await vi.advanceTimersByTimeAsync(0)
    expect(t.phases()).toEqual(['loading', 'error'])
    await vi.advanceTimersByTimeAsync(INTERVAL * 2)
    expect(t.phases().at(-1)).toBe('waiting')
    t.flow.cancel()
  })

  it('stops at once, without asking again, when the data source sends an unusable answer', async () => {
    const tooLarge = new DataSourceError({
      kind: 'invalid-response',
      endpoint: '/connect/qr/check',
      message: 'The answer is too large (more than 16 MB sent; at most 16 MB is read)',
    })
    const t = setup({ checks: [tooLarge] })
    await vi.advanceTimersByTimeAsync(INTERVAL)
    expect(await t.flow.done).toBe('error')
    expect(t.events.at(-1)).toMatchObject({ phase: 'error', error: { kind: 'invalid-response' } })
    await vi.advanceTimersByTimeAsync(120_000)
    expect(t.api.qrCheck).toHaveBeenCalledTimes(1)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('ends with an error when the credential is refused at /connect/status', async () => {
    const t = setup({ checks: [{ status: 2, cookie: 'BAD' }] })
    t.authorise.mockRejectedValueOnce(
      new DataSourceError({ kind: 'unauthorized', endpoint: '/connect/status', message: 'log in first' }),
    )
    await vi.advanceTimersByTimeAsync(INTERVAL)
    expect(await t.flow.done).toBe('error')
    expect(t.events.at(-1)).toMatchObject({ phase: 'error', error: { kind: 'unauthorized' } })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('understands servers that use 800–803 for the same states', async () => {
    const t = setup({ checks: [{ status: 801 }, { status: 802 }, { status: 803, cookie: 'C' }] })
    await vi.advanceTimersByTimeAsync(INTERVAL * 3)
    expect(t.phases()).toEqual(['loading', 'waiting', 'scanned', 'authorised'])
  })

  it('reads the polling interval from the settings at every poll', async () => {
    let interval = 3000
    const t = setup({ deps: { intervalMs: () => interval } })
    await vi.advanceTimersByTimeAsync(1000)
    interval = 5000
    await vi.advanceTimersByTimeAsync(2000) // t = 3 s: the poll scheduled with 3 s
    expect(t.api.qrCheck).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(4000) // t = 7 s
    expect(t.api.qrCheck).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1000) // t = 8 s: 5 s after the last poll
    expect(t.api.qrCheck).toHaveBeenCalledTimes(2)
    t.flow.cancel()
  })
})
