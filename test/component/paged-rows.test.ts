import { describe, expect, it } from 'vitest'
import type { Song } from '@shared/api/models'
import type { PlaylistRows } from '@shared/ipc/contract'
import { KEPT_PAGES, ROWS_BULK, ROWS_PAGE, createPagedRows } from '@renderer/stores/paged-rows'

const song = (i: number) => ({ id: i, name: `Song ${i}`, tns: [], artists: [] }) as unknown as Song
const frame = () => new Promise((resolve) => setTimeout(resolve, 40))

/** A list of `total` songs in main; every request is recorded and answered when `release` is called. */
function fakeMain(total: number) {
  const asked: Array<[number, number]> = []
  const pending: Array<() => void> = []
  const fetch = (offset: number, limit: number) => {
    asked.push([offset, limit])
    return new Promise<PlaylistRows>((resolve) =>
      pending.push(() =>
        resolve({
          total,
          offset,
          rows: Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) =>
            song(offset + i),
          ),
        }),
      ),
    )
  }
  const release = () => pending.splice(0).forEach((answer) => answer())
  return { asked, fetch, release }
}

describe('paged rows', () => {
  it('starts with the first rows and holes for the rest', () => {
    const main = fakeMain(1000)
    const list = createPagedRows(main.fetch)
    list.reset(1000, [song(0), song(1)])
    expect(list.rows.value).toHaveLength(1000)
    expect(list.rows.value[1]?.name).toBe('Song 1')
    expect(list.rows.value[2]).toBeUndefined()
  })

  it('asks once for each page in view, and publishes the rows when they arrive', async () => {
    const main = fakeMain(10_000)
    const list = createPagedRows(main.fetch)
    list.reset(
      10_000,
      Array.from({ length: ROWS_PAGE }, (_, i) => song(i)),
    )
    const first = list.ensure(150, 450)
    void list.ensure(300, 420)
    expect(main.asked).toEqual([
      [ROWS_PAGE, ROWS_PAGE],
      [2 * ROWS_PAGE, ROWS_PAGE],
    ])
    main.release()
    await first
    await frame()
    expect(list.rows.value[449]?.name).toBe('Song 449')
    expect(list.rows.value[600]).toBeUndefined()
    void list.ensure(0, 500)
    expect(main.asked).toHaveLength(2)
  })

  it('fetches every missing row in bulk for the whole list, waiting for pages already on their way', async () => {
    const main = fakeMain(5_000)
    const list = createPagedRows(main.fetch)
    list.reset(
      5_000,
      Array.from({ length: ROWS_PAGE }, (_, i) => song(i)),
    )
    void list.ensure(4_900, 5_000)
    const all = list.all()
    await Promise.resolve()
    expect(main.asked).toEqual([
      [4_800, ROWS_PAGE],
      [0, ROWS_BULK],
      [ROWS_BULK, ROWS_BULK],
      [2 * ROWS_BULK, 1_000],
    ])
    main.release()
    const songs = await all
    expect(songs).toHaveLength(5_000)
    expect(songs.map((s) => s.id)).toEqual(Array.from({ length: 5_000 }, (_, i) => i))
  })

  it('drops answers for a list that was started anew', async () => {
    const main = fakeMain(1_000)
    const list = createPagedRows(main.fetch)
    list.reset(1_000, [])
    const late = list.ensure(0, 10)
    list.reset(3, [song(7), song(8), song(9)])
    main.release()
    await late
    await frame()
    expect(list.rows.value.map((s) => s?.id)).toEqual([7, 8, 9])
  })

  it('lets go of the pages farthest from view beyond the ones it keeps, and asks for them again', async () => {
    const total = (KEPT_PAGES + 20) * ROWS_PAGE
    const main = fakeMain(total)
    const list = createPagedRows(main.fetch)
    list.reset(
      total,
      Array.from({ length: ROWS_PAGE }, (_, i) => song(i)),
    )
    // Scrolls down page by page, every page arriving at once.
    for (let page = 1; page < KEPT_PAGES + 20; page++) {
      const arrived = list.ensure(page * ROWS_PAGE, (page + 1) * ROWS_PAGE)
      main.release()
      await arrived
    }
    await frame()
    const rows = list.rows.value
    const held = rows.filter(Boolean).length
    // The first rows stay; of the pages that arrived while scrolling, the last KEPT_PAGES stay.
    expect(held).toBe((KEPT_PAGES + 1) * ROWS_PAGE)
    expect(rows[0]?.name).toBe('Song 0')
    expect(rows[ROWS_PAGE]).toBeUndefined()
    expect(rows[total - 1]?.name).toBe(`Song ${total - 1}`)
    // Back up: the page let go is asked for again.
    main.asked.length = 0
    const back = list.ensure(ROWS_PAGE, 2 * ROWS_PAGE)
    expect(main.asked).toEqual([[ROWS_PAGE, ROWS_PAGE]])
    main.release()
    await back
    await frame()
    expect(list.rows.value[ROWS_PAGE]?.name).toBe(`Song ${ROWS_PAGE}`)
    // What is in view was not let go for it.
    expect(list.rows.value[ROWS_PAGE + 1]?.name).toBe(`Song ${ROWS_PAGE + 1}`)
  })

  it('keeps every row once the whole list was asked for (play all)', async () => {
    const total = (KEPT_PAGES + 20) * ROWS_PAGE
    const main = fakeMain(total)
    const list = createPagedRows(main.fetch)
    list.reset(total, [])
    const all = list.all()
    for (let i = 0; i < 20; i++) {
      main.release()
      await Promise.resolve()
      await new Promise((resolve) => setTimeout(resolve, 0))
    }
    expect(await all).toHaveLength(total)
    await frame()
    expect(list.rows.value.filter(Boolean)).toHaveLength(total)
  })
})
