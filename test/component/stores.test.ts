import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { CadenceError } from '@shared/errors'
import type { AuthState } from '@shared/ipc/contract'
import { useAuthStore } from '@renderer/stores/auth'
import { useHomeStore } from '@renderer/stores/home'
import { LIBRARY_PAGE_SIZE, useLibraryStore } from '@renderer/stores/library'
import { useLikesStore } from '@renderer/stores/likes'
import { useNotificationsStore } from '@renderer/stores/notifications'
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

const state = (status: AuthState['status']): AuthState =>
  ({
    sourceId: 'builtin',
    status,
    user: status === 'signed-in' ? { id: 1, name: 'Owner' } : null,
    storage: { mode: 'encrypted', encryptionUnavailable: false },
  }) as AuthState

describe('stores', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    invoke.mockReset()
    listeners.clear()
  })

  it('auth follows auth:changed and notices an expired session', async () => {
    invoke.mockResolvedValue(state('signed-in'))
    const auth = useAuthStore()
    await auth.init()
    expect(auth.signedIn).toBe(true)
    listeners.get('auth:changed')!(state('expired'))
    expect(auth.expired).toBe(true)
    listeners.get('auth:changed')!(state('signed-in'))
    expect(auth.expired).toBe(false)
    auth.stop()
  })

  it('auth treats any unauthorized error a store catches as an expired session', async () => {
    invoke.mockResolvedValueOnce(state('signed-out'))
    const auth = useAuthStore()
    await auth.init()
    expect(auth.expired).toBe(false)
    invoke.mockRejectedValue(new CadenceError({ kind: 'unauthorized', message: 'please log in first' }))
    const home = useHomeStore()
    await home.playlists.load()
    expect(home.playlists.status).toBe('error')
    expect(auth.expired).toBe(true)
    auth.stop()
  })

  it('library pages through the user playlists and stops at the last page', async () => {
    const page = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => ({ id: from + i, name: `P${from + i}`, type: 'normal' }))
    invoke.mockResolvedValueOnce(page(LIBRARY_PAGE_SIZE, 0)).mockResolvedValueOnce(page(5, LIBRARY_PAGE_SIZE))
    const library = useLibraryStore()
    await library.loadMore()
    expect(invoke).toHaveBeenLastCalledWith('catalog:user-playlists', { limit: LIBRARY_PAGE_SIZE, offset: 0 })
    expect(library.done).toBe(false)
    await library.loadMore()
    expect(invoke).toHaveBeenLastCalledWith('catalog:user-playlists', {
      limit: LIBRARY_PAGE_SIZE,
      offset: LIBRARY_PAGE_SIZE,
    })
    expect(library.playlists).toHaveLength(LIBRARY_PAGE_SIZE + 5)
    expect(library.done).toBe(true)
    await library.loadMore()
    expect(invoke).toHaveBeenCalledTimes(2)
  })

  it('likes remember the liked playlist and roll back refusals', async () => {
    const likes = useLikesStore()
    const s = song(5)
    invoke.mockResolvedValueOnce({ id: 5, like: true, playlist: 42 })
    await likes.toggle(s)
    expect(likes.isLiked(s)).toBe(true)
    expect(likes.playlistId).toBe(42)
    invoke.mockRejectedValueOnce(new CadenceError({ kind: 'network', message: 'offline' }))
    await expect(likes.toggle(s)).rejects.toThrow('offline')
    expect(likes.isLiked(s)).toBe(true)
  })

  it('notifications disappear by themselves', () => {
    vi.useFakeTimers()
    const notifications = useNotificationsStore()
    notifications.error('boom')
    expect(notifications.items).toHaveLength(1)
    vi.advanceTimersByTime(6000)
    expect(notifications.items).toHaveLength(0)
    vi.useRealTimers()
  })
})
