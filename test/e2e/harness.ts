import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium } from 'playwright-core'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { build } from 'vite'
import { createCore, createMemoryStore } from '@main/core'
import type { Core, CoreDeps, SecretCipher } from '@main/core'
import type { ListenPorts } from '@main/core/listen'
import { startDataSource } from '@server/index'
import type { DataSourceHandle } from '@server/index'
import { createTestCipher } from '../support/test-cipher'
import { serveStatic } from '../support/static-server'
import { OWNER_PASSPHRASE } from '../support/phone'
import { CHROMIUM_FLAGS, findChromium } from '../support/chromium'
import { interceptScheme } from '../support/scheme-route'
import { schemeOverHttp } from '../support/scheme-http'
import { MEDIA_SCHEME } from '@shared/player/media-url'

/**
 * Runs Cadence for an end-to-end test: the reference data source started in-process and registered as
 * the built-in source (so the app opens signed in, as a fresh install does), the real core with an
 * in-memory store and a test cipher, the built renderer served on 127.0.0.1, and Debian Chromium with
 * `window.cadence` bridged to the core through Playwright bindings. With `sourceUrl`, that address is
 * added as a remote data source and made active instead: signed out, login through the QR flow.
 * The QR login window is a second page at `appUrl/index.html#/login`.
 */

export interface StartAppOptions {
  /** LRCLIB for the core (a fake's address; where its lyrics are kept). */
  lrclib?: CoreDeps['lrclib']
  /** Discord Rich Presence for the core (a connection to a fake Discord; its own timers). */
  discord?: CoreDeps['discord']
  /** Use this data source instead of starting the reference server. */
  sourceUrl?: string
  /** Songs in the reference server's demo catalogue. */
  demo?: number
  /** Options passed to the reference server (e.g. short-lived media URLs). */
  server?: { mediaUrlTtlSeconds?: number; tokenTtlSeconds?: number; library?: string }
  /** Extra Chromium flags. */
  chromiumArgs?: string[]
  /** Let Chromium make sound (Playwright mutes it by default): for `npm run bench:audio`. */
  audible?: boolean
  /** Extra environment for Chromium (e.g. `PULSE_SERVER`). */
  chromiumEnv?: Record<string, string>
  viewport?: { width: number; height: number }
  /** What the settings store holds at start (e.g. `{ settings: { ...DEFAULT_SETTINGS, keepSignedIn: false } }`). */
  store?: Record<string, unknown>
  /** Stands in for safeStorage (default: a real AES-GCM test cipher with encryption available). */
  cipher?: SecretCipher
  /** Desktop lyrics window, mini player and notifications (pages and viewports in the test). */
  listen?: ListenPorts
  /** The media cache folder (default: the core's own temp folder, removed when the app closes). */
  mediaDir?: string
  /**
   * Autoplay as the app ships it (on). Off by default here: the other tests play short queues to their
   * end, which autoplay would extend.
   */
  autoplay?: boolean
  /**
   * Main's network, for a test that watches it (default: none, so media and covers go through the core's
   * own pinned connections, as in the app).
   */
  fetch?: typeof fetch
  /**
   * Settings → Music on this computer: the core starts the built-in data source itself (in-process, as the
   * utility process would run it: the import in the background, the folders watched), and the system
   * folder picker answers with what this returns (the glue's dialog, stubbed).
   */
  pickFolder?: () => string | undefined
}

export interface MediaRequestRecord {
  url: string
  range?: string
  status: number
  /** The answer's `Content-Range` (what was served of the asked range). */
  contentRange?: string
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
  /** The core's key-value store (in memory): `store.snapshot()` is what electron-store would persist. */
  store: ReturnType<typeof createMemoryStore>
  /** What the app put on the clipboard (`app:copy-text`), oldest first. */
  copied: string[]
  /** Addresses the app asked the system to open in the default browser (`openExternal`). */
  opened: string[]
  /** The page's requests on the media scheme (element loads and fetches), oldest first. */
  mediaRequests: MediaRequestRecord[]
  /** The QR login window, while it is open. */
  loginPage(): Page | undefined
  /** Saves a screenshot under test-results/. */
  screenshot(name: string): Promise<string>
  close(): Promise<void>
}

