import { afterAll, describe, expect, it } from 'vitest'
import { INVOKE_CHANNELS } from '@shared/ipc/contract'
import { invokeChannels } from '@shared/ipc/schemas'
import type { InvokeChannel, IpcResult } from '@shared/ipc/contract'
import { DATA_SOURCE_ERROR_KINDS, IPC_ERROR_KINDS } from '@shared/errors'
import { createRng, fuzzSeed } from '../fuzz/prng'
import { hostileArgs, UNTRUSTED_SENDERS, unknownChannel } from '../fuzz/ipc-args'
import { buildFuzzCore, TRUSTED } from '../fuzz/core'

/**
 * Issue #7: 1,000 malformed calls per IPC channel through the real core's router. Every call answers with
 * an IpcResult: a typed `invalid-argument` / `forbidden` / `unknown-channel` error, or, when the arguments
 * happen to satisfy the channel's schema (e.g. `undefined` for a channel without arguments), whatever that
 * valid call answers — never a throw, never a hang, never a polluted prototype. The core still works after.
 *
 * Reproduce with FUZZ_SEED=<seed> npx vitest run test/unit/fuzz-ipc.
 */

const CALLS = 1000
const SEED = fuzzSeed(0x1bc)
const KNOWN_KINDS = new Set<string>([...IPC_ERROR_KINDS, ...DATA_SOURCE_ERROR_KINDS])

const { core } = buildFuzzCore()
afterAll(() => core.dispose())

const snapshot = () => ({
  object: Object.getOwnPropertyNames(Object.prototype).sort(),
  array: Object.getOwnPropertyNames(Array.prototype).sort(),
  func: Object.getOwnPropertyNames(Function.prototype).sort(),
})
const pristine = snapshot()

function expectUnpolluted() {
  expect(snapshot()).toEqual(pristine)
  const probe = {} as Record<string, unknown>
  expect(probe.polluted).toBeUndefined()
  expect(probe.isAdmin).toBeUndefined()
  expect(probe.limit).toBeUndefined()
}

/** Calls the router and checks the answer's shape; returns a problem or undefined. */
async function call(
  channel: string,
  args: unknown,
  context: unknown,
): Promise<{ result?: IpcResult; problem?: string }> {
  let result: IpcResult
  try {
    const answer = core.router.invoke(channel, args, context as { senderUrl: string })
    result = await Promise.race([
      answer,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 5 s')), 5000)),
    ])
  } catch (error) {
    return {
      problem: `threw ${(error as Error)?.constructor?.name}: ${String((error as Error)?.message ?? error)}`,
    }
  }
  if (typeof result !== 'object' || result === null || typeof result.ok !== 'boolean') {
    return { problem: `answered ${String(result)}` }
  }
  try {
    structuredClone(result)
  } catch (error) {
    return { result, problem: `answer cannot cross IPC: ${(error as Error).message}` }
  }
  if (!result.ok) {
    const { error } = result
    if (!KNOWN_KINDS.has(error?.kind)) return { result, problem: `untyped error ${JSON.stringify(error)}` }
    if (typeof error.message !== 'string') return { result, problem: 'error without message' }
  }
  return { result }
}

function accepts(channel: InvokeChannel, args: unknown): boolean {
  try {
    return invokeChannels[channel].args.safeParse(args).success
  } catch {
    return false
  }
}

describe('IPC fuzz', () => {
  it.each(INVOKE_CHANNELS.map((c, i) => [c, SEED + i] as const))(
    '%s: 1,000 malformed calls answer with typed errors',
    async (channel, seed) => {
      const rng = createRng(seed)
      const failures: string[] = []
      const kinds: Record<string, number> = {}
      for (let i = 0; i < CALLS; i++) {
        const untrusted = rng.chance(0.1)
        const { label, args } = hostileArgs(rng, channel)
        const context = untrusted
          ? rng.pick([{ senderUrl: rng.pick(UNTRUSTED_SENDERS) }, undefined, null, {}])
          : TRUSTED
        const where = `${channel} #${i} (${untrusted ? 'untrusted sender, ' : ''}${label}, seed ${seed})`
        const { result, problem } = await call(channel, args, context)
        if (problem || !result) {
          failures.push(`${where}: ${problem}`)
          continue
        }
        const kind = result.ok ? 'ok' : result.error.kind
        kinds[kind] = (kinds[kind] ?? 0) + 1
        if (untrusted) {
          if (kind !== 'forbidden') failures.push(`${where}: answered ${kind}, expected forbidden`)
        } else if (!accepts(channel, args)) {
          if (kind !== 'invalid-argument')
            failures.push(`${where}: answered ${kind}, expected invalid-argument`)
        }
        // A call the schema accepts is a valid call: any typed answer is fine (checked in `call`).
      }
      expect(failures.slice(0, 5)).toEqual([])
      expect(kinds['invalid-argument']).toBeGreaterThan(500)
      expect(kinds.forbidden).toBeGreaterThan(50)
      expectUnpolluted()
    },
    60_000,
  )

  it('answers 1,000 unknown channel names with unknown-channel', async () => {
    const rng = createRng(SEED - 1)
    const failures: string[] = []
    for (let i = 0; i < CALLS; i++) {
      const channel = unknownChannel(rng, INVOKE_CHANNELS)
      if ((INVOKE_CHANNELS as readonly string[]).includes(channel)) continue
      const { result, problem } = await call(channel, hostileArgs(rng, channel).args, TRUSTED)
      if (problem || !result) failures.push(`${JSON.stringify(channel.slice(0, 40))}: ${problem}`)
      else if (result.ok || result.error.kind !== 'unknown-channel')
        failures.push(
          `${JSON.stringify(channel.slice(0, 40))}: answered ${result.ok ? 'ok' : result.error.kind}`,
        )
    }
    expect(failures.slice(0, 5)).toEqual([])
    expectUnpolluted()
  })

  it('still works after the storm: valid calls answer, and no prototype was polluted', async () => {
    expect(await core.router.invoke('app:info', undefined, TRUSTED)).toMatchObject({
      ok: true,
      value: { name: 'Cadence' },
    })
    const lists = await core.router.invoke('catalog:recommend-playlists', { limit: 2 }, TRUSTED)
    expect(lists).toMatchObject({ ok: true, value: [{ id: 1 }, { id: 2 }] })
    const detail = await core.router.invoke('catalog:playlist', { id: 1 }, TRUSTED)
    expect(detail).toMatchObject({ ok: true, value: { id: 1, total: 3, rows: [{}, {}, {}] } })
    const rows = await core.router.invoke('catalog:playlist-rows', { id: 1, offset: 1, limit: 5 }, TRUSTED)
    expect(rows).toMatchObject({ ok: true, value: { total: 3, offset: 1, rows: [{}, {}] } })
    expectUnpolluted()
  })
})
