import { describe, expect, it, vi } from 'vitest'
import { computed } from 'vue'
import { createPinia, setActivePinia } from 'pinia'
import { coverMediaUrl } from '@shared/player/media-url'
import { useOfflineStore } from '@renderer/stores/offline'

vi.mock('@renderer/services/cadence', () => ({ invoke: vi.fn(async () => undefined), on: () => () => {} }))

/**
 * A page of covers whose addresses no longer answer (Recently played with old listens): each failure
 * re-checks the images of its own address only, not every cover on the page.
 */
describe('covers that fail to load', () => {
  it("re-checks only the failed address's images", () => {
    setActivePinia(createPinia())
    const offline = useOfflineStore()
    const urls = Array.from({ length: 50 }, (_, i) => `https://covers.example/${i}.jpg`)
    const checks = new Map<string, number>()
    const sources = urls.map((url) =>
      computed(() => {
        checks.set(url, (checks.get(url) ?? 0) + 1)
        return offline.coverSrc(url)
      }),
    )
    for (const src of sources) void src.value

    // Every cover fails from the source in turn, as the page's images report it; the page renders after each.
    for (const url of urls) {
      expect(offline.coverFailed(url, url)).toBe(true)
      for (const src of sources) void src.value
    }
    expect(sources.map((src) => src.value)).toEqual(urls.map((url) => coverMediaUrl(url)))
    // Each computed ran twice: once at first, once after its own failure.
    expect([...checks.values()]).toEqual(urls.map(() => 2))

    // The kept copy of one fails too: only that cover is a placeholder.
    offline.coverFailed(urls[3], coverMediaUrl(urls[3]!))
    expect(urls.filter((url) => offline.coverMissing(url))).toEqual([urls[3]])
  })
})
