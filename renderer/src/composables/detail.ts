import { watch } from 'vue'
import type { AsyncStatus } from '@renderer/stores/async'
import { useAuthStore } from '@renderer/stores/auth'

/**
 * A detail view (playlist, artist): opens the id the route gives, follows it as the route changes, and
 * loads once more when the user signs in again after a failed load (an expired session).
 */
export function useDetailRoute(
  id: () => string,
  store: { open(id: string): unknown; detail: { status: AsyncStatus; load(): Promise<void> } },
): void {
  watch(id, (next) => void store.open(next), { immediate: true })
  const auth = useAuthStore()
  watch(
    () => auth.sessionKey,
    () => store.detail.status === 'error' && void store.detail.load(),
  )
}
