import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { realCacheFs } from '@main/core/media-cache'
import { HEAD_BYTES, LiveFill } from '@main/core/media-cache/live-fill'

/** The copy a first play reads while it arrives (`core/media-cache/live-fill.ts`). */

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cadence-live-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const bytes = (length: number, seed = 0) => Uint8Array.from({ length }, (_, i) => (i * 13 + seed) & 0xff)

describe('a fetch in progress, as readers see it', () => {
  it('answers reads from the bytes in memory, then from disk, never past what arrived', async () => {
    const partial = join(dir, 'a.partial')
    const live = new LiveFill(realCacheFs, partial, join(dir, 'a'))
    const file = bytes(HEAD_BYTES + 100_000)
    live.started(file.length, 'audio/wav', 0)
    // Chunks of odd sizes, written to disk as they come (only what is on disk is announced).
    const sizes = [1000, 70_000, 33, HEAD_BYTES, 28_967]
    let at = 0
    for (const size of sizes) {
      const chunk = file.subarray(at, at + size)
      at += size
      writeFileSync(partial, file.subarray(0, at))
      live.advance(at, chunk)
    }
    expect(live.received).toBe(file.length)
    expect(await live.read(0, 64)).toEqual(file.subarray(0, 64))
    expect(await live.read(990, 20_000)).toEqual(file.subarray(990, 20_990)) // across chunks, in memory
    expect(await live.read(HEAD_BYTES - 10, 50)).toEqual(file.subarray(HEAD_BYTES - 10, HEAD_BYTES + 40))
    expect(await live.read(file.length - 5, 100)).toEqual(file.subarray(file.length - 5)) // up to the end

    // The transfer starts again from zero: nothing of the old bytes is answered.
    live.restart()
    expect(await live.read(0, 64)).toEqual(new Uint8Array(0))
    const again = bytes(500, 7)
    writeFileSync(partial, again)
    live.advance(500, again)
    expect(await live.read(0, 1000)).toEqual(again)
  })

  it('wakes readers when their byte arrives or the fetch ends, and reads the finished file after the rename', async () => {
    const partial = join(dir, 'b.partial')
    const final = join(dir, 'b')
    const live = new LiveFill(realCacheFs, partial, final)
    live.started(10, undefined, 0)
    let woke = false
    const waiting = live.waitFor(5).then(() => (woke = true))
    writeFileSync(partial, bytes(5))
    live.advance(5) // bytes 0–4: not yet
    await Promise.resolve()
    expect(woke).toBe(false)
    writeFileSync(partial, bytes(10))
    live.advance(10)
    await waiting
    expect(woke).toBe(true)
    // Renamed under a reader that still names the partial file: it reads the finished one.
    const { renameSync } = await import('node:fs')
    renameSync(partial, final)
    expect(await live.read(2, 3)).toEqual(bytes(10).subarray(2, 5))
    live.finish(10, 'audio/wav')
    expect(live.path).toBe(final)
    const ended = new LiveFill(realCacheFs, partial, final)
    const pending = ended.waitFor(0)
    ended.fail()
    await pending
    expect(ended.state).toBe('failed')
  })
})
