import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import type { Id } from '@shared/api/models'
import type { CadenceError } from '@shared/errors'
import { invoke } from '@renderer/services/cadence'
import { useAsyncState } from '@renderer/stores/async-state'
import { useSourcesStore } from './sources'

/**
 * Whether a failure says the data source has no artist pages at all (QMusicAdapter has no
 * `/artist/detail`): the route itself is missing, answered with a bare HTTP 404 and no envelope. A
 * server that knows the route but not the artist answers its envelope, which is `api`, not `http`.
 */
export function isMissingArtistPages(error: CadenceError | undefined): boolean {
  return error?.kind === 'http' && error.status === 404 && error.endpoint === '/artist/detail'
}

/** The artist being viewed (`#/artist/:id`): the data source answers with a Playlist-shaped object. */
export const useArtistStore = defineStore('artist', () => {
  const sources = useSourcesStore()
  const id = ref<Id>()
  const detail = useAsyncState(() => invoke('catalog:artist', { id: id.value! }))
  /** The data source found to have no artist pages, so links to them are hidden while it is active. */
  const missingOn = ref<string>()
  const sourceKey = () => String(sources.activeId ?? '')

  watch(detail.error, (error) => {
    if (isMissingArtistPages(error)) missingOn.value = sourceKey()
  })
  const pagesMissing = computed(() => missingOn.value !== undefined && missingOn.value === sourceKey())

  function open(next: Id) {
    if (String(next) !== String(id.value)) detail.data.value = undefined
    id.value = next
    return detail.load()
  }

  return { id, detail, missingOn, pagesMissing, open }
})
