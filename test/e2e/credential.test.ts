import { mkdir } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { VAULT_KEY } from '@main/core/auth/vault'
import { createTestCipher } from '../support/test-cipher'
import { RESULTS_DIR, startApp } from './harness'
import type { App } from './harness'

/**
 * After login the credential lives in main only: nothing the renderer can reach holds it, and the
 * store keeps only cipher text.
 */
describe('the credential never reaches the renderer or the store in plain text', () => {
  let app: App
  let credential: string
  const seen: string[] = []

  beforeAll(async () => {
    await mkdir(RESULTS_DIR, { recursive: true })
    const cipher = createTestCipher()
    app = await startApp({ cipher })
    app.core.events.subscribe((event, payload) => seen.push(`${event} ${JSON.stringify(payload)}`))
    const stored = app.store.snapshot()[VAULT_KEY] as Record<string, { data: string }>
    credential = cipher.decrypt(stored.builtin.data)
    // Use the app a little so answers and events pass through the bridge.
    await app.page.evaluate(async () => {
      await window.cadence.invoke('auth:status')
      await window.cadence.invoke('catalog:recommend-playlists')
      await window.cadence.invoke('catalog:user-playlists')
      await window.cadence.invoke('settings:update', { theme: 'dark' })
      await window.cadence.invoke('player:resolve', { id: 1 }).catch(() => null)
    })
  })
  afterAll(() => app?.close())

  it('opens signed in to the built-in data source, stored encrypted', async () => {
    expect(credential.length).toBeGreaterThanOrEqual(20)
    expect(await app.page.evaluate(() => window.cadence.invoke('auth:status'))).toMatchObject({
      sourceId: 'builtin',
      status: 'signed-in',
      user: { name: 'Owner' },
      storage: { mode: 'encrypted' },
    })
  })

  it('is not in the DOM, web storage or IndexedDB', async () => {
    const found = await app.page.evaluate(async (secret) => {
      const where: string[] = []
      if (document.documentElement.outerHTML.includes(secret)) where.push('DOM')
      for (const [name, storage] of [
        ['localStorage', localStorage],
        ['sessionStorage', sessionStorage],
      ] as const) {
        for (let i = 0; i < storage.length; i++) {
          const key = storage.key(i) ?? ''
          if (key.includes(secret) || (storage.getItem(key) ?? '').includes(secret)) where.push(name)
        }
      }
      const databases = (await indexedDB.databases?.()) ?? []
      if (databases.some((db) => (db.name ?? '').includes(secret))) where.push('IndexedDB')
      return where
    }, credential)
    expect(found).toEqual([])
  })

  it('is nowhere reachable from window (including window.cadence)', async () => {
    const walkWindow = (plant: boolean) =>
      app.page.evaluate(
        ({ secret, plant }) => {
          if (plant) Object.assign(window, { __planted: { deep: [{ value: `x${secret}x` }] } })
          const visited = new WeakSet<object>()
          const hits: string[] = []
          let visits = 0
          const walk = (value: unknown, path: string, depth: number) => {
            if (visits++ > 200_000) return
            if (typeof value === 'string') {
              if (value.includes(secret)) hits.push(path)
              return
            }
            if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return
            if (visited.has(value) || depth > 6) return
            visited.add(value)
            if (value instanceof Node && value !== document) return // the DOM is checked as outerHTML
            let keys: string[]
            try {
              keys = Object.getOwnPropertyNames(value)
            } catch {
              return
            }
            for (const key of keys) {
              let child: unknown
              try {
                const descriptor = Object.getOwnPropertyDescriptor(value, key)
                child = descriptor && 'value' in descriptor ? descriptor.value : undefined
                if (descriptor?.get && depth < 2) child = (value as Record<string, unknown>)[key]
              } catch {
                continue
              }
              if (key.includes(secret)) hits.push(`${path}[key ${key}]`)
              walk(child, `${path}.${key}`, depth + 1)
            }
          }
          walk(window, 'window', 0)
          walk((window as unknown as { cadence: unknown }).cadence, 'window.cadence', 0)
          delete (window as unknown as { __planted?: unknown }).__planted
          return { hits, visits }
        },
        { secret: credential, plant },
      )
    // The walk finds a planted copy, so finding none means something.
    expect((await walkWindow(true)).hits).toEqual(['window.__planted.deep.0.value'])
    const report = await walkWindow(false)
    expect(report.visits).toBeGreaterThan(1000)
    expect(report.hits).toEqual([])
  })

  it('never crosses IPC in an event', () => {
    expect(seen.length).toBeGreaterThan(0)
    expect(seen.filter((line) => line.includes(credential))).toEqual([])
  })

  it('is kept only as cipher text in the store', () => {
    const persisted = JSON.stringify(app.store.snapshot())
    expect(persisted).not.toContain(credential)
    expect(persisted).not.toContain(Buffer.from(credential).toString('base64'))
  })
})
