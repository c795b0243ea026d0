import { computed, inject, provide } from 'vue'
import type { InjectionKey, Ref } from 'vue'
import { useI18n } from 'vue-i18n'
import type { Song } from '@shared/api/models'
import { useAuthStore } from '@renderer/stores/auth'
import { useSourcesStore } from '@renderer/stores/sources'

const sourceIdOf = (song: Song): string | undefined => (song as Song & { sourceId?: string }).sourceId

/** What a song row says of its song's data source (nothing, for most lists). */
export type RowSource = (song: Song) => string | undefined
const ROW_SOURCE: InjectionKey<RowSource> = Symbol('row-source')

/** The row's source label, as the list's page provides it (`SongRow`). */
export const useRowSource = (): RowSource | undefined => inject(ROW_SOURCE, undefined)

/** Songs as `collection:remove` names them: by id and data source where they name one. */
export const songRefs = (songs: readonly Song[]) =>
  songs.map((song) => {
    const sourceId = sourceIdOf(song)
    return sourceId ? { id: song.id, sourceId } : song.id
  })

/** Whether a song is of a data source other than the active one (its album and artist pages are there). */
export function useOtherSource(): (song: Song) => string | undefined {
  const auth = useAuthStore()
  return (song) => {
    const id = sourceIdOf(song)
    return id !== undefined && auth.sourceId !== undefined && id !== auth.sourceId ? id : undefined
  }
}

/**
 * Song rows name their song's data source while `songs` mix sources (one of the user's playlists): the
 * name Settings shows; a source no longer listed is named "a removed data source" even when the songs do
 * not mix, so such a row is always marked. Provided to the rows of the page's lists.
 */
export function provideRowSource(songs: Ref<readonly Song[]>): void {
  const { t } = useI18n()
  const sources = useSourcesStore()
  if (sources.list.status === 'idle') void sources.load().catch(() => undefined)
  const mixed = computed(() => new Set(songs.value.map(sourceIdOf)).size > 1)
  const names = computed(
    () => new Map(sources.sources.map((s) => [s.id, s.builtin ? t('settings.builtinSource') : s.name])),
  )
  provide(ROW_SOURCE, (song) => {
    const id = sourceIdOf(song)
    if (id === undefined || sources.list.status !== 'ready') return undefined
    const name = names.value.get(id)
    if (name === undefined) return t('player.source.removed')
    return mixed.value ? name : undefined
  })
}
