import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import type { AuthState, QrEvent } from '@shared/ipc/contract'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'
import { OWNER_PASSPHRASE } from '../support/phone'
import { confirmInPhoneBrowser, phoneContext } from '../support/phone-browser'

declare global {
  interface Window {
    __events?: { qr: QrEvent[]; auth: AuthState[] }
  }
}

/** A remote data source (started apart from the app) and the QR login played from a "phone". */
describe('QR login against a remote data source', () => {
  let app: App
  let server: DataSourceHandle
  let dataDir: string

  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-e2e-remote-'))
    server = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir,
      port: 0,
      demo: 60,
      ownerName: 'Ada Remote',
    })
    app = await startApp({ sourceUrl: server.url })
  })
  afterAll(async () => {
    await app?.close()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('opens signed out on a remote source', async () => {
    const state = await app.page.evaluate(() => window.cadence.invoke('auth:status'))
    expect(state).toMatchObject({ status: 'signed-out', user: null })
    const sources = await app.page.evaluate(() => window.cadence.invoke('sources:list'))
    const active = sources.sources.find((s) => s.id === sources.activeId)
    expect(active).toMatchObject({ url: server.url, builtin: false, insecure: false })
  })

  it('signs in when the phone confirms the code, and closes the login window', async () => {
    await app.page.evaluate(() => {
      const events = { qr: [] as QrEvent[], auth: [] as AuthState[] }
      window.__events = events
      window.cadence.on('auth:qr', (e) => events.qr.push(e))
      window.cadence.on('auth:changed', (e) => events.auth.push(e))
    })
    await app.page.evaluate(() => window.cadence.invoke('auth:start-qr'))

    // The login window opens at #/login.
    await expect.poll(() => app.loginPage()?.url() ?? '').toContain('#/login')

    const waiting = await waitFor(app, (e) => e.qr.find((q) => q.phase === 'waiting'))
    expect(waiting.qrimg).toMatch(/^data:image\/png;base64,/)
    expect(waiting.qrurl).toContain(server.url)
    // A window that opens late can catch up.
    expect(await app.loginPage()!.evaluate(() => window.cadence.invoke('auth:qr-state'))).toMatchObject({
      qrurl: waiting.qrurl,
    })

    // The phone, in a real phone-sized browser: opening the page marks it scanned; the owner types the
    // passphrase and taps Confirm, and the browser posts the form with the headers browsers send.
    const handset = await phoneContext(app.browser)
    const confirm = await confirmInPhoneBrowser(handset, waiting.qrurl!)
    expect({ status: confirm.status, heading: confirm.heading }).toEqual({ status: 200, heading: 'Done' })
    await confirm.page.screenshot({ path: join(RESULTS_DIR, 'phone-confirmed.png') })
    await handset.close()

    const signedIn = await waitFor(app, (e) => e.auth.find((a) => a.status === 'signed-in'), 15_000)
    expect(signedIn.user?.name).toBe('Ada Remote')
    const qr = await app.page.evaluate(() => window.__events!.qr.map((q) => q.phase))
    expect(qr).toContain('authorised')
    await expect.poll(() => app.loginPage()).toBeUndefined()
    expect(await app.page.evaluate(() => window.cadence.invoke('auth:status'))).toMatchObject({
      status: 'signed-in',
      user: { name: 'Ada Remote' },
      storage: { mode: 'encrypted', encryptionUnavailable: false },
    })
    await app.screenshot('login-signed-in')
  })

  it('shows the signed-in user their own playlists', async () => {
    const lists = await app.page.evaluate(() => window.cadence.invoke('catalog:user-playlists'))
    expect(Array.isArray(lists)).toBe(true)
  })

  it('offers the QR login again when the server forgets the login', async () => {
    server.expireCredentials()
    await app.page.evaluate(() =>
      window.cadence.invoke('catalog:like', { id: 1, like: true }).catch(() => null),
    )
    const expired = await waitFor(app, (e) => e.auth.find((a) => a.status === 'expired'))
    expect(expired.user).toBeNull()
    expect(await app.page.evaluate(() => window.cadence.invoke('auth:status'))).toMatchObject({
      status: 'expired',
    })
  })
})

async function waitFor<T>(
  app: App,
  pick: (events: { qr: QrEvent[]; auth: AuthState[] }) => T | undefined,
  timeout = 10_000,
): Promise<T> {
  const started = Date.now()
  for (;;) {
    const events = await app.page.evaluate(() => window.__events!)
    const found = pick(events)
    if (found !== undefined) return found
    if (Date.now() - started > timeout) throw new Error('timed out waiting for an event')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
