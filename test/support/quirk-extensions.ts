import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * The endpoints NeteaseMusicAdapter answers beyond the API document, as its source shows them, served by
 * the netease quirk proxy on top of the reference server (`startQuirkProxy(…, { extensions: true })`):
 *
 * - `GET /album/detail?id`: the album as a Playlist of type `album` (songs in order, `meta.artists`,
 *   `meta.subscribed`); the reference server's album ids are album-type playlist ids.
 * - `GET /song/like?id`: `{ id, isLiked }` for the Token's user.
 * - `PUT /album/like?id&like`, `GET /album/sublist`: saved albums, kept here per Token.
 * - `POST /playlist/create?name`: `{ id, name, cover }`, ids above 2³²; the playlist is the user's and shows
 *   in `/playlist/list` (after the liked-songs playlist) and `/playlist/detail`.
 * - `POST` / `DELETE /playlist/songs?pid&sids`: success without `data`, new songs first; it never fails,
 *   even for an unknown playlist or someone else's (nothing changes then).
 * - `POST` / `DELETE /playlist/subscribe?id`: success without `data`; a subscribed playlist shows in
 *   `/playlist/list`.
 *
 * - `GET /song/recommend`: the reference server's recommended songs with NeteaseMusicAdapter's placeholder
 *   first, a 4-second song whose id is `free-app` (`FREE_APP_SONG`).
 *
 * Every parameter is a query parameter, as on the real server. Success envelopes are the adapter's:
 * `message: 'success'` and a numeric `timestamp`.
 */

/** The placeholder NeteaseMusicAdapter's `/song/recommend` puts first: never a song to queue or record. */
export const FREE_APP_SONG = {
  id: 'free-app',
  name: '网易云音乐 App 免费听',
  tns: [],
  artists: [{ id: 0, name: '网易云音乐' }],
  duration: 4000,
}

interface AccountPlaylist {
  id: number
  name: string
  owner: string
  /** Song ids, newest first. */
  songs: number[]
}

type Json = Record<string, unknown>

const ok = (data?: unknown) =>
  JSON.stringify({
    code: 0,
    message: 'success',
    ...(data === undefined ? {} : { data }),
    timestamp: Date.now(),
  })
const failed = () =>
  JSON.stringify({ code: -1, message: '服务器内部错误', data: null, timestamp: new Date().toISOString() })

export interface QuirkExtensions {
  /** Answers an extension or an endpoint that shows its effects; false when the request is not one. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL, token: string | undefined): Promise<boolean>
  /** What the "server" holds: the account playlists made through it. */
  readonly playlists: ReadonlyMap<number, AccountPlaylist>
}

