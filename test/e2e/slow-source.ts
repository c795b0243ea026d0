import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startDataSource } from '@server/index'
import { OWNER_PASSPHRASE } from '../support/phone'
import { startThrottleProxy } from '../support/throttle-proxy'
import type { ThrottleProxy } from '../support/throttle-proxy'
import type { App } from './harness'

/** A second data source, reached by the app over a slow link. */
export interface SlowSource {
  /** The link: `stop()` cuts it, as a source that stops answering. */
  proxy: ThrottleProxy
  close(): Promise<void>
}

/**
 * Starts a reference data source (`demo` songs) behind a link of `bytesPerSecond` (its media addresses
 * point at the link too), adds it to the app and makes it the active source, then reloads the page.
 */
export async function addSlowSource(app: App, bytesPerSecond: number, demo = 40): Promise<SlowSource> {
  const trusted = { senderUrl: `${app.appUrl}/index.html` }
  const proxy = await startThrottleProxy(bytesPerSecond)
  const dataDir = await mkdtemp(join(tmpdir(), 'cadence-e2e-slow-source-'))
  const source = await startDataSource({
    ownerPassphrase: OWNER_PASSPHRASE,
    dataDir,
    port: 0,
    demo,
    publicUrl: proxy.url,
  })
  proxy.target = source.url
  const close = async () => {
    await proxy.stop()
    await source.close()
    await rm(dataDir, { recursive: true, force: true })
  }
  try {
    const added = await app.core.router.invoke('sources:add', { url: proxy.url }, trusted)
    if (!added.ok) throw new Error(added.error.message)
    const id = (added.value as { id: string }).id
    const activated = await app.core.router.invoke('sources:activate', { id }, trusted)
    if (!activated.ok) throw new Error(activated.error.message)
    await app.page.reload()
  } catch (failure) {
    await close()
    throw failure
  }
  return { proxy, close }
}
