import { chromium } from 'playwright-core'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM_FLAGS, findChromium } from '../support/chromium'
import { openCodecPage } from '../support/codec-page'
import { rangeServer } from '../support/range-server'

/**
 * What the output's graph does to the level, rendered by Chromium's own Web Audio
 * (`test/e2e/pages/graph-page.ts`). The limiter before the device is a `DynamicsCompressorNode`, which
 * adds a makeup gain to all it passes (+0.57 dB for its −1 dBFS, 20:1 curve): every song was played that
 * much over the loudness target, and a full-scale song came out at −0.3 dBFS. With the makeup taken off, a
 * song under the threshold leaves at the level it came in, and a full-scale one at the curve's −0.95 dBFS
 * (a sample peak of −0.89 here: the detector follows the sine's envelope, not each sample).
 */
describe('the output graph’s level', () => {
  let browser: Browser
  let page: Page
  let media: Awaited<ReturnType<typeof rangeServer>>

  beforeAll(async () => {
    media = await rangeServer()
    browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_FLAGS })
    page = await openCodecPage(browser, media.url, 'test/e2e/pages/graph-page.ts')
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await media?.close()
  })

  const render = (amplitude: number) =>
    page.evaluate((value) => window.graphLevel.renderLevel(value), amplitude)

  it('passes a song under the limiter’s threshold at its own level', async () => {
    // −20 dBFS peak.
    const { gainDb } = await render(0.1)
    expect(Math.abs(gainDb)).toBeLessThan(0.05)
  })

  it('limits a full-scale song to its curve’s level, with no makeup gain over it', async () => {
    const { peakDbfs } = await render(1)
    expect(peakDbfs).toBeLessThan(-0.8)
    expect(peakDbfs).toBeGreaterThan(-1.5)
  })
})

declare global {
  interface Window {
    /** What `pages/graph-page.ts` answers. */
    graphLevel: { renderLevel(amplitude: number): Promise<{ gainDb: number; peakDbfs: number }> }
  }
}
