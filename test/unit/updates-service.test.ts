import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { UpdateState } from '@shared/ipc/contract'
import {
  createUpdateService,
  UPDATE_CHECK_INTERVAL_MS,
  UPDATE_RETRY_MS,
  UpdateDownloadError,
} from '@main/core/updates'
import type { UpdaterPort, UpdateVerifier } from '@main/core/updates'
import { realTimers } from '@main/core/ports'
import { silentLogger } from '@main/core/log'

/**
 * An updater whose feed the test sets: a version on offer, unreachable, or a download that fails. The
 * metadata's signature is taken as good here (test/unit/updates-signature.test.ts checks it for real).
 */
function fakeUpdater() {
  const feed = {
    offer: null as string | null,
    down: false,
    download: 'ok' as 'ok' | 'corrupt' | 'unreachable',
    checks: 0,
    downloads: 0,
    installs: 0,
  }
  const port: UpdaterPort = {
    feed: async () => ({ url: 'http://127.0.0.1:9/', channelFile: 'latest-linux.yml' }),
    async check(metadata) {
      return { version: metadata.version }
    },
    async download(onProgress) {
      feed.downloads++
      onProgress(40)
      if (feed.download !== 'ok') {
        throw new UpdateDownloadError(feed.download, `${feed.download} download`)
      }
      onProgress(100)
      return ['/tmp/Cadence.AppImage']
    },
    discard: async () => {},
    install: () => void feed.installs++,
  }
  const verifier: UpdateVerifier = {
    async read() {
      feed.checks++
      if (feed.down) throw new Error('net::ERR_CONNECTION_REFUSED')
      return { version: feed.offer ?? CURRENT_VERSION, files: [{ url: 'Cadence.AppImage', sha512: 'x' }] }
    },
    fileMatches: async () => true,
  }
  return { feed, port, verifier }
}

const CURRENT_VERSION = '0.1.0'

function setup(options: { enabled?: boolean; updater?: boolean } = {}) {
  const { feed, port, verifier } = fakeUpdater()
  let enabled = options.enabled ?? true
  const states: UpdateState[] = []
  const service = createUpdateService({
    updater: options.updater === false ? undefined : port,
    verifier,
    currentVersion: CURRENT_VERSION,
    enabled: () => enabled,
    timers: realTimers,
    now: () => Date.now(),
    log: silentLogger('updates'),
    onState: (state) => states.push(state),
  })
  return { feed, service, states, setEnabled: (value: boolean) => (enabled = value) }
}

describe('createUpdateService', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('downloads a newer version in the background with progress, then offers a restart', async () => {
    const { feed, service, states } = setup()
    feed.offer = '0.2.0'
    service.start()
    await vi.advanceTimersByTimeAsync(0)
    expect(
      states.filter((s) => s.status === 'downloading').map((s) => s.status === 'downloading' && s.percent),
    ).toEqual([0, 40, 100])
    expect(service.state()).toMatchObject({ status: 'ready', version: '0.2.0' })
    expect(service.install()).toBe(true)
    expect(feed.installs).toBe(1)
  })

  it('stays silent when the feed offers the same version, and asks again 6 hours later', async () => {
    const { feed, service } = setup()
    service.start()
    await vi.advanceTimersByTimeAsync(0)
    expect(service.state()).toMatchObject({ status: 'idle' })
    expect(service.install()).toBe(false)
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_INTERVAL_MS - 1)
    expect(feed.checks).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(feed.checks).toBe(2)
  })

  it('retries a feed that is down later, silently, backing off up to the regular interval', async () => {
    const { feed, service, states } = setup()
    feed.down = true
    service.start()
    await vi.advanceTimersByTimeAsync(0)
    expect(service.state().status).toBe('idle')
    await vi.advanceTimersByTimeAsync(UPDATE_RETRY_MS)
    expect(feed.checks).toBe(2)
    await vi.advanceTimersByTimeAsync(UPDATE_RETRY_MS * 2)
    expect(feed.checks).toBe(3)
    // The feed is back: the next retry finds the update.
    feed.down = false
    feed.offer = '0.2.0'
    await vi.advanceTimersByTimeAsync(UPDATE_RETRY_MS * 4)
    expect(service.state()).toMatchObject({ status: 'ready', version: '0.2.0' })
    expect(states.some((s) => s.status === 'failed')).toBe(false)
    // Never more than the interval apart, however long it was down.
    const delays = states.map((s) => (s.nextCheckAt && s.checkedAt ? s.nextCheckAt - s.checkedAt : 0))
    expect(Math.max(...delays)).toBeLessThanOrEqual(UPDATE_CHECK_INTERVAL_MS)
  })

  it('refuses a download that fails verification, says so once, and tries again at the next regular check', async () => {
    const { feed, service } = setup()
    feed.offer = '0.2.0'
    feed.download = 'corrupt'
    service.start()
    await vi.advanceTimersByTimeAsync(0)
    expect(service.state()).toMatchObject({ status: 'failed', version: '0.2.0', reason: 'corrupt' })
    expect(service.install()).toBe(false)
    feed.download = 'ok'
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_INTERVAL_MS)
    expect(feed.downloads).toBe(2)
    expect(service.state()).toMatchObject({ status: 'ready' })
  })

  it('treats a download cut off by the network as offline: silent, retried later', async () => {
    const { feed, service } = setup()
    feed.offer = '0.2.0'
    feed.download = 'unreachable'
    service.start()
    await vi.advanceTimersByTimeAsync(0)
    expect(service.state().status).toBe('idle')
    feed.download = 'ok'
    await vi.advanceTimersByTimeAsync(UPDATE_RETRY_MS)
    expect(service.state()).toMatchObject({ status: 'ready' })
  })

  it('checks nothing while the setting is off, stops when it is turned off and checks when it is turned on', async () => {
    const { feed, service, setEnabled } = setup({ enabled: false })
    service.start()
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_INTERVAL_MS * 2)
    expect(feed.checks).toBe(0)
    setEnabled(true)
    service.settingChanged()
    await vi.advanceTimersByTimeAsync(0)
    expect(feed.checks).toBe(1)
    setEnabled(false)
    service.settingChanged()
    expect(service.state().nextCheckAt).toBeNull()
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_INTERVAL_MS * 2)
    expect(feed.checks).toBe(1)
  })

  it('does nothing where the app cannot update itself (a development build)', async () => {
    const { feed, service } = setup({ updater: false })
    service.start()
    service.settingChanged()
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_INTERVAL_MS)
    expect(feed.checks).toBe(0)
    expect(service.available()).toBe(false)
  })
})
