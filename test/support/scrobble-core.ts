import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCore, createMemoryStore } from '@main/core'
import type { Core, CoreDeps, KeyValueStore, SecretCipher } from '@main/core'
import type { Listen } from '@shared/ipc/history'
import type { ScrobbleState } from '@shared/ipc/scrobble'
import { createTestCipher } from './test-cipher'

/**
 * A core for the scrobbling tests: its history and scrobble queue in files of one folder, so a test can
 * stop it and start another over the same files (a restart), with the same store and cipher (the sealed
 * token survives). Calls go through the router (argument schemas checked).
 */
export function scrobbleWorld(extra: Partial<CoreDeps> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'cadence-scrobble-'))
  const store: KeyValueStore & { snapshot(): Record<string, unknown> } = createMemoryStore()
  const cipher: SecretCipher = createTestCipher()
  const cores: Core[] = []

  function start(more: Partial<CoreDeps> = {}) {
    const core = createCore({
      store,
      cipher,
      isTrustedSender: (url) => url.startsWith('file:///app/'),
      appInfo: { name: 'Cadence', version: '9.8.7', platform: 'linux' },
      autoSignInBuiltin: false,
      builtinSourceUrl: 'http://127.0.0.1:9',
      historyPath: join(dir, 'history.sqlite'),
      scrobblePath: join(dir, 'scrobble-queue.sqlite'),
      scrobbleRetryMs: 200,
      ...extra,
      ...more,
    })
    cores.push(core)
    return core
  }

  return {
    dir,
    store,
    start,
    dispose() {
      for (const core of cores) core.dispose()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Invokes a channel as the renderer would; throws the error payload when it fails. */
export async function call<T = unknown>(core: Core, channel: string, args?: unknown): Promise<T> {
  const result = await core.router.invoke(channel, args, { senderUrl: 'file:///app/index.html' })
  if (!result.ok) throw new Error(`${channel}: ${JSON.stringify(result.error)}`)
  return result.value as T
}

export const scrobbleState = (core: Core) => call<ScrobbleState>(core, 'scrobble:state')

let clock = Date.UTC(2026, 10, 20, 12, 0, 0)
/** A listen as the renderer reports it (each one a minute after the last). */
export function aListen(over: Partial<Listen> = {}): Listen {
  clock += 60_000
  return {
    listenedAt: clock,
    sourceId: 'builtin',
    songId: `song-${clock}`,
    title: 'Blue in Green',
    artists: ['Miles Davis', 'Bill Evans'],
    album: 'Kind of Blue',
    durationMs: 337_000,
    ...over,
  }
}

export const nowPlaying = (l: Listen) => ({
  sourceId: l.sourceId,
  songId: l.songId,
  title: l.title,
  artists: l.artists,
  ...(l.album ? { album: l.album } : {}),
  durationMs: l.durationMs,
})
