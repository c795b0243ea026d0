import { shallowRef } from 'vue'
import type { ShallowRef } from 'vue'
import type { Song } from '@shared/api/models'
import type { PlaylistRows } from '@shared/ipc/contract'
import { toCadenceError } from '@renderer/services/cadence-error'

/** Rows asked of main at once while the list scrolls. */
export const ROWS_PAGE = 200
/** Rows asked at once when the whole list is wanted (play all, shuffle, play from a row). */
export const ROWS_BULK = 2000
/**
 * Pages kept while the list scrolls (10,000 rows); the farthest from the last arrival are let go and asked
 * for again if they come back into view. Holding every row of a 100,000-song list that scrolled by grew the
 * heap through it, with a major GC of 40–75 ms every few seconds of scrolling.
 */
export const KEPT_PAGES = 50

export interface PagedRows {
  /** One slot per song of the list: a row once it has arrived, `undefined` before. */
  rows: ShallowRef<ReadonlyArray<Song | undefined>>
  /** Starts the list anew with its length and its first rows. */
  reset(total: number, first: readonly Song[]): void
  /** Asks for the rows in `[start, end)` that have not arrived nor been asked for. */
  ensure(start: number, end: number): Promise<void>
  /** Every row, once they have all arrived (asked for in bulk, a few requests at a time). */
  all(): Promise<Song[]>
}

/**
 * The renderer's side of a list main keeps: a sparse array of rows, filled by the pages the list asks for
 * as it scrolls. Arrivals within one frame are published together.
 *
 * What is published is a new view of the same array, not a copy: copying a 100,000-slot array for every
 * page that arrived made so much garbage while the list scrolled that major GCs took frames of 40–75 ms
 * (seen in a Chromium trace). A new view is a new value for Vue (the list renders again) at no cost; it
 * reads the array as it is now, so an earlier view sees later arrivals too.
 */
export function createPagedRows(fetch: (offset: number, limit: number) => Promise<PlaylistRows>): PagedRows {
  const rows = shallowRef<ReadonlyArray<Song | undefined>>([])
  let slots: Array<Song | undefined> = []
  let generation = 0
  /** Pages (of ROWS_PAGE) arrived or on their way. */
  let pages = new Map<number, Promise<void>>()
  let publishing = false
  /** Pages that arrived while scrolling, which may be let go again (the first rows stay). */
  let arrived = new Set<number>()
  /** Once the whole list was asked for (play all), it is kept: the queue holds every song anyway. */
  let keepAll = false
  /** The pages the list last asked for (what is in view): never let go. */
  let wanted = { from: 0, to: 0 }
  /** A new value for the same slots: an array in every way that matters (`Array.isArray`, index, length). */
  const view = (): ReadonlyArray<Song | undefined> => new Proxy(slots, {})

  function publish() {
    if (publishing) return
    publishing = true
    const flush = () => {
      publishing = false
      rows.value = view()
    }
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(flush)
    else queueMicrotask(flush)
  }

  function reset(total: number, first: readonly Song[]) {
    generation++
    slots = new Array<Song | undefined>(total)
    for (let i = 0; i < Math.min(first.length, total); i++) slots[i] = first[i]
    pages = new Map()
    arrived = new Set()
    keepAll = false
    wanted = { from: 0, to: 0 }
    const done = Promise.resolve()
    for (let page = 0; page * ROWS_PAGE < total; page++) {
      if (Math.min((page + 1) * ROWS_PAGE, total) <= first.length) pages.set(page, done)
    }
    rows.value = view()
  }

  /** Asks for `count` pages from `page` in one request. */
  function load(page: number, count: number): Promise<void> {
    const mine = generation
    const mineMap = pages
    const request = fetch(page * ROWS_PAGE, count * ROWS_PAGE).then(
      (answer) => {
        if (mine !== generation) return
        for (let i = 0; i < answer.rows.length; i++) slots[answer.offset + i] = answer.rows[i]
        for (let p = page; p < page + count; p++) arrived.add(p)
        letGo()
        publish()
      },
      (cause: unknown) => {
        for (let p = page; p < page + count; p++) if (mineMap.get(p) === request) mineMap.delete(p)
        throw toCadenceError(cause)
      },
    )
    for (let p = page; p < page + count; p++) pages.set(p, request)
    return request
  }

  const pageCount = () => Math.ceil(slots.length / ROWS_PAGE)

  /** Lets go of the arrived pages farthest from what is in view, beyond `KEPT_PAGES`. */
  function letGo() {
    if (keepAll || arrived.size <= KEPT_PAGES) return
    const distance = (page: number) =>
      page < wanted.from ? wanted.from - page : page >= wanted.to ? page - wanted.to + 1 : 0
    const farthest = [...arrived].sort((a, b) => distance(b) - distance(a))
    for (const page of farthest.slice(0, arrived.size - KEPT_PAGES)) {
      if (distance(page) === 0) break
      arrived.delete(page)
      pages.delete(page)
      slots.fill(undefined, page * ROWS_PAGE, Math.min((page + 1) * ROWS_PAGE, slots.length))
    }
  }

  async function ensure(start: number, end: number) {
    const from = Math.max(0, Math.floor(start / ROWS_PAGE))
    const to = Math.min(pageCount(), Math.ceil(end / ROWS_PAGE))
    wanted = { from, to }
    const waits = new Set<Promise<void>>()
    for (let page = from; page < to; page++) waits.add(pages.get(page) ?? load(page, 1))
    await Promise.all(waits)
  }

  async function all(): Promise<Song[]> {
    const mine = generation
    keepAll = true
    const perBulk = ROWS_BULK / ROWS_PAGE
    const groups: number[] = []
    for (let page = 0; page < pageCount(); page += perBulk) {
      for (let p = page; p < Math.min(page + perBulk, pageCount()); p++) {
        if (!pages.has(p)) {
          groups.push(page)
          break
        }
      }
    }
    // A few requests at a time: main answers one while the others cross the bridge.
    for (let i = 0; i < groups.length; i += 3) {
      await Promise.all(
        groups.slice(i, i + 3).map((page) => load(page, Math.min(perBulk, pageCount() - page))),
      )
    }
    await Promise.all(new Set(pages.values()))
    if (mine !== generation) throw new Error('The list changed while it was loading')
    publish()
    return slots.filter((s): s is Song => s !== undefined)
  }

  return { rows, reset, ensure, all }
}
