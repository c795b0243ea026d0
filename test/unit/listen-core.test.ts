import { describe, expect, it, vi } from 'vitest'
import { createCore, createMemoryStore } from '@main/core'
import type { ListenPorts } from '@main/core/listen'
import { desktopLyricsBounds } from '@main/core/listen/desktop-lyrics'
import { MINI_PLAYER_SIZE, miniPlayerBounds } from '@main/core/listen/mini-player'
import { MAX_COVER_BYTES } from '@main/core/listen/track-notification'
import { buildTrayMenu } from '@main/core/tray/menu'
import { createTestCipher } from '../support/test-cipher'

const trusted = { senderUrl: 'file:///app/renderer/index.html' }
const area = { x: 0, y: 0, width: 1920, height: 1040 }

function fakePorts() {
  const lyrics = { open: vi.fn(), close: vi.fn(), setLocked: vi.fn() }
  const mini = { workArea: vi.fn(() => area), enter: vi.fn(), leave: vi.fn() }
  const notifier = { supported: vi.fn(() => true), appFocused: vi.fn(() => false), show: vi.fn() }
  const ports: ListenPorts = { desktopLyrics: lyrics, miniPlayer: mini, notifier }
  return { ports, lyrics, mini, notifier }
}

function core(ports: ListenPorts, fetch?: typeof globalThis.fetch) {
  const c = createCore({
    store: createMemoryStore(),
    cipher: createTestCipher(),
    isTrustedSender: (url) => url.startsWith('file:///app/'),
    appInfo: { name: 'Cadence', version: '0', platform: 'linux' },
    autoSignInBuiltin: false,
    // The covers below are the active (built-in) source's own: main fetches nothing else on loopback.
    builtinSourceUrl: 'http://127.0.0.1:9',
    listen: ports,
    fetch,
  })
  const events: Array<[string, unknown]> = []
  c.events.subscribe((event, payload) => events.push([event, payload]))
  return {
    core: c,
    events,
    invoke: (channel: string, args?: unknown) => c.router.invoke(channel as never, args, trusted),
  }
}

describe('desktop lyrics (core)', () => {
  it('opens the window from the setting, locks it, closes it; the tray and shortcut toggle the setting', async () => {
    const { ports, lyrics } = fakePorts()
    const { core: c, invoke } = core(ports)
    c.listen.desktopLyrics.start()
    expect(lyrics.open).not.toHaveBeenCalled()
    c.listen.desktopLyrics.toggle()
    expect(lyrics.open).toHaveBeenCalledWith(desktopLyricsBounds(area, 32))
    expect(lyrics.setLocked).toHaveBeenLastCalledWith(false)
    await invoke('settings:update', { lyrics: { desktopLocked: true } })
    expect(lyrics.setLocked).toHaveBeenLastCalledWith(true)
    expect(
      buildTrayMenu(null, { windowVisible: true, desktopLyrics: c.listen.desktopLyrics.isShown() }).find(
        (item) => item.type === 'normal' && item.id === 'desktop-lyrics',
      ),
    ).toMatchObject({ label: 'Hide desktop lyrics', action: { type: 'toggle-desktop-lyrics' } })
    c.listen.desktopLyrics.toggle()
    expect(lyrics.close).toHaveBeenCalledTimes(1)
    expect(c.settings.get().lyrics.desktop).toBe(false)
  })

  it('turns the setting off when the window is closed some other way', () => {
    const { ports } = fakePorts()
    const { core: c } = core(ports)
    c.listen.desktopLyrics.toggle()
    c.listen.desktopLyrics.closed()
    expect(c.settings.get().lyrics.desktop).toBe(false)
  })

  it('relays the reported line to every window and keeps the last for a window that opens late', async () => {
    const { ports } = fakePorts()
    const { events, invoke } = core(ports)
    const line = { current: 'First line', translation: 'Première', next: 'Second line' }
    expect(await invoke('lyrics:report-line', line)).toEqual({ ok: true, value: undefined })
    expect(events).toContainEqual(['lyrics:line', line])
    expect(await invoke('lyrics:current-line')).toEqual({ ok: true, value: line })
    const bad = await invoke('lyrics:report-line', { current: 'x'.repeat(501), next: '' })
    expect(bad.ok).toBe(false)
  })

  it('places the window centred near the bottom of the work area, sized by the font', () => {
    const bounds = desktopLyricsBounds({ x: 100, y: 0, width: 1600, height: 900 }, 32)
    expect(bounds.x + bounds.width / 2).toBe(100 + 800)
    expect(bounds.y + bounds.height).toBeLessThan(900)
    expect(desktopLyricsBounds(area, 64).height).toBeGreaterThan(bounds.height)
  })
})

