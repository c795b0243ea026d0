import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium } from 'playwright-core'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { build } from 'vite'
import { createCore, createMemoryStore } from '@main/core'
import type { Core } from '@main/core'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import { createTestCipher } from '../support/test-cipher'
import { serveStatic } from '../support/static-server'

/**
 * Runs Cadence for an end-to-end test: the reference data source (unless `sourceUrl` points at another
 * one), the real core with an in-memory store and a test cipher, the built renderer served on 127.0.0.1,
 * and Debian Chromium with `window.cadence` bridged to the core through Playwright bindings.
 */

export interface StartAppOptions {
  /** Use this data source instead of starting the reference server. */
  sourceUrl?: string
  /** Songs in the reference server's demo catalogue. */
  demo?: number
  /** Options passed to the reference server (e.g. short-lived media URLs). */
  server?: { mediaUrlTtlSeconds?: number; tokenTtlSeconds?: number }
  /** Extra Chromium flags. */
  chromiumArgs?: string[]
  viewport?: { width: number; height: number }
}

export interface App {
  page: Page
  context: BrowserContext
  browser: Browser
  /** The data source the core talks to. */
  sourceUrl: string
  /** The reference server, when the harness started it. */
  server?: DataSourceHandle
  core: Core
  /** Where the built renderer is served. */
  appUrl: string
  /** Saves a screenshot under test-results/. */
  screenshot(name: string): Promise<string>
  close(): Promise<void>
}

const ROOT = resolve(import.meta.dirname, '../..')
const RENDERER_DIR = join(ROOT, 'out/renderer')
export const RESULTS_DIR = join(ROOT, 'test-results')

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
]

export function findChromium(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    (path): path is string => !!path,
  )
  const found = candidates.find((path) => existsSync(path))
  if (!found) {
    throw new Error(
      'Chromium not found. Install it with `sudo apt-get install -y chromium` (Debian/Ubuntu), ' +
        'or set CHROMIUM_PATH to a Chromium or Chrome executable.',
    )
  }
  return found
}

let preloadScript: Promise<string> | undefined

/** Bundles test/e2e/preload.ts (createBridge + a binding transport) into one script for addInitScript. */
function testPreload(): Promise<string> {
  preloadScript ??= build({
    configFile: false,
    logLevel: 'silent',
    resolve: { alias: { '@shared': join(ROOT, 'shared') } },
    build: {
      write: false,
      minify: false,
      lib: { entry: join(ROOT, 'test/e2e/preload.ts'), formats: ['iife'], name: 'CadenceTestPreload' },
    },
  }).then((output) => {
    const result = Array.isArray(output) ? output[0] : output
    if (!('output' in result)) throw new Error('unexpected vite build result')
    return result.output[0].code
  })
  return preloadScript
}

export async function startApp(options: StartAppOptions = {}): Promise<App> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    throw new Error('The renderer is not built: run `npm run build` first (npm test does it for you).')
  }
  const cleanups: Array<() => Promise<unknown> | unknown> = []
  const cleanup = async () => {
    for (const step of cleanups.reverse()) await Promise.resolve(step()).catch(() => {})
  }
  try {
    let server: DataSourceHandle | undefined
    let sourceUrl = options.sourceUrl
    if (!sourceUrl) {
      const dataDir = await mkdtemp(join(tmpdir(), 'cadence-e2e-'))
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
      server = await startDataSource({ dataDir, port: 0, demo: options.demo ?? 300, ...options.server })
      cleanups.push(() => server!.close())
      sourceUrl = server.url
    }

    const web = await serveStatic(RENDERER_DIR)
    cleanups.push(() => web.close())
    const appUrl = web.url

    const core = createCore({
      store: createMemoryStore(),
      cipher: createTestCipher(),
      dataSourceUrl: sourceUrl,
      isTrustedSender: (url) => url.startsWith(appUrl + '/'),
      appInfo: { name: 'Cadence', version: '0.0.0-test', platform: process.platform },
    })
    cleanups.push(() => core.dispose())

    const browser = await chromium.launch({
      executablePath: findChromium(),
      args: [...CHROMIUM_FLAGS, ...(options.chromiumArgs ?? [])],
      headless: true,
    })
    cleanups.push(() => browser.close())
    const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 } })
    await context.exposeBinding('__cadenceInvoke', (source, channel: string, args: unknown) =>
      core.router.invoke(channel, args, { senderUrl: source.frame.url() }),
    )
    await context.addInitScript({ content: await testPreload() })
    const page = await context.newPage()

    // Events from the core reach every page the way webContents.send reaches every window.
    const unsubscribe = core.events.subscribe((event, payload) => {
      for (const p of context.pages()) {
        void p
          .evaluate(([e, data]) => window.__cadenceEmit(e, data), [event, payload] as const)
          .catch(() => {})
      }
    })
    cleanups.push(unsubscribe)

    await page.goto(appUrl + '/index.html')
    return {
      page,
      context,
      browser,
      sourceUrl,
      server,
      core,
      appUrl,
      async screenshot(name) {
        const path = join(RESULTS_DIR, `${name}.png`)
        await page.screenshot({ path, fullPage: false })
        return path
      },
      close: cleanup,
    }
  } catch (error) {
    await cleanup()
    throw error
  }
}
