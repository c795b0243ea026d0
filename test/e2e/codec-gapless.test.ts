import { chromium } from 'playwright-core'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM_FLAGS, findChromium } from '../support/chromium'
import { openCodecPage } from '../support/codec-page'
import { GAPLESS_RATE, SINE_HZ, sinePart } from '../support/gapless-audio'
import type { GaplessFormat } from '../support/gapless-audio'
import { rangeServer } from '../support/range-server'

/**
 * An album ripped gaplessly to MP3 or AAC: one 440 Hz sine cut in two at a sample that is no frame
 * boundary, each part encoded on its own by ffmpeg (MP3 with its LAME tag, AAC in MP4 with its edit
 * list, or with iTunes' `iTunSMPB` and no edit list), played one after the other by the player's own
 * `Track` in Debian Chromium (the second started on the frame where the first ends, as the output does)
 * and rendered through the graph (`test/e2e/pages/gapless-page.ts`). The encoder's delay and padding
 * trimmed, the sine runs on across the boundary: no gap, no step.
 */

const SPLIT = 57_337
const END = 132_300

describe('MP3 and AAC albums ripped gaplessly play without a gap', () => {
  let browser: Browser
  let page: Page
  let media: Awaited<ReturnType<typeof rangeServer>>

  beforeAll(async () => {
    media = await rangeServer()
    for (const format of ['mp3', 'm4a', 'm4a-itunes'] as const) {
      media.set(`/${format}-1`, sinePart(0, SPLIT, format))
      media.set(`/${format}-2`, sinePart(SPLIT, END, format))
    }
    browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_FLAGS })
    page = await openCodecPage(browser, media.url, 'test/e2e/pages/gapless-page.ts')
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await media?.close()
  })

  const render = (format: GaplessFormat) =>
    page.evaluate(([urls, rate, hz, seconds]) => window.gapless.renderGapless(urls, rate, hz, seconds), [
      [`${media.url}/${format}-1`, `${media.url}/${format}-2`],
      GAPLESS_RATE,
      SINE_HZ,
      3.5,
    ] as const)

  for (const format of ['mp3', 'm4a', 'm4a-itunes'] as const) {
    it(`${format}: the boundary within 1 ms, the sine continuous across it`, async () => {
      const result = await render(format)
      const [boundary] = result.boundaries
      // The phase of the sine after the boundary is the phase before it, continued: no frame lost or
      // added (a gap or an overlap of one frame is 0.023 ms).
      expect(Math.abs(boundary.stepMs)).toBeLessThan(1)
      // No quiet moment at the boundary: every period of the sine there is at least 80 % of its level
      // (a gap, or the encoder's priming played, is near 0).
      expect(boundary.quietest).toBeGreaterThan(0.8)
      if (format === 'm4a') {
        // The edit list's length is in milliseconds: the first part may end up to half of one early.
        expect(Math.abs(result.ends[0] - SPLIT)).toBeLessThanOrEqual(GAPLESS_RATE / 2000)
      } else expect(result.ends).toEqual([SPLIT, END])
      if (format === 'mp3') {
        // LAME's parts join as one: what is heard around the boundary is the sine, within 10 % of its
        // amplitude (4 % measured; a step of one frame would be 6 %, of a millisecond 100 % or more).
        // AAC's are not held to this: ffmpeg's AAC encoder puts a transient of up to 80 % in the
        // first 768 samples of a part that starts abruptly, in ffmpeg's own decode as here.
        expect(boundary.largestOff).toBeLessThan(0.1 * result.amplitude)
      }
      console.log(`${format}: ${JSON.stringify(result)}`)
    }, 120_000)
  }
})

/** What `pages/gapless-page.ts` answers. */
interface Rendered {
  ends: number[]
  amplitude: number
  middleOff: number
  boundaries: Array<{ at: number; stepMs: number; largestOff: number; quietest: number }>
}

declare global {
  interface Window {
    gapless: {
      renderGapless(urls: readonly string[], rate: number, hz: number, seconds: number): Promise<Rendered>
    }
  }
}
