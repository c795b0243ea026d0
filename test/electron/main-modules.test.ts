import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchApp } from './harness'
import type { StandInApp } from './harness'

/** Packages under node_modules that the stand-in's process resolved, by name (scoped names kept whole). */
async function loadedPackages(app: StandInApp): Promise<Set<string>> {
  const id = `modules-${app.records.length}`
  app.send({ type: 'modules', id })
  const { data } = await app.waitFor('modules', (d) => (d as { id?: string }).id === id)
  const names = (data as { urls: string[] }).urls.flatMap((url) => {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)
    return match ? [match[1]] : []
  })
  return new Set(names)
}

/**
 * What the built main loads at start, as the stand-in resolves it: modules a rare feature needs are
 * loaded when that feature is used, so main's memory at start holds only what it runs.
 */
describe('the built main at start', () => {
  let app: StandInApp
  beforeAll(async () => {
    app = await launchApp()
    const page = await app.mainPage()
    await page.getByTestId('playlist-card').first().waitFor({ timeout: 60_000 })
  }, 120_000)
  afterAll(() => app?.close())

  it('loads what it runs (electron-store for its settings) and not the QR renderer, the updater or zod as a package', async () => {
    const packages = await loadedPackages(app)
    expect(packages).toContain('electron-store')
    // The QR code is drawn only for a source whose key comes without an image.
    expect(packages).not.toContain('qrcode')
    // A development build never updates itself: electron-updater and its libraries stay on disk.
    expect(packages).not.toContain('electron-updater')
    expect(packages).not.toContain('builder-util-runtime')
    // zod is bundled with the schemas that use it, without the package's 40 locales.
    expect(packages).not.toContain('zod')
  })
})
