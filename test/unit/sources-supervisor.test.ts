import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { superviseDataSource } from '@main/core/sources/supervisor'
import type { RunningProcess } from '@main/core/sources/supervisor'
import { realTimers } from '@main/core/ports'
import { silentLogger } from '@main/core/log'

function setup(failStarts = 0) {
  const states: string[] = []
  const exits: Array<(code: number) => void> = []
  const stopped: string[] = []
  let port = 4000
  let failures = failStarts
  const start = vi.fn(async (onExit: (code: number) => void): Promise<RunningProcess> => {
    if (failures-- > 0) throw new Error('port in use')
    const url = `http://127.0.0.1:${++port}`
    exits.push(onExit)
    return { url, stop: async () => void stopped.push(url) }
  })
  const supervisor = superviseDataSource({
    start,
    onState: (url, state) => states.push(`${state} ${url ?? '-'}`),
    timers: realTimers,
    log: silentLogger('s'),
    maxRestarts: 3,
  })
  return { supervisor, states, exits, stopped, start }
}

describe('superviseDataSource', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('starts the data source and reports its URL', async () => {
    const t = setup()
    await t.supervisor.start()
    expect(t.states).toEqual(['starting -', 'ready http://127.0.0.1:4001'])
  })

  it('restarts it when it dies, reporting reconnecting, with a doubling delay', async () => {
    const t = setup()
    await t.supervisor.start()
    t.exits[0](1)
    // The dead process's address is forgotten at once (another process may take its port).
    expect(t.states.at(-1)).toBe('reconnecting -')
    await vi.advanceTimersByTimeAsync(1000)
    expect(t.states.at(-1)).toBe('ready http://127.0.0.1:4002')
    t.exits[1](1)
    await vi.advanceTimersByTimeAsync(1999)
    expect(t.start).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(t.start).toHaveBeenCalledTimes(3)
  })

  it('gives up after the restart limit and reports failed', async () => {
    const t = setup(10)
    await t.supervisor.start()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(t.start).toHaveBeenCalledTimes(4)
    expect(t.states.at(-1)).toBe('failed -')
    expect(vi.getTimerCount()).toBe(0)
  })

  it('stops the process on quit and does not restart it', async () => {
    const t = setup()
    await t.supervisor.start()
    await t.supervisor.stop()
    expect(t.stopped).toEqual(['http://127.0.0.1:4001'])
    t.exits[0](0)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(t.start).toHaveBeenCalledTimes(1)
  })

  it('relaunches on purpose: stops the process, starts a new one, and the old exit is no crash', async () => {
    const t = setup()
    await t.supervisor.start()
    await t.supervisor.relaunch()
    expect(t.stopped).toEqual(['http://127.0.0.1:4001'])
    expect(t.states.slice(-2)).toEqual(['starting -', 'ready http://127.0.0.1:4002'])
    // The first process's exit arrives late: it must not start a third one.
    t.exits[0](0)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(t.start).toHaveBeenCalledTimes(2)
    // The new one is still supervised.
    t.exits[1](1)
    await vi.advanceTimersByTimeAsync(1000)
    expect(t.states.at(-1)).toBe('ready http://127.0.0.1:4003')
  })

  it('relaunches one at a time: quick switches leave exactly one process running', async () => {
    const t = setup()
    await t.supervisor.start()
    await Promise.all([t.supervisor.relaunch(), t.supervisor.relaunch(), t.supervisor.relaunch()])
    expect(t.start).toHaveBeenCalledTimes(4)
    expect(t.stopped).toEqual(['http://127.0.0.1:4001', 'http://127.0.0.1:4002', 'http://127.0.0.1:4003'])
    expect(t.states.at(-1)).toBe('ready http://127.0.0.1:4004')
  })

  it('stops a process whose start was still in flight when a relaunch came', async () => {
    const stopped: string[] = []
    const pending: Array<() => void> = []
    let port = 5000
    const start = vi.fn(async () => {
      const url = `http://127.0.0.1:${++port}`
      // The first start is slow: it finishes only when the test says so.
      if (port === 5001) await new Promise<void>((resolve) => pending.push(resolve))
      return { url, stop: async () => void stopped.push(url) }
    })
    const states: string[] = []
    const supervisor = superviseDataSource({
      start,
      onState: (url, state) => states.push(`${state} ${url ?? '-'}`),
      timers: realTimers,
      log: silentLogger('s'),
    })
    const first = supervisor.start()
    await supervisor.relaunch()
    expect(states.at(-1)).toBe('ready http://127.0.0.1:5002')
    pending[0]()
    await first
    expect(stopped).toEqual(['http://127.0.0.1:5001'])
    expect(states.at(-1)).toBe('ready http://127.0.0.1:5002')
  })
})
