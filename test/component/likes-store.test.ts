import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { isSongLiked, useLikesStore } from '@renderer/stores/likes'
import { song } from './support'

const invoke = vi.fn()
const listeners = new Map<string, (payload: unknown) => void>()
vi.mock('@renderer/services/cadence', () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  on: (event: string, listener: (payload: unknown) => void) => {
    listeners.set(event, listener)
    return () => listeners.delete(event)
  },
}))

describe('likes store', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    invoke.mockReset()
    listeners.clear()
  })

  it("shows the liked playlist's songs as liked, though the list's answer said otherwise", async () => {
    invoke.mockImplementation(async (channel: string) =>
      channel === 'likes:state' ? { sourceId: 's', ids: ['1'], playlistId: 9 } : undefined,
    )
    const likes = useLikesStore()
    const likedElsewhere = song(1, { meta: { isFavorite: false } as never })
    const notLiked = song(2, { meta: { isFavorite: true } as never })
    expect(likes.isLiked(likedElsewhere)).toBe(false)
    likes.start()
    await vi.waitFor(() => expect(likes.isLiked(likedElsewhere)).toBe(true))
    expect(isSongLiked(likes.overrides, notLiked)).toBe(false)
    expect(likes.playlistId).toBe(9)
  })

  it('reads the liked playlist again on window focus and follows likes:changed', async () => {
    let ids = ['1']
    invoke.mockImplementation(async (channel: string) =>
      channel === 'likes:state' || channel === 'likes:refresh' ? { sourceId: 's', ids } : undefined,
    )
    const likes = useLikesStore()
    likes.start()
    const second = song(2)
    await vi.waitFor(() => expect(likes.likedIds).not.toBeNull())
    expect(likes.isLiked(second)).toBe(false)
    ids = ['1', '2']
    window.dispatchEvent(new Event('focus'))
    await vi.waitFor(() => expect(likes.isLiked(second)).toBe(true))
    listeners.get('likes:changed')!({ sourceId: 's', ids: ['1'] })
    expect(likes.isLiked(second)).toBe(false)
  })
})
