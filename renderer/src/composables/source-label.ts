import { computed, watch } from 'vue'
import type { Song } from '@shared/api/models'
import { sourceOf, useQueueStore } from '@renderer/stores/queue'
import { useSourcesStore } from '@renderer/stores/sources'

/**
 * The name of a queued song's data source, shown (the queue panel, the now-playing screen) only while the
 * queue mixes sources: undefined when every song shares one, `removed` for a source no longer listed.
 * The list of sources is asked of main the first time the queue mixes.
 */
export function useSourceLabel(removed: () => string) {
  const q = useQueueStore()
  const sources = useSourcesStore()
  watch(
    () => q.mixedSources,
    (mixed) => {
      if (mixed && sources.list.status === 'idle') void sources.load()
    },
    { immediate: true },
  )
  const names = computed(() => new Map(sources.sources.map((source) => [source.id, source.name])))
  return (song: Song | null | undefined): string | undefined => {
    if (!song || !q.mixedSources) return undefined
    const id = sourceOf(song)
    if (id === undefined) return undefined
    return names.value.get(id) ?? (sources.list.status === 'ready' ? removed() : undefined)
  }
}
