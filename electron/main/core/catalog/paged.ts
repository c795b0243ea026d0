import { artistNames } from '@shared/api/artist-names'
import { songSchema } from '@shared/api/models'
import type { Id, Song } from '@shared/api/models'
import { MAX_LIST_ROWS } from '@shared/ipc/contract'
import type { ListCap, PlaylistHead, PlaylistRows, PlaylistSort } from '@shared/ipc/contract'
import type { ApiClient, PlaylistWithRawSongs } from '../api/client'
import type { ActiveCall } from '../sources/active'
import { defaultTurn, JsonText } from '../api/sliced-json'
import { totalDuration } from './durations'

/**
 * The paged catalogue: main keeps a playlist's whole song list and the renderer asks for ranges of rows.
 *
 * Opening a playlist asks the data source for its first `serverPage` songs (`offset`/`limit` on
 * `/playlist/detail`, which the reference server honours and other servers ignore by sending every song)
 * and answers the header, the list's length and the first `firstRows` rows. Further ranges are fetched
 * from the data source a server page at a time when asked for (or all of them, for a search within the
 * list). Songs are validated when a row is first asked for, never all of a long list up front. A song
 * that fails validation becomes an unplayable row, so the list's length and indices never shift.
 *
 * The work is bounded whatever the data source claims: a list keeps at most `maxRows` songs (so at most
 * `maxRows / serverPage` pages are fetched) and the answers it keeps alive at most about `maxBytes`; past
 * either, the list ends there and says so (`capped`: what the source claimed, what is shown).
 */

/** The bytes of answers one list may keep alive before no further page is fetched. */
export const MAX_LIST_BYTES = 64 * 1024 * 1024

export interface PagedCatalogOptions {
  call: ActiveCall
  /** Rows in the answer to opening a playlist: two screens and more. Default 100. */
  firstRows?: number
  /** Songs asked of the data source at once. Default 1000. */
  serverPage?: number
  /** Playlists kept (least recently used dropped). Default 4. */
  keep?: number
  /** Songs kept of one list, whatever size the source claims. Default `MAX_LIST_ROWS` (100,000). */
  maxRows?: number
  /** Bytes of answers one list keeps alive before it stops fetching. Default `MAX_LIST_BYTES` (64 MB). */
  maxBytes?: number
}

interface Entry {
  key: string
  id: Id
  head: Omit<PlaylistHead, 'total' | 'rows' | 'size' | 'capped'>
  /** How many songs the list is taken to have: at most `maxRows`, less once it ends early. */
  total: number
  /** The most songs the source claimed (its `size`, or the songs it sent). */
  claimed: number
  /** The list was cut short by `maxRows` or `maxBytes` (not merely a `size` the songs never reached). */
  cut: boolean
  /** The answers' bytes the kept songs hold on to (each answer counted once). */
  buffers: Set<ArrayBufferLike>
  bytes: number
  /** Raw songs by index (holes where a server page is not fetched yet). */
  raw: unknown[]
  /** Every song is in `raw`. */
  complete: boolean
  /** Server pages fetched or in flight, by page number. */
  pages: Map<number, Promise<void>>
  /** A raw song as the client kept it (JSON text for long lists) made a value to validate. */
  expand: (raw: unknown) => unknown
  /** Rows already validated, by index. */
  rows: Array<Song | undefined>
  /** The last search or sort within the list: the indices it shows, in its order. */
  view?: { key: string; indices: Promise<number[]> }
}

/**
 * A row: what a song row shows and the player needs before it resolves the song (see `PlaylistHead`).
 * Fields without a value are left out, and the album carries no artists: structured clone (Electron's
 * IPC) pays for every property and object it copies. Typed as a `Song` for the renderer, which reads
 * rows where it reads songs.
 */
export function toRow(song: Song): Song {
  const row: Record<string, unknown> = { id: song.id, name: song.name, tns: song.tns }
  row.artists = song.artists.map((a) => ({ id: a.id, name: a.name }))
  const { album, privilege, meta } = song
  if (album) {
    const slim: Record<string, unknown> = { id: album.id, name: album.name }
    if (album.cover !== undefined) slim.cover = album.cover
    row.album = slim
  }
  if (song.duration !== undefined) row.duration = song.duration
  if (privilege) {
    const slim: Record<string, unknown> = { playable: privilege.playable, bitrates: privilege.bitrates }
    if (privilege.reason !== undefined) slim.reason = privilege.reason
    if (privilege.maxBitrate !== undefined) slim.maxBitrate = privilege.maxBitrate
    row.privilege = slim
  }
  if (meta?.isFavorite !== undefined) row.meta = { isFavorite: meta.isFavorite }
  return row as unknown as Song
}

/** What stands in for a song the data source sent broken. */
function brokenRow(key: string, index: number): Song {
  return {
    id: `broken:${key}:${index}`,
    name: '',
    tns: [],
    artists: [],
    album: undefined,
    duration: undefined,
    meta: undefined,
    privilege: {
      playable: false,
      reason: 'The data source sent this song incomplete',
      bitrates: [],
      maxBitrate: undefined,
    },
  }
}

