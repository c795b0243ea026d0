import type { App } from './harness'

/**
 * Screenshots of the current view in both themes (`<name>-dark.png`, `<name>-light.png` under
 * test-results/). The theme goes through the settings channel, as the settings view does.
 */
export async function shootBothThemes(app: App, name: string): Promise<void> {
  for (const theme of ['dark', 'light'] as const) {
    await app.page.evaluate((t) => window.cadence.invoke('settings:update', { theme: t }), theme)
    await app.page.locator(`html[data-theme="${theme}"]`).waitFor({ state: 'attached' })
    // Let images and transitions settle.
    await app.page.waitForTimeout(250)
    await app.screenshot(`${name}-${theme}`)
  }
}

/** What the data source answers, asked over plain HTTP (the ground truth for a test). */
export async function api<T>(app: App, path: string, token?: string): Promise<T> {
  const headers: Record<string, string> = token ? { Token: `Bearer ${token}` } : {}
  const answer = (await fetch(`${app.sourceUrl}${path}`, { headers }).then((r) => r.json())) as {
    code: number
    data: T
  }
  if (answer.code !== 0) throw new Error(`${path}: code ${answer.code}`)
  return answer.data
}
