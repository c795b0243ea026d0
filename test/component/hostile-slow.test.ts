import { describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import type { Song } from '@shared/api/models'
import { asCadenceError } from '@shared/errors'
import type { ErrorPayload } from '@shared/errors'
import { createPlaybackEngine } from '@renderer/services/player/engine'
import type { EngineQueue, PlayerNotice } from '@renderer/services/player/engine'
import { createFakeAudio, lastAudio, resolved, song } from './player-fakes'

/**
 * Issue 33, item 5, in the renderer's playback engine: `player:resolve` for one song fails because the
 * data source's answer began and did not finish in time (main found the source there, so it did not answer
 * from the disk). The engine skips that song once, with the reason, and plays the rest of the queue; it
 * neither stops nor skips the whole queue. Through the real core and a trickling source:
 * test/e2e/hostile-slow.test.ts.
 */

/** The error payload main answers `player:resolve` with for a trickled `/song/detail` (10 s client timeout). */
const SLOW_ANSWER: ErrorPayload = {
  name: 'DataSourceError',
  kind: 'timeout',
  endpoint: '/song/detail',
  channel: 'player:resolve',
  status: 200,
  message: 'The data source did not finish its answer within 10 s',
}

/** The part of the queue store the engine moves through, over a plain list. */
function listQueue(songs: Song[]): EngineQueue & { index: number } {
  const entries = songs.map((item, i) => ({ key: `k${i}`, item }))
  return {
    index: 0,
    entries,
    get currentEntry() {
      return entries[this.index]
    },
    next() {
      if (this.index + 1 >= entries.length) return false
      this.index++
      return true
    },
    previous() {
      if (this.index === 0) return false
      this.index--
      return true
    },
    advance() {
      return this.next() ? 'moved' : 'end'
    },
    peekNext() {
      return entries[this.index + 1]?.item
    },
    jumpTo(key: string) {
      this.index = Math.max(
        0,
        entries.findIndex((entry) => entry.key === key),
      )
    },
  }
}

function setup(slowIds: number[]) {
  const songs = [1, 2, 3, 4].map((id) => song(id))
  const queue = listQueue(songs)
  const notices: PlayerNotice[] = []
  const asked: number[] = []
  const engine = createPlaybackEngine({
    queue,
    // As the preload's bridge does: the song, or the error payload rebuilt as a typed error.
    resolve: async ({ id }) => {
      asked.push(Number(id))
      if (slowIds.includes(Number(id))) throw asCadenceError(SLOW_ANSWER)
      return resolved(songs.find((s) => s.id === id)!)
    },
    quality: () => 'exhigh',
    ready: () => Promise.resolve(),
    notify: (notice) => notices.push(notice),
    createOutput: createFakeAudio,
  })
  return { engine, queue, notices, asked }
}

describe('the playback engine and one slow answer', () => {
  it('skips the slow song once, says why, and plays the next one', async () => {
    const t = setup([1])
    await t.engine.load({ autoplay: true })
    await flushPromises()
    expect(t.notices).toEqual([
      {
        type: 'skipped',
        song: 'Song 1',
        cause: 'error',
        reason: 'The data source did not finish its answer within 10 s',
      },
    ])
    expect(t.queue.currentEntry?.item.id).toBe(2)
    expect(t.engine.playing.value).toBe(true)
    expect(t.engine.status.value).toBe('ready')
    expect(lastAudio().src).toMatch(/\/media\/2\.wav/)
  })

  it('a slow song in the middle of the queue is passed over when the one before ends; the rest plays', async () => {
    const t = setup([2])
    await t.engine.load({ autoplay: true })
    await flushPromises()
    expect(t.queue.currentEntry?.item.id).toBe(1)
    lastAudio().emit('ended')
    await flushPromises()
    expect(t.queue.currentEntry?.item.id).toBe(3)
    expect(t.engine.playing.value).toBe(true)
    expect(lastAudio().src).toMatch(/\/media\/3\.wav/)
    expect(t.notices.filter((n) => n.type === 'skipped')).toHaveLength(1)
    expect(t.notices.some((n) => n.type === 'stopped')).toBe(false)
  })
})