export function createQuirkExtensions(upstream: URL): QuirkExtensions {
  const playlists = new Map<number, AccountPlaylist>()
  const subscribed = new Map<string, Set<string>>()
  const savedAlbums = new Map<string, Set<string>>()
  let next = 2 ** 32 + 17

  async function up(path: string, token: string | undefined): Promise<{ status: number; json: Json }> {
    const answer = await fetch(new URL(path, upstream), { headers: token ? { token } : {} })
    return { status: answer.status, json: (await answer.json()) as Json }
  }
  /** The Token's user on the reference server (its id), or undefined. */
  async function who(token: string | undefined): Promise<string | undefined> {
    if (!token) return undefined
    const { json } = await up('/connect/status', token)
    return json.code === 0 ? String((json.data as Json).id) : undefined
  }
  async function song(id: number | string, token: string | undefined): Promise<Json | undefined> {
    const { json } = await up(`/song/detail?id=${encodeURIComponent(String(id))}`, token)
    if (json.code !== 0) return undefined
    const { meta: _meta, ...rest } = json.data as Json
    void _meta
    return rest
  }
  const send = (res: ServerResponse, body: string) => {
    res.writeHead(200, { 'Content-Type': 'application/json' })
    res.end(body)
  }

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL, token: string | undefined) {
    const method = req.method ?? 'GET'
    const path = url.pathname
    const q = (name: string) => url.searchParams.get(name) ?? ''
    const key = `${method} ${path}`

    if (key === 'GET /album/detail') {
      const { json } = await up(`/playlist/detail?id=${encodeURIComponent(q('id'))}`, token)
      const detail = json.data as Json | null
      if (json.code !== 0 || !detail || detail.type !== 'album') return (send(res, failed()), true)
      const meta = (detail.meta ?? {}) as Json
      const user = await who(token)
      send(
        res,
        ok({
          id: detail.id,
          name: detail.name,
          cover: detail.cover,
          size: (detail.songs as unknown[]).length,
          description: detail.description,
          type: 'album',
          songs: detail.songs,
          meta: {
            publishTime: meta.releasedAt ? Date.parse(String(meta.releasedAt)) : undefined,
            subscribed: !!user && !!savedAlbums.get(user)?.has(String(detail.id)),
            artists: meta.artists ?? [],
          },
        }),
      )
      return true
    }
    if (key === 'GET /song/recommend') {
      const { json } = await up(`/song/recommend${url.search}`, token)
      if (json.code !== 0 || !Array.isArray(json.data)) return (send(res, JSON.stringify(json)), true)
      send(res, ok([FREE_APP_SONG, ...(json.data as unknown[])]))
      return true
    }
    if (key === 'GET /song/like') {
      const { json } = await up(`/song/detail?id=${encodeURIComponent(q('id'))}`, token)
      if (json.code !== 0 || !token) return (send(res, failed()), true)
      const meta = ((json.data as Json).meta ?? {}) as Json
      send(res, ok({ id: q('id'), isLiked: meta.isFavorite === true }))
      return true
    }
    if (key === 'PUT /album/like') {
      const user = await who(token)
      if (!user) return (send(res, failed()), true)
      const set = savedAlbums.get(user) ?? new Set<string>()
      savedAlbums.set(user, set)
      if (q('like') === 'false') set.delete(q('id'))
      else set.add(q('id'))
      send(res, ok({ id: q('id'), like: q('like') !== 'false' }))
      return true
    }
    if (key === 'GET /album/sublist') {
      const user = await who(token)
      if (!user) return (send(res, failed()), true)
      const albums: Json[] = []
      for (const id of savedAlbums.get(user) ?? []) {
        const { json } = await up(`/playlist/detail?id=${encodeURIComponent(id)}&limit=1`, token)
        const detail = json.data as Json | null
        if (json.code !== 0 || !detail) continue
        albums.push({
          id: detail.id,
          name: detail.name,
          cover: detail.cover,
          size: detail.size,
          artists: ((detail.meta ?? {}) as Json).artists ?? [],
        })
      }
      send(res, ok(albums))
      return true
    }
    if (key === 'POST /playlist/create') {
      const user = await who(token)
      if (!user || !q('name')) return (send(res, failed()), true)
      const playlist: AccountPlaylist = { id: next, name: q('name'), owner: user, songs: [] }
      next += 7919
      playlists.set(playlist.id, playlist)
      send(res, ok({ id: playlist.id, name: playlist.name, cover: undefined }))
      return true
    }
    if (path === '/playlist/songs' && (method === 'POST' || method === 'DELETE')) {
      const user = await who(token)
      if (!user) return (send(res, failed()), true)
      const playlist = playlists.get(Number(q('pid')))
      const sids = q('sids')
        .split(',')
        .filter((s) => s.length > 0)
        .map(Number)
      // The real server answers success whatever happened: an unknown or foreign playlist is untouched.
      if (playlist && playlist.owner === user) {
        if (method === 'POST') {
          const fresh = sids.filter((id) => !playlist.songs.includes(id))
          playlist.songs = [...fresh, ...playlist.songs]
        } else {
          playlist.songs = playlist.songs.filter((id) => !sids.includes(id))
        }
      }
      send(res, ok())
      return true
    }
    if (path === '/playlist/subscribe' && (method === 'POST' || method === 'DELETE')) {
      const user = await who(token)
      if (!user) return (send(res, failed()), true)
      const set = subscribed.get(user) ?? new Set<string>()
      subscribed.set(user, set)
      if (method === 'POST') set.add(q('id'))
      else set.delete(q('id'))
      send(res, ok())
      return true
    }
    if (key === 'GET /playlist/detail' && playlists.has(Number(q('id')))) {
      const playlist = playlists.get(Number(q('id')))!
      const songs: Json[] = []
      for (const id of playlist.songs) {
        const found = await song(id, token)
        if (found) songs.push(found)
      }
      send(res, ok({ id: playlist.id, songs, meta: { subscribed: false } }))
      return true
    }
    if (key === 'GET /playlist/list') {
      const user = await who(token)
      const { status, json } = await up(`${path}${url.search}`, token)
      if (json.code !== 0 || !Array.isArray(json.data)) {
        res.writeHead(status, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify(json))
        return true
      }
      const theirs = [...playlists.values()]
        .filter((p) => p.owner === q('uid'))
        .reverse()
        .map((p) => ({
          id: p.id,
          name: p.name,
          size: p.songs.length,
          creator: { id: p.owner, name: '' },
          type: 'normal',
        }))
      const followed: Json[] = []
      if (user && user === q('uid') && Number(q('offset') || 0) === 0) {
        for (const id of subscribed.get(user) ?? []) {
          const { json: detail } = await up(`/playlist/detail?id=${encodeURIComponent(id)}&limit=1`, token)
          if (detail.code !== 0) continue
          const { songs: _songs, ...head } = detail.data as Json
          void _songs
          followed.push(head)
        }
      }
      const list = json.data as Json[]
      const atStart = Number(q('offset') || 0) === 0
      const data = atStart ? [...list.slice(0, 1), ...theirs, ...list.slice(1), ...followed] : list
      send(res, JSON.stringify({ ...json, data }))
      return true
    }
    return false
  }

  return { handle, playlists }
}
