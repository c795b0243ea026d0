import { describe, expect, it } from 'vitest'
import { DataSourceError } from '@shared/errors'
import type { OfflineState } from '@shared/ipc/contract'
import { createOfflineMonitor } from '@main/core/offline/monitor'
import { silentLogger } from '@main/core/log'
import { manualTimers } from '../support/manual-timers'

/**
 * Issue 33, item 5, in the offline monitor: offline is a fact about the data source (its connection
 * fails), not about one request. An answer that began and did not finish in time is that request's
 * failure; a timeout before any answer is settled by one probe; a refused connection is offline at once.
 */

const refused = () =>
  new DataSourceError({ kind: 'network', endpoint: '/song/detail', message: 'connect ECONNREFUSED' })
/** What the transport throws when the headers came and the body did not finish in time. */
const slowAnswer = () =>
  new DataSourceError({
    kind: 'timeout',
    endpoint: '/song/detail',
    status: 200,
    message: 'The data source did not finish its answer within 10 s',
  })
/** No status: nothing of an answer came before the timeout. */
const noAnswer = () =>
  new DataSourceError({
    kind: 'timeout',
    endpoint: '/song/detail',
    message: 'The data source did not answer within 10 s',
  })

function setup() {
  const timers = manualTimers()
  const changes: OfflineState[] = []
  let probes = 0
  let answer: () => Promise<void> = () => Promise.resolve()
  const monitor = createOfflineMonitor({
    probe: () => {
      probes++
      return answer()
    },
    onChange: (state) => changes.push(state),
    timers,
    now: () => 1234,
    log: silentLogger('offline'),
  })
  return {
    monitor,
    changes,
    probes: () => probes,
    answer: (next: () => Promise<void>) => (answer = next),
    timers,
  }
}
const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('offline monitor against a slow data source', () => {
  it('an answer that began and did not finish in time is the request’s failure: not offline, nothing asked', async () => {
    const t = setup()
    for (let i = 0; i < 5; i++) t.monitor.failed(slowAnswer())
    await settle()
    expect(t.changes).toEqual([])
    expect(t.monitor.isOffline()).toBe(false)
    expect(t.probes()).toBe(0)
    expect(t.timers.delays()).toEqual([])
  })

  it('a timeout before any answer is settled by one probe for every failure meanwhile: the source answers, so online', async () => {
    const t = setup()
    let answered: () => void = () => undefined
    t.answer(() => new Promise<void>((resolve) => (answered = resolve)))
    t.monitor.failed(noAnswer())
    const verdicts = Promise.all([t.monitor.settle(noAnswer()), t.monitor.settle(noAnswer())])
    expect(t.probes()).toBe(1)
    answered()
    expect(await verdicts).toEqual([false, false])
    expect(t.changes).toEqual([])
    expect(t.monitor.isOffline()).toBe(false)
    expect(t.probes()).toBe(1)
  })

  it('a timeout before any answer with a probe that gets none either: offline, said once', async () => {
    const t = setup()
    t.answer(() => Promise.reject(noAnswer()))
    const verdicts = await Promise.all([t.monitor.settle(noAnswer()), t.monitor.settle(noAnswer())])
    expect(verdicts).toEqual([true, true])
    expect(t.probes()).toBe(1)
    expect(t.changes).toEqual([
      { offline: true, since: 1234, reason: 'The data source did not answer within 10 s' },
    ])
  })

  it('a refused connection is offline at once, without a probe', async () => {
    const t = setup()
    expect(await t.monitor.settle(refused())).toBe(true)
    expect(t.probes()).toBe(0)
    expect(t.changes).toEqual([{ offline: true, since: 1234, reason: 'connect ECONNREFUSED' }])
  })

  it('a probe of a source no longer active decides nothing', async () => {
    const t = setup()
    let fail: (error: unknown) => void = () => undefined
    t.answer(() => new Promise<void>((_, reject) => (fail = reject)))
    const verdict = t.monitor.settle(noAnswer())
    t.monitor.reset()
    fail(noAnswer())
    expect(await verdict).toBe(false)
    expect(t.changes).toEqual([])
  })
})