/** The words of a search within a list, lower-cased. */
const words = (query: string) => query.toLocaleLowerCase().split(/\s+/).filter(Boolean)

function matches(song: Song, terms: string[]): boolean {
  const text = [song.name, ...song.tns, ...song.artists.map((a) => a.name), song.album?.name ?? '']
    .join('\n')
    .toLocaleLowerCase()
  return terms.every((t) => text.includes(t))
}

/**
 * Compares titles, artists and albums as people read them: any script, case and accents aside, 2 before 10.
 * Made at the first sort, not at start: a collator brings ICU's collation data into memory (about 3 MB).
 */
let collator: Intl.Collator | undefined
const collate = () => (collator ??= new Intl.Collator(undefined, { sensitivity: 'base', numeric: true }))
const sortKeys: Record<PlaylistSort['by'], (song: Song) => string | number> = {
  title: (song) => song.name,
  artist: (song) => artistNames(song),
  album: (song) => song.album?.name ?? '',
  duration: (song) => song.duration ?? Number.POSITIVE_INFINITY,
}

/** Indices ordered by `sort`; ties (and the broken rows) keep the playlist's order. */
function sortIndices(indices: number[], rowAt: (index: number) => Song, sort: PlaylistSort): number[] {
  const key = sortKeys[sort.by]
  const keys = new Map(indices.map((i) => [i, key(rowAt(i))]))
  const sign = sort.descending ? -1 : 1
  return [...indices].sort((a, b) => {
    const x = keys.get(a)!
    const y = keys.get(b)!
    const order =
      typeof x === 'number' && typeof y === 'number' ? x - y : collate().compare(String(x), String(y))
    return order * sign || a - b
  })
}

/** Rows validated (for a search or a sort) between two turns of the event loop. */
const ROWS_PER_TURN = 2000

