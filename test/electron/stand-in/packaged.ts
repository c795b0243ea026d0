import type { BrowserContext, Page } from 'playwright-core'
import { locate } from './asar-rules.ts'

/**
 * The stand-in started as an installed app (`packaged-boot.ts`, which the packaged launcher runs): where
 * the app lies, as Electron reports it (`app.getAppPath()` is `resources/app.asar`, `app.isPackaged` is
 * true, `process.resourcesPath` is `resources`), and Electron's file protocol reading inside the archive
 * for the windows. Undefined when the stand-in runs the working tree's `out/main/index.js`.
 */
export interface PackagedApp {
  appPath: string
  resourcesPath: string
}

const KEY = Symbol.for('cadence.standin.packaged')

export function packagedApp(): PackagedApp | undefined {
  return (globalThis as Record<symbol, PackagedApp | undefined>)[KEY]
}
export function setPackagedApp(info: PackagedApp): void {
  ;(globalThis as Record<symbol, PackagedApp | undefined>)[KEY] = info
}

/** The environment variable that hands `process.resourcesPath` to a utility process's `asar-register.ts`. */
export const RESOURCES_ENV = 'CADENCE_STANDIN_RESOURCES_PATH'

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.cjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.wasm': 'application/wasm',
}

/**
 * Electron's `file:` protocol reads inside an archive (and its `.unpacked` folder); Chromium's does not.
 * For a packaged app the window's page answers `file:` requests into an archive from the archive itself
 * (DevTools' Fetch domain), and leaves every other request alone. A missing file fails the request.
 */
export async function serveArchives(context: BrowserContext, page: Page): Promise<void> {
  if (!packagedApp()) return
  const cdp = await context.newCDPSession(page)
  cdp.on('Fetch.requestPaused', (event: { requestId: string; request: { url: string } }) => {
    const path = decodeURIComponent(new URL(event.request.url).pathname)
    const found = locate(path)
    const entry = found?.archive.find(found.inner)
    if (!found) {
      void cdp.send('Fetch.continueRequest', { requestId: event.requestId }).catch(() => {})
    } else if (!entry || entry.kind !== 'file') {
      void cdp
        .send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'Failed' })
        .catch(() => {})
    } else {
      const ext = /\.[^./]+$/.exec(path)?.[0] ?? ''
      void cdp
        .send('Fetch.fulfillRequest', {
          requestId: event.requestId,
          responseCode: 200,
          responseHeaders: [{ name: 'Content-Type', value: TYPES[ext] ?? 'application/octet-stream' }],
          body: found.archive.read(found.inner).toString('base64'),
        })
        .catch(() => {})
    }
  })
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: 'file://*', requestStage: 'Request' }] })
}