const ROOT = resolve(import.meta.dirname, '../..')
const RENDERER_DIR = join(ROOT, 'out/renderer')
export const RESULTS_DIR = join(ROOT, 'test-results')

export { CHROMIUM_FLAGS, findChromium }

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

/**
 * Waits for the router's first navigation to finish. Until then vue-router does not listen to the
 * address (it sets its listener up once the first navigation is done, and that navigation then puts its
 * own path back), so a test setting `location.hash` right after the page loaded would be ignored on a
 * slow start. A page whose app never mounts is left as it is, for the test to see.
 */
async function routerReady(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () => {
        type Probe = { config: { globalProperties: { $router?: { isReady(): Promise<void> } } } }
        const root = document.querySelector('#app') as { __vue_app__?: Probe } | null
        const router = root?.__vue_app__?.config.globalProperties.$router
        const mark = window as { __cadenceRouterReady?: boolean }
        if (!router) return false
        void router.isReady().then(() => (mark.__cadenceRouterReady = true))
        return mark.__cadenceRouterReady === true
      },
      undefined,
      { timeout: 60_000, polling: 50 },
    )
    .catch(() => undefined)
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
    const builtinDir = options.pickFolder ? await mkdtemp(join(tmpdir(), 'cadence-e2e-')) : undefined
    if (builtinDir) cleanups.push(() => rm(builtinDir, { recursive: true, force: true }))
    if (!sourceUrl && !options.pickFolder) {
      const dataDir = await mkdtemp(join(tmpdir(), 'cadence-e2e-'))
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
      server = await startDataSource({
        ownerPassphrase: OWNER_PASSPHRASE,
        dataDir,
        port: 0,
        demo: options.demo ?? 300,
        ...options.server,
      })
      cleanups.push(() => server!.close())
      sourceUrl = server.url
    }

    // The page's fetches on the media scheme reach main's handler through the renderer's own origin,
    // streamed by Chromium's network stack as Electron's protocol.handle answers are (scheme-http.ts).
    const web = await serveStatic(RENDERER_DIR, (req, res) =>
      schemeOverHttp(MEDIA_SCHEME, recordedMedia)(req, res),
    )
    cleanups.push(() => web.close())
    const appUrl = web.url

    // The login window opens as a second page in the same context; closing it stops the QR flow.
    const opened: { context?: BrowserContext } = {}
    let loginPage: Page | undefined
    let closingLogin = false
    const windows = {
      openLogin() {
        if (loginPage || !opened.context) return
        void opened.context.newPage().then(async (login) => {
          loginPage = login
          login.on('close', () => {
            if (loginPage === login) loginPage = undefined
            if (!closingLogin) core.loginWindowClosed()
          })
          await scheme.attach(login)
          await login.goto(appUrl + '/index.html#/login').catch(() => {})
        })
      },
      closeLogin() {
        const open = loginPage
        loginPage = undefined
        if (!open) return
        closingLogin = true
        void open.close().finally(() => (closingLogin = false))
      },
    }

    const store = createMemoryStore(options.store)
    const copied: string[] = []
    const openedUrls: string[] = []
    const mediaRequests: MediaRequestRecord[] = []
    // Every request on the media scheme, from an element or from fetch, as main's handler answered it.
    const recordedMedia = async (request: Request) => {
      const response = await core.media(request)
      mediaRequests.push({
        url: request.url,
        range: request.headers.get('range') ?? undefined,
        status: response.status,
        contentRange: response.headers.get('content-range') ?? undefined,
      })
      return response
    }
    // Each app its own media cache (downloads, played copies): a test never finds another file's songs
    // already downloaded, whichever worker process it runs in.
    const mediaDir = options.mediaDir ?? (await mkdtemp(join(tmpdir(), 'cadence-e2e-media-')))
    if (!options.mediaDir) cleanups.push(() => rm(mediaDir, { recursive: true, force: true }))
    const core = createCore({
      builtinPassphrase: OWNER_PASSPHRASE,
      store,
      cipher: options.cipher ?? createTestCipher(),
      builtinSourceUrl: server?.url,
      ...(builtinDir && {
        spawnBuiltin: async (launch, _onExit, onLibrary) => {
          const handle = await startDataSource({
            dataDir: builtinDir,
            host: launch.host,
            port: launch.port,
            ownerPassphrase: launch.passphrase,
            instanceNonce: launch.nonce,
            demo: options.demo ?? 30,
            library: launch.library,
            libraryInBackground: true,
            watchLibrary: 300,
            onLibrary,
          })
          return {
            url: handle.url,
            stop: () => handle.close(),
            send: (m) =>
              void ((m as { type?: string }).type === 'library-cancel' && handle.cancelLibraryImport()),
          }
        },
        pickFolder: async () => options.pickFolder?.(),
      }),
      isTrustedSender: (url) => url.startsWith(appUrl + '/'),
      appInfo: { name: 'Cadence', version: '0.0.0-test', platform: process.platform },
      windows,
      listen: options.listen,
      mediaDir,
      fetch: options.fetch,
      lrclib: options.lrclib,
      discord: options.discord,
      copyText: (text) => void copied.push(text),
      openExternal: (url) => void openedUrls.push(url),
    })
    cleanups.push(() => core.dispose())
    if (builtinDir) cleanups.push(() => core.builtin.stop())
    if (!options.autoplay) core.settings.update({ autoplay: false })
    if (options.sourceUrl) {
      // A remote data source: added by URL and made active, signed out until the QR login.
      core.setBuiltin(undefined, 'failed')
      const trusted = { senderUrl: appUrl + '/index.html' }
      const added = await core.router.invoke('sources:add', { url: options.sourceUrl }, trusted)
      if (!added.ok) throw new Error(`Could not add ${options.sourceUrl}: ${added.error.message}`)
      await core.router.invoke('sources:activate', { id: (added.value as { id: string }).id }, trusted)
    }
    if (builtinDir) await core.builtin.start()
    await core.start()
    sourceUrl ??= core.sources.get('builtin')?.url ?? ''

    const browser = await chromium.launch({
      executablePath: findChromium(),
      args: [...CHROMIUM_FLAGS, ...(options.chromiumArgs ?? [])],
      headless: true,
      ...(options.audible ? { ignoreDefaultArgs: ['--mute-audio'] } : {}),
      ...(options.chromiumEnv ? { env: { ...process.env, ...options.chromiumEnv } } : {}),
    })
    cleanups.push(() => browser.close())
    const ctx = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 } })
    opened.context = ctx
    // One JSON string each way: Playwright's own value serialiser walks objects one by one and takes
    // seconds for a 10,000-song playlist; a string crosses CDP at once (as Electron's structured clone does).
    await ctx.exposeBinding(
      '__cadenceInvoke',
      async (source, channel: string, argsJson: string | undefined) =>
        JSON.stringify(
          await core.router.invoke(channel, argsJson === undefined ? undefined : JSON.parse(argsJson), {
            senderUrl: source.frame.url(),
          }),
        ),
    )
    // The media scheme, served by the core's handler as the glue's protocol.handle serves it.
    // (Its loads by elements, a cover kept on disk; fetches go over HTTP: above.)
    const scheme = interceptScheme(ctx, MEDIA_SCHEME, recordedMedia)
    await ctx.addInitScript({ content: await testPreload() })
    const page = await ctx.newPage()

    // Events from the core reach every page the way webContents.send reaches every window.
    const unsubscribe = core.events.subscribe((event, payload) => {
      for (const p of ctx.pages()) {
        void p
          .evaluate(([e, data]) => window.__cadenceEmit(e, data), [event, payload] as const)
          .catch(() => {})
      }
    })
    cleanups.push(unsubscribe)

    await scheme.attach(page)
    await page.goto(appUrl + '/index.html')
    await routerReady(page)
    return {
      page,
      context: ctx,
      browser,
      sourceUrl,
      server,
      core,
      appUrl,
      store,
      copied,
      opened: openedUrls,
      mediaRequests,
      loginPage: () => loginPage,
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
