import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { launchApp } from './harness'
import type { StandInApp } from './harness'

type Fork = { args: string[] }
const hostOf = (fork: Fork) => fork.args[fork.args.indexOf('--host') + 1]

/** 127.0.0.2 plays another device: it reaches a server bound to 0.0.0.0, not one bound to 127.0.0.1. */
async function reachableFromNetwork(port: string): Promise<number | 'refused'> {
  try {
    return (await fetch(`http://127.0.0.2:${port}/health`)).status
  } catch {
    return 'refused'
  }
}

describe('the built app under the stand-in Electron: "Let my phone sign in"', () => {
  let app: StandInApp
  let page: Page
  beforeAll(async () => {
    app = await launchApp()
    page = await app.mainPage()
    await page.getByTestId('playlist-card').first().waitFor()
  })
  afterAll(() => app?.close())

  const builtinPort = () =>
    page.evaluate(async () => {
      const list = await window.cadence.invoke('sources:list')
      return new URL(list.sources.find((s) => s.builtin)!.url).port
    })

  it('relaunches the built-in source on the network from Settings, shows the passphrase, and stays signed in', async () => {
    expect((app.all('utility-fork') as Fork[]).map(hostOf)).toEqual(['127.0.0.1'])
    expect(await reachableFromNetwork(await builtinPort())).toBe('refused')

    await page.evaluate(() => (location.hash = '#/settings'))
    await page.getByText('Let my phone sign in', { exact: true }).click()
    // Main asked in its own dialog first (the stand-in answers with the first button, "Open to the network").
    await app.waitFor(
      'message-box',
      (data) => (data as { title?: string }).title === 'Let your phone sign in?',
    )
    await app.waitFor('utility-fork', (data) => hostOf(data as Fork) === '0.0.0.0')
    // Listening again: the address (or, on a machine without a network, the note saying so) is shown.
    await page.locator('[data-testid="phone-address"], [data-testid="phone-no-address"]').first().waitFor()
    expect(await reachableFromNetwork(await builtinPort())).toBe(200)

    // Main answers the passphrase to the call the click makes.
    await page.getByTestId('phone-reveal').click()
    await expect
      .poll(() => page.getByTestId('phone-passphrase').innerText(), { timeout: 10_000 })
      .toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/)
    // The network start's passphrase revoked the app's credential: it signs itself in again by itself.
    await expect
      .poll(async () => (await page.evaluate(() => window.cadence.invoke('auth:status'))).status, {
        timeout: 20_000,
      })
      .toBe('signed-in')

    const before = app.records.length
    await page.getByText('Let my phone sign in', { exact: true }).click()
    await app.waitFor(
      'utility-fork',
      (data, index) => index >= before && hostOf(data as Fork) === '127.0.0.1',
    )
    await page.getByTestId('phone-access').waitFor({ state: 'detached' })
    await expect
      .poll(
        () =>
          page.evaluate(async () => {
            const list = await window.cadence.invoke('sources:list')
            return list.sources.find((s) => s.builtin)?.state
          }),
        { timeout: 30_000 },
      )
      .toBe('ready')
    expect(await reachableFromNetwork(await builtinPort())).toBe('refused')
  })
})
