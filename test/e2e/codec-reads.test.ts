import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM_FLAGS, findChromium } from '../support/chromium'
import { openCodecPage } from '../support/codec-page'
import { rangeServer } from '../support/range-server'

/** `window.codec` of `pages/codec-reads-page.ts` (not imported: the page is built for the browser). */
interface CodecReads {
  readThrough(
    url: string,
    rate: number,
  ): Promise<{ seconds: number; ranges: number[]; size: number } | undefined>
}

const SECONDS = 90

/**
 * How often the streaming decoder (`frame-decoder.ts`) fetches while a song plays on: a 90 s MP3 (made
 * with ffmpeg) read as playback reads it, a 0.25 s first chunk and then 5 s at a time, in Debian
 * Chromium. Each range costs the page, the network stack and main's media handler, so steady reads
 * fetch far ahead (up to `MAX_BLOCK_SECONDS` of the file) rather than a range per chunk.
 */
describe('ranges fetched while a song plays on', () => {
  let browser: Browser
  let page: Page
  let media: Awaited<ReturnType<typeof rangeServer>>
  let dir: string

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'codec-reads-'))
    const file = join(dir, 'long.mp3')
    execFileSync('ffmpeg', [
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:duration=${SECONDS}`,
      '-ac',
      '2',
      '-b:a',
      '192k',
      file,
    ])
    media = await rangeServer()
    media.set('/long.mp3', new Uint8Array(await readFile(file)))
    browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_FLAGS })
    page = await openCodecPage(browser, media.url, 'test/e2e/pages/codec-reads-page.ts')
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await media?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('reads a 90 s song in a few ranges, each byte once, the first two no bigger than their chunk', async () => {
    const result = await page.evaluate(
      (url) => (window as unknown as { codec: CodecReads }).codec.readThrough(url, 44100),
      `${media.url}/long.mp3`,
    )
    expect(result).toBeDefined()
    const { seconds, ranges, size } = result!
    expect(seconds).toBeCloseTo(SECONDS, 1)
    // A range per 5 s chunk was 18; fetched up to 30 s ahead, about 90 / 30 and the two small ones.
    expect(ranges.length).toBeLessThanOrEqual(7)
    // Each byte about once.
    expect(ranges.reduce((sum, n) => sum + n, 0)).toBeLessThan(size * 1.1)
    // The start's reads stay small: its second chunk follows the first in time (192 kbit/s: 24 KB a second).
    expect(ranges[0]).toBeLessThanOrEqual(24_000 * 6)
  }, 120_000)
})
