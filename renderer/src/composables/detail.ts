import { computed, watch } from 'vue'
import type { ComputedRef } from 'vue'
import { useRoute, useRouter } from 'vue-router'
import type { Playlist } from '@shared/api/models'
import type { AsyncStatus } from '@renderer/stores/async-state'
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

/** What a card showed of a playlist, carried in the history entry the card opens (plain, serialisable). */
export type CardPreview = { name?: string; cover?: string }

export function cardPreview(playlist: Pick<Playlist, 'name' | 'cover'>): CardPreview {
  const preview: CardPreview = {}
  if (playlist.name) preview.name = playlist.name
  if (playlist.cover) preview.cover = playlist.cover
  return preview
}

/**
 * The card the user clicked to open this view, if any: some servers' detail answers lack the name or
 * cover that their lists carry, so the header falls back to what the card already showed.
 */
export function useCardPreview(): ComputedRef<CardPreview> {
  const route = useRoute()
  const history = useRouter().options.history
  return computed(() => {
    void route.fullPath
    const card = (history.state as { card?: unknown } | null)?.card
    if (!card || typeof card !== 'object') return {}
    const { name, cover } = card as Record<string, unknown>
    return {
      ...(typeof name === 'string' && name ? { name } : {}),
      ...(typeof cover === 'string' && cover ? { cover } : {}),
    }
  })
}