describe('mini player (core)', () => {
  it('puts the main window in the top-right corner of its work area and back, and tells every window', async () => {
    const { ports, mini } = fakePorts()
    const { events, invoke } = core(ports)
    expect(await invoke('window:set-mini', { mini: true })).toEqual({ ok: true, value: { mini: true } })
    const bounds = mini.enter.mock.calls[0][0]
    expect(bounds).toEqual(miniPlayerBounds(area))
    expect(bounds.width).toBe(MINI_PLAYER_SIZE.width)
    expect(bounds.x + bounds.width).toBeLessThanOrEqual(area.width)
    expect(events).toContainEqual(['window:mode', { mini: true }])
    await invoke('window:set-mini', { mini: true })
    expect(mini.enter).toHaveBeenCalledTimes(1)
    expect(await invoke('window:set-mini', { mini: false })).toEqual({ ok: true, value: { mini: false } })
    expect(mini.leave).toHaveBeenCalledTimes(1)
  })

  it('stays a full window where there is no window to shrink', async () => {
    const { invoke } = core({})
    expect(await invoke('window:set-mini', { mini: true })).toEqual({ ok: true, value: { mini: false } })
  })
})

describe('track-change notification (core)', () => {
  const track = {
    id: 7,
    name: 'Song 7',
    artists: 'Artist 7',
    album: 'Album 7',
    cover: 'http://127.0.0.1/c/7.png',
  }
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47])
  const coverFetch = vi.fn(async () => new Response(png, { headers: { 'content-type': 'image/png' } }))

  it('is off by default', async () => {
    const { ports, notifier } = fakePorts()
    const { invoke } = core(ports, coverFetch as never)
    await invoke('notify:track-changed', track)
    expect(notifier.show).not.toHaveBeenCalled()
  })

  it('when on: shows the song with its cover, once per song, and not while Cadence has focus', async () => {
    const { ports, notifier } = fakePorts()
    const { invoke } = core(ports, coverFetch as never)
    await invoke('settings:update', { notifyTrackChange: true })
    await invoke('notify:track-changed', track)
    expect(notifier.show).toHaveBeenCalledWith({ title: 'Song 7', body: 'Artist 7 — Album 7', icon: png })
    await invoke('notify:track-changed', track)
    expect(notifier.show).toHaveBeenCalledTimes(1)
    notifier.appFocused.mockReturnValue(true)
    await invoke('notify:track-changed', { ...track, id: 8 })
    expect(notifier.show).toHaveBeenCalledTimes(1)
  })

  it('shows it without a cover that is not an image, too large, or unreachable', async () => {
    const { ports, notifier } = fakePorts()
    const answers = [
      new Response('<html>', { headers: { 'content-type': 'text/html' } }),
      new Response(png, {
        headers: { 'content-type': 'image/png', 'content-length': String(MAX_COVER_BYTES + 1) },
      }),
    ]
    const fetch = vi.fn(async () => {
      const next = answers.shift()
      if (!next) throw new TypeError('fetch failed')
      return next
    })
    const { invoke } = core(ports, fetch as never)
    await invoke('settings:update', { notifyTrackChange: true })
    for (const id of [1, 2, 3]) await invoke('notify:track-changed', { ...track, id })
    expect(notifier.show).toHaveBeenCalledTimes(3)
    for (const [shown] of notifier.show.mock.calls) expect(shown.icon).toBeUndefined()
  })

  it('uses the PNG the renderer drew before fetching anything', async () => {
    const { ports, notifier } = fakePorts()
    const fetch = vi.fn()
    const { invoke } = core(ports, fetch as never)
    await invoke('settings:update', { notifyTrackChange: true })
    const coverImage = `data:image/png;base64,${Buffer.from(png).toString('base64')}`
    expect(await invoke('notify:track-changed', { ...track, coverImage })).toEqual({
      ok: true,
      value: undefined,
    })
    expect(fetch).not.toHaveBeenCalled()
    expect(notifier.show.mock.calls[0][0].icon).toEqual(png)
  })

  it('refuses a cover address that is not http(s)', async () => {
    const { ports } = fakePorts()
    const { invoke } = core(ports)
    const answer = await invoke('notify:track-changed', { ...track, cover: 'file:///etc/passwd' })
    expect(answer.ok).toBe(false)
  })
})