export function createPagedCatalog(options: PagedCatalogOptions) {
  const firstRows = options.firstRows ?? 100
  const serverPage = options.serverPage ?? 1000
  const keep = options.keep ?? 4
  const maxRows = options.maxRows ?? MAX_LIST_ROWS
  const maxBytes = options.maxBytes ?? MAX_LIST_BYTES
  const entries = new Map<string, Entry>()

  const keyOf = (sourceId: string, id: Id) => `${sourceId}\n${String(id)}`

  function remember(entry: Entry) {
    entries.delete(entry.key)
    entries.set(entry.key, entry)
    while (entries.size > keep) entries.delete(entries.keys().next().value!)
  }

  /** Counts the answers' bytes that `songs` keep alive. */
  function account(entry: Entry, songs: unknown[]) {
    for (const song of songs) {
      // A song kept as JSON text is a view of its whole answer's bytes, shared by every song of it.
      const buffer = song instanceof JsonText ? song.source.buffer : undefined
      if (buffer && !entry.buffers.has(buffer)) {
        entry.buffers.add(buffer)
        entry.bytes += buffer.byteLength
      }
    }
  }

  /** The list ends at `end` (the caps reached): nothing past it is kept or fetched. */
  function cutAt(entry: Entry, end: number) {
    if (end >= entry.total) return
    entry.total = end
    entry.cut = true
    if (entry.raw.length > end) entry.raw.length = end
    if (entry.rows.length > end) entry.rows.length = end
  }

  /**
   * Puts one answer's songs at `offset`; an answer longer than asked means the server sent every song.
   * Songs past `total` (at most `maxRows`) are dropped.
   */
  function fill(entry: Entry, answer: PlaylistWithRawSongs, offset: number, limit: number) {
    const all = answer.songs ?? []
    entry.claimed = Math.max(entry.claimed, offset + all.length)
    if (all.length > limit || (offset === 0 && all.length >= entry.total)) {
      const songs = all.length > maxRows ? all.slice(0, maxRows) : all
      account(entry, songs)
      entry.raw = songs
      entry.total = songs.length
      entry.cut = all.length > songs.length
      entry.complete = true
      entry.rows.length = songs.length
      return
    }
    const kept = Math.max(0, Math.min(all.length, entry.total - offset))
    const songs = kept < all.length ? all.slice(0, kept) : all
    account(entry, songs)
    for (let i = 0; i < songs.length; i++) entry.raw[offset + i] = songs[i]
    if (all.length < limit && offset + all.length < entry.total) {
      // A server whose `size` overstated the list: it ends where the songs end.
      entry.total = offset + all.length
      entry.cut = false
    }
  }

  const capOf = (entry: Entry): ListCap | undefined =>
    entry.cut ? { claimed: entry.claimed, shown: entry.total } : undefined

  async function open(id: Id): Promise<PlaylistHead> {
    return options.call(async (api, sourceId) => {
      const answer = await api.playlistPage(id, { offset: 0, limit: serverPage })
      const { songs, size, ...head } = answer
      // `size` as sent: 1e12 or 1e400 (Infinity once parsed) claim more than any list main keeps.
      const said =
        size === undefined || Number.isNaN(size) ? 0 : Math.floor(Math.min(size, Number.MAX_SAFE_INTEGER))
      const claimed = Math.max(0, said, songs?.length ?? 0)
      const entry: Entry = {
        key: keyOf(sourceId, id),
        id,
        head,
        total: Math.min(claimed, maxRows),
        claimed,
        cut: claimed > maxRows,
        buffers: new Set(),
        bytes: 0,
        raw: [],
        complete: false,
        pages: new Map([[0, Promise.resolve()]]),
        expand: api.expandRaw,
        rows: [],
      }
      fill(entry, answer, 0, serverPage)
      if (!entry.complete && entry.raw.length >= entry.total) entry.complete = true
      const capped = capOf(entry)
      remember(entry)
      // The total time when every song is here (a list the server sent whole, or one page long).
      const duration = entry.complete ? await totalDuration(entry.raw) : undefined
      return {
        ...head,
        size: entry.total,
        total: entry.total,
        rows: rowsOf(entry, 0, firstRows),
        ...(duration === undefined ? {} : { duration }),
        ...(capped ? { capped } : {}),
      }
    })
  }

  /** Fetches the server pages that hold `[start, end)`. */
  function ensureRaw(api: ApiClient, entry: Entry, start: number, end: number): Promise<unknown> {
    if (entry.complete) return Promise.resolve()
    const waits: Promise<void>[] = []
    for (let page = Math.floor(start / serverPage); page * serverPage < Math.min(end, entry.total); page++) {
      let pending = entry.pages.get(page)
      if (!pending && entry.bytes > maxBytes) {
        // The list holds all the memory it may: it ends at the first page never asked for.
        let first = 0
        while (entry.pages.has(first)) first++
        cutAt(entry, first * serverPage)
        continue
      }
      if (!pending) {
        const offset = page * serverPage
        pending = api.playlistPage(entry.id, { offset, limit: serverPage }).then(
          (answer) => fill(entry, answer, offset, serverPage),
          (error: unknown) => {
            entry.pages.delete(page)
            throw error
          },
        )
        entry.pages.set(page, pending)
      }
      waits.push(pending)
    }
    return Promise.all(waits)
  }

  /** Every song of the list, a few server pages at a time. */
  async function ensureAll(api: ApiClient, entry: Entry): Promise<void> {
    const pages = Math.ceil(entry.total / serverPage)
    const parallel = 4
    for (let page = 0; page < pages && !entry.complete; page += parallel) {
      await ensureRaw(api, entry, page * serverPage, (page + parallel) * serverPage)
    }
    entry.complete = true
  }

  function rowAt(entry: Entry, index: number): Song {
    let row = entry.rows[index]
    if (!row) {
      const parsed = songSchema.safeParse(entry.expand(entry.raw[index]))
      row = parsed.success ? toRow(parsed.data) : brokenRow(entry.key, index)
      entry.rows[index] = row
    }
    return row
  }

  function rowsOf(entry: Entry, offset: number, limit: number): Song[] {
    const out: Song[] = []
    for (let i = offset; i < Math.min(entry.total, offset + limit); i++) out.push(rowAt(entry, i))
    return out
  }

  async function entryFor(sourceId: string, id: Id): Promise<Entry> {
    const known = entries.get(keyOf(sourceId, id))
    if (known) {
      remember(known)
      return known
    }
    await open(id)
    return entries.get(keyOf(sourceId, id))!
  }

  async function rows(args: {
    id: Id
    offset: number
    limit: number
    query?: string
    sort?: PlaylistSort
  }): Promise<PlaylistRows> {
    return options.call(async (api, sourceId) => {
      const entry = await entryFor(sourceId, args.id)
      const terms = words(args.query ?? '')
      const sort = args.sort
      if (!terms.length && !sort) {
        await ensureRaw(api, entry, args.offset, args.offset + args.limit)
        return { total: entry.total, offset: args.offset, rows: rowsOf(entry, args.offset, args.limit) }
      }
      // A search or a sort looks at every song: the whole list is fetched once, then kept.
      const key = JSON.stringify([terms, sort?.by ?? null, !!sort?.descending])
      if (entry.view?.key !== key) {
        const indices = ensureAll(api, entry).then(async () => {
          const found: number[] = []
          for (let i = 0; i < entry.total; i++) {
            // Validating a row costs a few µs: 100,000 of them in one piece would hold main for long.
            if (i > 0 && i % ROWS_PER_TURN === 0) await defaultTurn()
            if (!terms.length || matches(rowAt(entry, i), terms)) found.push(i)
          }
          return sort ? sortIndices(found, (i) => rowAt(entry, i), sort) : found
        })
        entry.view = { key, indices }
        indices.catch(() => entry.view?.indices === indices && (entry.view = undefined))
      }
      const indices = await entry.view.indices
      const slice = indices.slice(args.offset, args.offset + args.limit)
      const capped = capOf(entry)
      return {
        total: indices.length,
        offset: args.offset,
        rows: slice.map((i) => rowAt(entry, i)),
        ...(capped ? { capped } : {}),
      }
    })
  }

  return {
    open,
    rows,
    /** Forget every kept list (another data source, signed out, a like changed the liked songs). */
    clear: () => entries.clear(),
  }
}

export type PagedCatalog = ReturnType<typeof createPagedCatalog>
