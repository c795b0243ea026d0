import { describe, expect, it } from 'vitest'
import { DataSourceError } from '@shared/errors'
import type { OfflineState } from '@shared/ipc/contract'
import { createOfflineMonitor, PROBE_FIRST_MS } from '@main/core/offline/monitor'
import { silentLogger } from '@main/core/log'
import { manualTimers } from '../support/manual-timers'

const unreachable = () => new DataSourceError({ kind: 'network', message: 'connect ECONNREFUSED' })

function setup() {
  const timers = manualTimers()
  const changes: OfflineState[] = []
  let answer: () => Promise<void> = () => Promise.reject(unreachable())
  let backOnline = 0
  const monitor = createOfflineMonitor({
    probe: () => answer(),
    onChange: (state) => changes.push(state),
    timers,
    now: () => 1234,
    log: silentLogger('offline'),
  })
  monitor.onOnline(() => backOnline++)
  return {
    timers,
    changes,
    monitor,
    answer: (next: () => Promise<void>) => (answer = next),
    backOnline: () => backOnline,
  }
}
const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('offline monitor', () => {
  it('says once that the source cannot be reached, however many calls fail', () => {
    const t = setup()
    t.monitor.failed(unreachable())
    t.monitor.failed(new DataSourceError({ kind: 'timeout', message: 'timed out' }))
    t.monitor.failed(unreachable())
    expect(t.changes).toEqual([{ offline: true, since: 1234, reason: 'connect ECONNREFUSED' }])
    expect(t.monitor.isOffline()).toBe(true)
  })

  it('does not count a refusal as offline (the source answered)', () => {
    const t = setup()
    t.monitor.failed(new DataSourceError({ kind: 'api', message: 'no such song', code: -1 }))
    t.monitor.failed(new DataSourceError({ kind: 'http', status: 404, message: 'not found' }))
    t.monitor.failed(new Error('a bug'))
    expect(t.changes).toEqual([])
    t.monitor.failed(new DataSourceError({ kind: 'http', status: 503, message: 'bad gateway' }))
    expect(t.monitor.isOffline()).toBe(true)
  })

  it('asks the source again, backing off, and comes back online by itself', async () => {
    const t = setup()
    t.monitor.failed(unreachable())
    expect(t.timers.delays()).toEqual([PROBE_FIRST_MS])
    t.timers.fire(PROBE_FIRST_MS)
    await settle()
    expect(t.timers.delays()).toEqual([PROBE_FIRST_MS * 2])
    expect(t.monitor.isOffline()).toBe(true)
    // The source answers again (a refusal is an answer too).
    t.answer(() => Promise.reject(new DataSourceError({ kind: 'unauthorized', message: 'log in' })))
    t.timers.fire(PROBE_FIRST_MS * 2)
    await settle()
    expect(t.monitor.isOffline()).toBe(false)
    expect(t.changes.map((c) => c.offline)).toEqual([true, false])
    expect(t.backOnline()).toBe(1)
    expect(t.timers.delays()).toEqual([])
  })

  it('is back online at the first call that gets an answer, and stops probing', () => {
    const t = setup()
    t.monitor.failed(unreachable())
    t.monitor.answered()
    t.monitor.answered()
    expect(t.changes.map((c) => c.offline)).toEqual([true, false])
    expect(t.timers.delays()).toEqual([])
  })
})
