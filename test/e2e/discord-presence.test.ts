import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rpcConnect } from '@main/core/discord'
import { startApp } from './harness'
import type { App } from './harness'
import { findSongs, playSongs, playable, waitForClock } from './playback-support'
import { discordSocketDir, startFakeDiscord } from '../support/fake-discord-ipc'
import type { FakeDiscord } from '../support/fake-discord-ipc'
import { manualTimers } from '../support/manual-timers'

/**
 * Discord Rich Presence from the real renderer: turned on in Settings (its status line), the song played
 * reaches a fake Discord as "Listening to" through the real core and client library; the reference
 * server's loopback cover is never sent.
 */

const APP_ID = '1234567890123456789'

describe('Discord Rich Presence from Settings', () => {
  let app: App
  let discord: FakeDiscord | undefined
  const socket = discordSocketDir()
  const timers = manualTimers()
  beforeAll(async () => {
    app = await startApp({
      discord: { appId: APP_ID, connect: rpcConnect({ socketDir: socket.dir }), timers },
    })
    await app.page.getByTestId('now-playing').waitFor()
  })
  afterAll(async () => {
    await app?.close()
    await discord?.close()
    socket.remove()
  })

  it('is off until turned on, says when Discord is not running, then shows the song playing', async () => {
    const { page } = app
    await page.getByTestId('nav-settings').click()
    const toggle = page.getByTestId('settings-discord-toggle')
    await toggle.waitFor({ state: 'attached', timeout: 20_000 })
    expect(await toggle.isChecked()).toBe(false)
    expect(app.core.settings.get().discordPresence).toBe(false)

    // Discord not running: a plain status line, no error.
    // The switch's label, as a person clicks it (the checkbox itself lies invisibly over the drawn track).
    await page.getByText('Show what I’m listening to on Discord').click()
    const status = page.getByTestId('settings-discord-status')
    await expect
      .poll(() => status.innerText(), { timeout: 20_000 })
      .toBe('Discord is not running. Cadence connects when it starts.')
    expect(app.core.settings.get().discordPresence).toBe(true)

    // Discord starts: the next try connects.
    discord = await startFakeDiscord(socket.dir)
    await expect.poll(() => timers.delays(), { timeout: 20_000 }).toContain(2000)
    timers.fire(2000)
    await expect.poll(() => status.innerText(), { timeout: 20_000 }).toBe('Connected to Discord.')

    const [song] = await findSongs(app, 1, (s) => playable(s) && (s.album?.name ?? '') !== '')
    await playSongs(page, [song])
    await waitForClock(page, 0.2)
    const sets = () => discord!.commands().filter((c) => c.cmd === 'SET_ACTIVITY' && c.args.activity)
    await expect.poll(() => sets().length, { timeout: 30_000 }).toBeGreaterThan(0)
    const activity = sets().at(-1)!.args.activity as Record<string, unknown>
    expect(activity).toMatchObject({ type: 2, details: song.name, assets: { large_text: song.album!.name } })
    // The reference server's cover is on loopback: never sent to Discord.
    expect(JSON.stringify(activity)).not.toContain('large_image')
    const times = activity.timestamps as { start: number; end: number }
    expect(times.end - times.start).toBe(
      Math.round(
        await page.evaluate(() => {
          const root = document.querySelector('#app') as unknown as {
            __vue_app__: {
              config: { globalProperties: { $pinia: { _s: Map<string, { durationMs: number }> } } }
            }
          }
          return root.__vue_app__.config.globalProperties.$pinia._s.get('player')!.durationMs
        }),
      ),
    )
  })
})
