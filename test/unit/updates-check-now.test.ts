import { describe, expect, it } from 'vitest'
import { createUpdateService, UPDATE_CHECK_INTERVAL_MS } from '@main/core/updates'
import type { UpdaterPort, UpdateVerifier } from '@main/core/updates'
import { silentLogger } from '@main/core/log'
import { manualTimers } from '../support/manual-timers'

/** "Check now" in Settings → Updates, against an updater whose feed offers what the test says. */
function setup(enabled: boolean) {
  const timers = manualTimers()
  const feed = { offer: '0.1.0', reads: 0 }
  const updater: UpdaterPort = {
    feed: async () => ({ url: 'http://127.0.0.1:9/', channelFile: 'latest-linux.yml' }),
    check: async (metadata) => ({ version: metadata.version }),
    download: async (onProgress) => (onProgress(100), ['/tmp/Cadence.AppImage']),
    discard: async () => {},
    install: () => {},
  }
  const verifier: UpdateVerifier = {
    async read() {
      feed.reads++
      return { version: feed.offer, files: [{ url: 'Cadence.AppImage', sha512: 'x' }] }
    },
    fileMatches: async () => true,
  }
  let now = 1000
  const service = createUpdateService({
    updater,
    verifier,
    currentVersion: '0.1.0',
    enabled: () => enabled,
    timers,
    now: () => now++,
    log: silentLogger('updates'),
    onState: () => {},
  })
  return { service, feed, timers }
}

describe('updates: Check now', () => {
  it('asks the feed at once, between the regular checks, and says when it checked', async () => {
    const { service, feed, timers } = setup(true)
    service.start()
    await Promise.resolve()
    await new Promise((resolve) => setImmediate(resolve))
    expect(feed.reads).toBe(1)
    expect(timers.delays()).toEqual([UPDATE_CHECK_INTERVAL_MS])
    const before = service.state().checkedAt

    feed.offer = '0.2.0'
    const after = await service.checkNow()
    expect(feed.reads).toBe(2)
    expect(after).toMatchObject({ status: 'ready', version: '0.2.0' })
    expect(after.checkedAt).toBeGreaterThan(before!)
  })

  it('checks once with automatic updates off, and schedules nothing after it', async () => {
    const { service, feed, timers } = setup(false)
    service.start()
    expect(feed.reads).toBe(0)
    const after = await service.checkNow()
    expect(feed.reads).toBe(1)
    expect(after).toMatchObject({ status: 'idle', nextCheckAt: null })
    expect(after.checkedAt).not.toBeNull()
    expect(timers.delays()).toEqual([])
  })
})
