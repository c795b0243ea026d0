import { mkdir } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'

describe('Home', () => {
  let app: App
  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    app = await startApp()
  })
  afterAll(() => app?.close())

  it('shows the recommended playlists that the data source serves', async () => {
    // What the server's database says, asked over plain HTTP.
    const answer = await fetch(`${app.sourceUrl}/playlist/recommend?limit=12`).then((r) => r.json())
    const expected: string[] = answer.data.map((p: { name: string }) => p.name)
    expect(expected.length).toBeGreaterThan(0)

    const cards = app.page.getByTestId('home-playlists').getByTestId('playlist-card')
    await cards.first().waitFor()
    await expect.poll(() => cards.locator('h3').allTextContents(), { timeout: 10_000 }).toEqual(expected)
    await app.screenshot('home')
  })

  it('keeps the credential channel closed to the page: window.cadence exposes functions only', async () => {
    const shape = await app.page.evaluate(() =>
      Object.entries(window.cadence).map(([key, value]) => `${key}:${typeof value}`),
    )
    expect(shape.sort()).toEqual(['invoke:function', 'on:function'])
  })
})
