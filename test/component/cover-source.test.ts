import { afterEach, describe, expect, it, vi } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { coverMediaUrl, parseCoverMediaUrl, parseCoverSource } from '@shared/player/media-url'
import { useOfflineStore } from '@renderer/stores/offline'
import { coverPng } from '@renderer/services/cover-image'

vi.mock('@renderer/services/cadence', () => ({ invoke: vi.fn(async () => undefined), on: () => () => {} }))

/**
 * A cover of a song of another source than the active one (the one queue mixes sources) is asked of
 * main naming that source, which fetches it under that source's policy, not the active one's.
 */
describe('covers of a song of another source', () => {
  afterEach(() => vi.unstubAllGlobals())
  const url = 'https://covers.example/album.jpg'

  it('names the source on the kept-copy address, and a failure of that copy counts', () => {
    setActivePinia(createPinia())
    const offline = useOfflineStore()
    expect(offline.coverFailed(url, url)).toBe(true)
    const kept = offline.coverSrc(url, 'quirk')!
    expect(parseCoverMediaUrl(kept)).toBe(url)
    expect(parseCoverSource(kept)).toBe('quirk')
    expect(offline.coverMissing(url)).toBe(false)
    offline.coverFailed(url, kept)
    expect(offline.coverMissing(url)).toBe(true)
  })

  it('reads the pixels (the notification, the tint) through main naming the source', async () => {
    const asked: string[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (address: string) => {
        asked.push(address)
        return new Response('no', { status: 404 })
      }),
    )
    expect(await coverPng(url, 'quirk')).toBeNull()
    expect(asked).toEqual([coverMediaUrl(url, 'quirk')])
    expect(parseCoverSource(asked[0]!)).toBe('quirk')
  })
})
