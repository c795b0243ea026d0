import { artistNames } from '@shared/api/artist-names'
import { songSchema } from '@shared/api/models'
import type { Id, Song } from '@shared/api/models'
import type { PlaylistHead, PlaylistRows, PlaylistSort } from '@shared/ipc/contract'
import type { ApiClient, PlaylistWithRawSongs } from '../api/client'
import type { ActiveCall } from '../sources/active'
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
 */

export interface PagedCatalogOptions {
  call: ActiveCall
  /** Rows in the answer to opening a playlist: two screens and more. Default 100. */
  firstRows?: number
  /** Songs asked of the data source at once. Default 1000. */
  serverPage?: number
  /** Playlists kept (least recently used dropped). Default 4. */
  keep?: number
}

interface Entry {
  key: string
  id: Id
  head: Omit<PlaylistHead, 'total' | 'rows' | 'size'>
  total: number
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

/** Compares titles, artists and albums as people read them: any script, case and accents aside, 2 before 10. */
const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true })
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
      typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x), String(y))
    return order * sign || a - b
  })
}

export function createPagedCatalog(options: PagedCatalogOptions) {
  const firstRows = options.firstRows ?? 100
  const serverPage = options.serverPage ?? 1000
  const keep = options.keep ?? 4
  const entries = new Map<string, Entry>()

  const keyOf = (sourceId: string, id: Id) => `${sourceId}\n${String(id)}`

  function remember(entry: Entry) {
    entries.delete(entry.key)
    entries.set(entry.key, entry)
    while (entries.size > keep) entries.delete(entries.keys().next().value!)
  }

  /** Puts one answer's songs at `offset`; an answer longer than asked means the server sent every song. */
  function fill(entry: Entry, answer: PlaylistWithRawSongs, offset: number, limit: number) {
    const songs = answer.songs ?? []
    if (songs.length > limit || (offset === 0 && songs.length >= entry.total)) {
      entry.raw = songs
      entry.total = songs.length
      entry.complete = true
      entry.rows.length = songs.length
      return
    }
    for (let i = 0; i < songs.length; i++) entry.raw[offset + i] = songs[i]
    // A server whose `size` overstated the list: it ends where the songs end.
    if (songs.length < limit && offset + songs.length < entry.total) entry.total = offset + songs.length
  }

  async function open(id: Id): Promise<PlaylistHead> {
    return options.call(async (api, sourceId) => {
      const answer = await api.playlistPage(id, { offset: 0, limit: serverPage })
      const { songs, size, ...head } = answer
      const entry: Entry = {
        key: keyOf(sourceId, id),
        id,
        head,
        total: Math.max(size ?? 0, songs?.length ?? 0),
        raw: [],
        complete: false,
        pages: new Map([[0, Promise.resolve()]]),
        expand: api.expandRaw,
        rows: [],
      }
      fill(entry, answer, 0, serverPage)
      if (!entry.complete && entry.raw.length >= entry.total) entry.complete = true
      remember(entry)
      // The total time when every song is here (a list the server sent whole, or one page long).
      const duration = entry.complete ? await totalDuration(entry.raw) : undefined
      return {
        ...head,
        size: entry.total,
        total: entry.total,
        rows: rowsOf(entry, 0, firstRows),
        ...(duration === undefined ? {} : { duration }),
      }
    })
  }

  /** Fetches the server pages that hold `[start, end)`. */
  function ensureRaw(api: ApiClient, entry: Entry, start: number, end: number): Promise<unknown> {
    if (entry.complete) return Promise.resolve()
    const waits: Promise<void>[] = []
    for (let page = Math.floor(start / serverPage); page * serverPage < Math.min(end, entry.total); page++) {
      let pending = entry.pages.get(page)
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
        const indices = ensureAll(api, entry).then(() => {
          const found: number[] = []
          for (let i = 0; i < entry.total; i++)
            if (!terms.length || matches(rowAt(entry, i), terms)) found.push(i)
          return sort ? sortIndices(found, (i) => rowAt(entry, i), sort) : found
        })
        entry.view = { key, indices }
        indices.catch(() => entry.view?.indices === indices && (entry.view = undefined))
      }
      const indices = await entry.view.indices
      const slice = indices.slice(args.offset, args.offset + args.limit)
      return { total: indices.length, offset: args.offset, rows: slice.map((i) => rowAt(entry, i)) }
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
