import { hashString } from './audio/prng'
import { statement, type DB } from './db/sqlite'

const escapeXml = (s: string) =>
  s.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c,
  )

function nameOf(db: DB, kind: 'album' | 'artist' | 'playlist' | 'user', id: number): string | undefined {
  const table = kind === 'artist' ? 'artists' : kind === 'user' ? 'users' : 'playlists'
  const row = statement(db, `SELECT name FROM ${table} WHERE id = ?`).get(id) as { name: string } | undefined
  return row?.name
}

/** A generated square cover: a two-colour gradient from the name's hash and the name's initials. */
export function coverSvg(db: DB, kind: 'album' | 'artist' | 'playlist' | 'user', id: number): string | null {
  const name = nameOf(db, kind, id)
  if (name === undefined) return null
  const h = hashString(`${kind}:${name}`)
  const hue1 = h % 360
  const hue2 = (hue1 + 40 + ((h >>> 9) % 120)) % 360
  const words = name
    .replace(/[^\p{L}\p{N}\s]/gu, '')
    .split(/\s+/)
    .filter(Boolean)
  const initials =
    words.length === 0
      ? '♪'
      : /[\u3040-\u30ff\u4e00-\u9fff]/.test(words[0])
        ? [...words[0]].slice(0, 2).join('')
        : words
            .slice(0, 2)
            .map((w) => [...w][0].toUpperCase())
            .join('')
  const round = kind === 'artist' || kind === 'user'
  const shape = round
    ? '<circle cx="150" cy="150" r="150" fill="url(#g)"/>'
    : '<rect width="300" height="300" fill="url(#g)"/>'
  const deco = round
    ? ''
    : `<circle cx="${60 + (h % 180)}" cy="${60 + ((h >>> 8) % 180)}" r="${40 + ((h >>> 16) % 60)}" fill="#fff" opacity="0.12"/>`
  return `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300" viewBox="0 0 300 300">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="hsl(${hue1},65%,55%)"/><stop offset="1" stop-color="hsl(${hue2},70%,35%)"/>
</linearGradient></defs>${shape}${deco}
<text x="150" y="150" dy="0.35em" text-anchor="middle" font-family="system-ui,sans-serif" font-size="96" font-weight="700" fill="#fff" opacity="0.92">${escapeXml(initials)}</text>
</svg>`
}
