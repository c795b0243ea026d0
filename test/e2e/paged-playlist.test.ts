import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import type { PlaylistHead, PlaylistRows } from '@shared/ipc/contract'
import { startApp } from './harness'
import type { App } from './harness'

/**
 * A 10,000-song playlist on the paged path: main answers the header and the first rows, the list asks
 * for the rest as it scrolls, play all, shuffle and search in the playlist work on the whole list, and a
 * reopen shows the rows already here at once.
 */

const BIG = 'The Big Archive'

describe('A long playlist, a page at a time', () => {
  let app: App
  let id: string
  const calls: Array<{ channel: string; args: unknown }> = []
  /** While set, `catalog:playlist` answers only after it resolves (a slow refresh behind a reopen). */
  let hold: Promise<void> | undefined
  /** While set, `catalog:playlist-rows` answers only after it resolves (pages on a slow source). */
  let holdRows: Promise<void> | undefined

  const sender = () => ({ senderUrl: `${app.appUrl}/index.html` })
  const core = async <T>(
    channel: 'catalog:playlist' | 'catalog:playlist-rows',
    args: unknown,
  ): Promise<T> => {
    const answer = await app.core.router.invoke(channel, args, sender())
    if (!answer.ok) throw new Error(answer.error.message)
    return answer.value as T
  }
  /**
   * Reads `read` (an expression over `s`, the store) from one of the renderer's Pinia stores. Evaluated
   * over CDP, which the page's CSP does not govern.
   */
  const store = <T>(name: string, read: string): Promise<T> =>
    app.page.evaluate(
      `(() => { const s = document.querySelector('#app').__vue_app__.config.globalProperties.$pinia._s.get(${JSON.stringify(name)}); return ${read} })()`,
    ) as Promise<T>
  const rowCount = (channel: string) => calls.filter((c) => c.channel === channel).length

  beforeAll(async () => {
    app = await startApp({ demo: 10_000 })
    const invoke = app.core.router.invoke.bind(app.core.router)
    app.core.router.invoke = (async (channel: string, args: unknown, context: { senderUrl: string }) => {
      calls.push({ channel, args })
      if (channel === 'catalog:playlist' && hold) await hold
      if (channel === 'catalog:playlist-rows' && holdRows) await holdRows
      return invoke(channel, args, context)
    }) as typeof app.core.router.invoke
    await app.page.getByTestId('sidebar-account').waitFor({ timeout: 60_000 })
    await app.page.getByTestId('nav-library').click()
    await app.page.getByTestId('playlist-card').filter({ hasText: BIG }).first().click()
    await app.page.getByTestId('playlist-name').getByText(BIG).waitFor()
    id = decodeURIComponent(new URL(app.page.url()).hash.split('/').pop()!)
  })
  afterAll(() => app?.close())

  it('opens with the header and the first rows; main sends only those', async () => {
    const { page } = app
    await expect.poll(() => page.getByTestId('playlist-count').textContent()).toBe('10,000 songs')
    await expect
      .poll(() => page.locator('[role="grid"]').getAttribute('aria-rowcount'), { timeout: 10_000 })
      .toBe('10000')
    const head = await core<PlaylistHead>('catalog:playlist', { id })
    expect(head.total).toBe(10_000)
    expect(head.rows.length).toBeGreaterThanOrEqual(40)
    expect(head.rows.length).toBeLessThan(1000)
    // Rows carry what rows show: no artist avatars, no album artists, no media URL or lyrics.
    const row = head.rows[0]
    expect(row.artists[0]).not.toHaveProperty('avatar', expect.anything())
    expect(row.album).not.toHaveProperty('artists')
    expect(row.meta?.url).toBeUndefined()
    const first = page.locator('main [data-testid="song-row"]').first()
    await expect
      .poll(() => first.getByTestId('song-name').innerText(), { timeout: 10_000 })
      .toBe(head.rows[0].name)
    // The store holds the first rows and nothing more yet than the pages the list asked for.
    const loaded = await store<number>('playlist', 's.rows.filter(Boolean).length')
    expect(loaded).toBeLessThan(10_000)
  })

  it('keeps the keyboard focus on a row that has not arrived yet (End, Page Down), and on it once it does', async () => {
    const { page } = app
    let release!: () => void
    holdRows = new Promise((done) => (release = done))
    try {
      await page.locator('main [data-testid="song-row"]').first().getByTestId('song-name').click()
      const focused = () =>
        page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null
          return { index: el?.dataset.index, testid: el?.dataset.testid }
        })
      await page.keyboard.press('End')
      await expect.poll(focused).toEqual({ index: '9999', testid: 'song-row-placeholder' })
      await page.keyboard.press('PageUp')
      const up = Number((await focused()).index)
      expect(up).toBeLessThan(9999)
      expect(up).toBeGreaterThan(9900)
      expect((await focused()).testid).toBe('song-row-placeholder')
      // The pages arrive: the same row keeps the focus, now with its song.
      release()
      await expect.poll(focused).toEqual({ index: String(up), testid: 'song-row' })
      await page.keyboard.press('ArrowDown')
      await expect.poll(focused).toEqual({ index: String(up + 1), testid: 'song-row' })
    } finally {
      holdRows = undefined
      release()
    }
  })

  it('scrolls to the end: the last rows arrive and show the last songs', async () => {
    const { page } = app
    const [last] = (await core<PlaylistRows>('catalog:playlist-rows', { id, offset: 9_999, limit: 1 })).rows
    await page.evaluate(() => {
      const main = document.querySelector<HTMLElement>('.app-main')!
      main.scrollTop = main.scrollHeight
    })
    const lastRow = page.locator('main [data-testid="song-row"][aria-rowindex="10000"]')
    await lastRow.waitFor()
    await expect.poll(() => lastRow.getByTestId('song-name').innerText(), { timeout: 10_000 }).toBe(last.name)
    await expect.poll(() => page.locator('main [data-testid="song-row-placeholder"]').count()).toBe(0)
    await expect
      .poll(() => page.locator('main [data-testid="song-row"]').count(), { timeout: 10_000 })
      .toBeLessThanOrEqual(100)
    // Only the pages in view were asked for, not the whole list.
    const loaded = await store<number>('playlist', 's.rows.filter(Boolean).length')
    expect(loaded).toBeLessThan(2_000)
  })

  it('plays all: the whole list is queued, in order, without the songs that cannot play', async () => {
    const { page } = app
    await page.evaluate(() => document.querySelector<HTMLElement>('.app-main')!.scrollTo(0, 0))
    await page.getByTestId('play-all').click()
    await expect
      .poll(() => store<number>('queue', 's.songs.length'), { timeout: 20_000 })
      .toBeGreaterThan(9_000)
    const all: Song[] = []
    for (let offset = 0; offset < 10_000; offset += 2000) {
      all.push(...(await core<PlaylistRows>('catalog:playlist-rows', { id, offset, limit: 2000 })).rows)
    }
    const playable = all.filter((s) => s.privilege?.playable !== false)
    await expect
      .poll(() => store<number>('queue', 's.songs.length'), { timeout: 10_000 })
      .toBe(playable.length)
    const ids = await store<string[]>('queue', 's.songs.map((x) => String(x.id))')
    expect(ids).toEqual(playable.map((s) => String(s.id)))
    expect(await store<boolean>('queue', 's.shuffle')).toBe(false)
  })

  it('shuffles: the whole list is queued with shuffle on', async () => {
    const { page } = app
    await page.getByTestId('shuffle').click()
    await expect.poll(() => store<boolean>('queue', 's.shuffle')).toBe(true)
    const ids = await store<string[]>('queue', 's.songs.map((x) => String(x.id))')
    expect(ids.length).toBeGreaterThan(9_000)
    expect(new Set(ids).size).toBe(ids.length)
    await store('player', 's.setShuffle(false)')
  })

  it('searches in the playlist over the whole list, and plays from a match', async () => {
    const { page } = app
    // A song far down the list, found by its name.
    const [deep] = (await core<PlaylistRows>('catalog:playlist-rows', { id, offset: 9_321, limit: 1 })).rows
    const words = deep.name
    const expected = await core<PlaylistRows>('catalog:playlist-rows', {
      id,
      offset: 0,
      limit: 2000,
      query: words,
    })
    expect(expected.rows.map((r) => String(r.id))).toContain(String(deep.id))
    await page.getByTestId('playlist-filter').fill(words)
    await page.getByTestId('playlist-filter').press('Enter')
    // Main reads every song of the 10,000 to search them: on a busy machine that takes seconds.
    await expect
      .poll(() => page.locator('[role="grid"]').getAttribute('aria-rowcount'), { timeout: 15_000 })
      .toBe(String(expected.total))
    const shown = page.locator('main [data-testid="song-row"] [data-testid="song-name"]')
    // The rows as they were when the match showed (read again, they could be between two renders: an
    // empty list was once read here under load).
    let names: string[] = []
    await expect
      .poll(async () => (names = await shown.allInnerTexts()), { timeout: 15_000 })
      .toContain(deep.name)
    // The matches shown are main's, in the playlist's order.
    expect(names).toEqual(expected.rows.slice(0, names.length).map((r) => r.name || 'Untitled'))
    expect(names).toContain(deep.name)
    expect(await page.getByTestId('playlist-match-count').textContent()).toMatch(
      new RegExp(`^${expected.total.toLocaleString('en')} of 10,000 songs match`),
    )

    const match = page.locator('main [data-testid="song-row"]:not([aria-disabled])').first()
    const name = await match.getByTestId('song-name').innerText()
    await match.getByTestId('song-name').dblclick()
    await page.getByTestId('player-title').getByText(name, { exact: true }).waitFor()
    await expect
      .poll(() => store<number>('queue', 's.songs.length'), { timeout: 10_000 })
      .toBe(expected.total)

    // Nothing matches: said so.
    await page.getByTestId('playlist-filter').fill('zzzz no such song qqqq')
    await page.getByTestId('playlist-filter').press('Enter')
    await page.getByTestId('playlist-no-matches').waitFor()
    await page.getByTestId('playlist-filter').fill('')
    await expect.poll(() => page.locator('[role="grid"]').getAttribute('aria-rowcount')).toBe('10000')
  })

  it('sorts the whole list by duration, longest first, and back to the playlist order', async () => {
    const { page } = app
    const expected = await core<PlaylistRows>('catalog:playlist-rows', {
      id,
      offset: 0,
      limit: 5,
      sort: { by: 'duration', descending: true },
    })
    await page.getByTestId('playlist-sort').selectOption('duration')
    await page.getByTestId('playlist-sort-direction').click()
    // Main sorts the whole list (every song read): seconds on a busy machine. The rows are taken as they
    // were when the first one showed (read again, they could be between two renders).
    const shown = page.locator('main [data-testid="song-row"] [data-testid="song-name"]')
    let names: string[] = []
    await expect
      .poll(async () => (names = await shown.allInnerTexts())[0], { timeout: 15_000 })
      .toBe(expected.rows[0].name || 'Untitled')
    expect(names.slice(0, 5)).toEqual(expected.rows.map((r) => r.name || 'Untitled'))
    await expect
      .poll(() => page.locator('[role="grid"]').getAttribute('aria-rowcount'), { timeout: 10_000 })
      .toBe('10000')
    const durations = expected.rows.map((r) => r.duration ?? 0)
    expect([...durations].sort((a, b) => b - a)).toEqual(durations)

    await page.getByTestId('playlist-sort').selectOption('')
    const [first] = (await core<PlaylistRows>('catalog:playlist-rows', { id, offset: 0, limit: 1 })).rows
    await expect
      .poll(
        () => page.locator('main [data-testid="song-row"] [data-testid="song-name"]').first().innerText(),
        {
          timeout: 15_000,
        },
      )
      .toBe(first.name || 'Untitled')
  })

  it('reopens from the store at once, with the rows already here, while the refresh is still on its way', async () => {
    const { page } = app
    await page.getByTestId('nav-home').click()
    await page.getByTestId('playlist-card').first().waitFor()
    let release!: () => void
    hold = new Promise<void>((resolve) => (release = resolve))
    const before = calls.length
    try {
      await page.goBack()
      await page.getByTestId('playlist-name').getByText(BIG).waitFor()
      // The refresh is held in main: what shows came from the store.
      expect(calls.slice(before).filter((c) => c.channel === 'catalog:playlist')).toHaveLength(1)
      const rows = page.locator('main [data-testid="song-row"]')
      await rows.first().waitFor()
      await expect
        .poll(() => page.locator('main [data-testid="song-row-placeholder"]').count(), { timeout: 10_000 })
        .toBe(0)
      await expect
        .poll(() => store<number>('playlist', 's.rows.filter(Boolean).length'), { timeout: 10_000 })
        .toBe(10_000)
    } finally {
      release()
      hold = undefined
    }
    // The refresh answers the same list: its rows stay, none is asked for again while scrolling.
    await expect.poll(() => store<string>('playlist', 's.detail.status')).toBe('ready')
    const asked = rowCount('catalog:playlist-rows')
    await page.evaluate(() => {
      const main = document.querySelector<HTMLElement>('.app-main')!
      main.scrollTop = main.scrollHeight / 2
    })
    await page.locator('main [data-testid="song-row"]').first().waitFor()
    await expect
      .poll(() => page.locator('main [data-testid="song-row-placeholder"]').count(), { timeout: 10_000 })
      .toBe(0)
    expect(rowCount('catalog:playlist-rows')).toBe(asked)
  })
})
