import { computed, watch } from 'vue'
import { useI18n } from 'vue-i18n'
import type { Song } from '@shared/api/models'
import { sourceOf, useQueueStore } from '@renderer/stores/queue'
import { useSourcesStore } from '@renderer/stores/sources'

/**
 * The name of a queued song's data source as Settings shows it, shown (the queue panel, the now-playing
 * screen) only while the queue mixes sources: undefined when every song shares one, "a removed data
 * source" for one no longer listed. The list of sources is asked of main the first time the queue mixes.
 */
export function useSourceLabel() {
  const { t } = useI18n()
  const q = useQueueStore()
  const sources = useSourcesStore()
  watch(
    () => q.mixedSources,
    (mixed) => {
      if (mixed && sources.list.status === 'idle') void sources.load()
    },
    { immediate: true },
  )
  const names = computed(
    () =>
      new Map(
        sources.sources.map((source) => [
          source.id,
          source.builtin ? t('settings.builtinSource') : source.name,
        ]),
      ),
  )
  return (song: Song | null | undefined): string | undefined => {
    if (!song || !q.mixedSources) return undefined
    const id = sourceOf(song)
    if (id === undefined) return undefined
    return names.value.get(id) ?? (sources.list.status === 'ready' ? t('player.source.removed') : undefined)
  }
}
