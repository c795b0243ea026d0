import type { Browser, BrowserContext, Page } from 'playwright-core'
import { OWNER_PASSPHRASE } from './phone'

/** A phone as the owner holds it: a small touch screen in its own browser profile (cookies of its own). */
export async function phoneContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36',
  })
}

/**
 * The owner's phone on the data source's QR page, in a real browser: opens the page the code links to,
 * types the passphrase (unless the phone is remembered and the page asks for none), and taps Confirm or
 * Deny. The browser builds and sends the form itself, with the headers browsers really send
 * (Origin, Sec-Fetch-Site), unlike a `fetch` from a test. Resolves with the page shown afterwards.
 */
export async function confirmInPhoneBrowser(
  context: BrowserContext,
  qrurl: string,
  options: { passphrase?: string; action?: 'confirm' | 'deny' } = {},
): Promise<{ page: Page; status: number; heading: string }> {
  const page = await context.newPage()
  await page.goto(qrurl)
  const field = page.locator('#passphrase')
  if (await field.count()) await field.fill(options.passphrase ?? OWNER_PASSPHRASE)
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && r.url() === qrurl),
    page.locator(`button[value="${options.action ?? 'confirm'}"]`).tap(),
  ])
  await page.waitForLoadState()
  return { page, status: response.status(), heading: (await page.locator('h1').textContent()) ?? '' }
}
