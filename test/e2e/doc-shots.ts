import { mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Page } from 'playwright-core'

/** Where the screenshots linked from the README live. */
export const DOC_SHOTS_DIR = resolve(import.meta.dirname, '../../docs/screenshots')

/**
 * Saves a screenshot of `page` for the docs (`docs/screenshots/<name>.png`), after images and
 * transitions settle. Taken by the end-to-end tests, so the pictures show the real renderer.
 */
export async function shootForDocs(
  page: Page,
  name: string,
  options: { transparent?: boolean } = {},
): Promise<string> {
  await mkdir(DOC_SHOTS_DIR, { recursive: true })
  // Eager images still loading (lazy ones off screen may never load, so they are not waited for).
  await page.evaluate(() =>
    Promise.all(
      [...document.images]
        .filter((image) => !image.complete && image.loading !== 'lazy')
        .map(
          (image) =>
            new Promise((done) => {
              image.addEventListener('load', done, { once: true })
              image.addEventListener('error', done, { once: true })
            }),
        ),
    ),
  )
  await page.waitForTimeout(300)
  const path = join(DOC_SHOTS_DIR, `${name}.png`)
  await page.screenshot({ path, fullPage: false, omitBackground: options.transparent })
  return path
}

/** `shootForDocs` in the dark and the light theme (`<name>-dark.png`, `<name>-light.png`); ends dark. */
export async function shootForDocsBothThemes(page: Page, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => window.cadence.invoke('settings:update', { theme: t }), theme)
    await page.locator(`html[data-theme="${theme}"]`).waitFor({ state: 'attached' })
    await shootForDocs(page, `${name}-${theme}`)
  }
}
