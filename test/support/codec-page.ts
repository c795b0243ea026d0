import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { build } from 'vite'

const ROOT = join(import.meta.dirname, '../..')

/**
 * A page running the renderer's streaming decoder (`test/e2e/pages/codec-page.ts`, or `entry`, bundled
 * here), on
 * `origin` (a loopback media server: a secure context, its files same-origin), with `window.codec`.
 */
export async function openCodecPage(
  browser: Browser,
  origin: string,
  entry = 'test/e2e/pages/codec-page.ts',
): Promise<Page> {
  const bundle = await build({
    configFile: false,
    logLevel: 'silent',
    resolve: { alias: { '@renderer': join(ROOT, 'renderer/src'), '@shared': join(ROOT, 'shared') } },
    build: {
      write: false,
      minify: false,
      lib: { entry: join(ROOT, entry), formats: ['es'], fileName: 'codec' },
    },
  })
  const output = (Array.isArray(bundle) ? bundle[0] : bundle) as { output: { code?: string }[] }
  const code = output.output[0].code ?? ''
  const page = await browser.newPage()
  await page.route(`${origin}/`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><script type="module" src="/codec.js"></script>',
    }),
  )
  await page.route(`${origin}/codec.js`, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: code }),
  )
  await page.goto(`${origin}/`)
  await page.waitForFunction(() => 'codec' in window)
  return page
}
