import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import { CHROMIUM_FLAGS, findChromium } from '../support/chromium'
import { OWNER_PASSPHRASE } from '../support/phone'
import { confirmInPhoneBrowser, phoneContext } from '../support/phone-browser'

/**
 * The data source's QR sign-in page driven as a phone drives it: a phone-sized Chromium loads the page,
 * the owner types and taps, the browser submits the form. No test sets a header the browser would not.
 */
describe('The phone sign-in page in a browser', () => {
  let server: DataSourceHandle
  let dataDir: string
  let browser: Browser

  /** A new code, as the desktop asks for one: the key it polls with and the page the QR code links to. */
  async function newCode(): Promise<{ key: string; qrurl: string }> {
    const key = ((await (await fetch(`${server.url}/connect/qr/key`)).json()) as { data: { unikey: string } })
      .data.unikey
    const code = (await (
      await fetch(`${server.url}/connect/qr/create?key=${encodeURIComponent(key)}&qrimg=false`)
    ).json()) as { data: { qrurl: string } }
    return { key, qrurl: code.data.qrurl }
  }
  const check = async (key: string) =>
    (
      (await (await fetch(`${server.url}/connect/qr/check?key=${encodeURIComponent(key)}`)).json()) as {
        data: { status: number; cookie?: string }
      }
    ).data

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cadence-e2e-phone-'))
    server = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir, port: 0, demo: 20 })
    browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_FLAGS, headless: true })
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('signs the desktop in when the owner types the passphrase and taps Confirm', async () => {
    const handset = await phoneContext(browser)
    const { key, qrurl } = await newCode()
    const done = await confirmInPhoneBrowser(handset, qrurl)
    expect({ status: done.status, heading: done.heading }).toEqual({ status: 200, heading: 'Done' })
    const status = await check(key)
    expect(status.status).toBe(2)
    expect(status.cookie).toBeTruthy()
    await handset.close()
  })

  it('says the passphrase is wrong, keeps the form, and lets the owner try again', async () => {
    const handset = await phoneContext(browser)
    const { key, qrurl } = await newCode()
    const wrong = await confirmInPhoneBrowser(handset, qrurl, { passphrase: 'not the passphrase' })
    expect(wrong.status).toBe(403)
    expect(await wrong.page.getByRole('alert').textContent()).toMatch(/passphrase is not right/)
    expect((await check(key)).status).not.toBe(2)
    // Same page, the right passphrase this time.
    await wrong.page.locator('#passphrase').fill(OWNER_PASSPHRASE)
    await wrong.page.locator('button[value="confirm"]').tap()
    await expect.poll(() => wrong.page.locator('h1').textContent()).toBe('Done')
    expect((await check(key)).status).toBe(2)
    await handset.close()
  })

  it('remembers the phone: the next code is one tap, with no passphrase', async () => {
    const handset = await phoneContext(browser)
    const first = await confirmInPhoneBrowser(handset, (await newCode()).qrurl)
    expect(first.heading).toBe('Done')
    const { key, qrurl } = await newCode()
    const page = await handset.newPage()
    await page.goto(qrurl)
    expect(await page.locator('#passphrase').count()).toBe(0)
    await page.locator('button[value="confirm"]').tap()
    await expect.poll(() => page.locator('h1').textContent()).toBe('Done')
    expect((await check(key)).status).toBe(2)
    await handset.close()
  })

  it('refuses the same form posted by a page on another site, even with the right token and passphrase', async () => {
    const handset = await phoneContext(browser)
    const { key, qrurl } = await newCode()
    // The attacker copies the form (with a real token) into a page of their own that the phone opens.
    const owned = await handset.newPage()
    await owned.goto(qrurl)
    const token = await owned.locator('input[name="token"]').getAttribute('value')
    await owned.close()
    const evil: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html')
      res.end(`<!doctype html><form method="post" action="${qrurl}">
<input type="hidden" name="token" value="${token}">
<input type="hidden" name="passphrase" value="${OWNER_PASSPHRASE}">
<button name="action" value="confirm" type="submit">Win a prize</button></form>`)
    })
    await new Promise<void>((done) => evil.listen(0, '127.0.0.1', done))
    const port = (evil.address() as { port: number }).port
    try {
      const page = await handset.newPage()
      // localhost and 127.0.0.1 are different sites to the browser.
      await page.goto(`http://localhost:${port}/`)
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.locator('button').tap(),
      ])
      expect(response.status()).toBe(403)
      expect((await check(key)).status).not.toBe(2)
    } finally {
      await new Promise((done) => evil.close(done))
      await handset.close()
    }
  })
})
