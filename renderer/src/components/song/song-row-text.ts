import { computed } from 'vue'
import type { ComputedRef } from 'vue'
import { useI18n } from 'vue-i18n'
import { useRouter } from 'vue-router'
import type { Id } from '@shared/api/models'
import { useArtistStore } from '@renderer/stores/artist'
import { albumRoute } from '@renderer/composables/album-link'

/**
 * Everything a song row says, translated once per list (and again when the language changes) instead
 * of once per row per render: a 10,000-song list scrolls through dozens of new rows a frame.
 */
export interface SongRowText {
  untitled: string
  unplayable: string
  nowPlaying: string
  likeShort: string
  unlikeShort: string
  like: (name: string) => string
  unlike: (name: string) => string
  more: (name: string) => string
  /**
   * The link to an artist's page, as RouterLink would write it (hash history: `#/artist/7`); undefined
   * when the data source has no artist pages.
   */
  artistHref: (id: Id) => string | undefined
  /** The link to an album's page (its id, name and first artist, as "Go to album" opens it). */
  albumHref: (album: { id: Id; name: string }, artist?: string) => string
}

/** Where a message's `{name}` goes; no translation contains this character. */
const SLOT = '\u0001'

export function useSongRowText(): ComputedRef<SongRowText> {
  const { t, locale } = useI18n()
  const router = useRouter()
  const artists = useArtistStore()
  // A message with `{name}` filled by joining its pieces: one split per language, not one t() per row.
  const withName = (key: string) => {
    const parts = t(key, { name: SLOT }).split(SLOT)
    return (name: string) => parts.join(name)
  }
  return computed(() => {
    void locale.value
    const pagesMissing = artists.pagesMissing
    return {
      untitled: t('common.untitled'),
      unplayable: t('song.unplayable'),
      nowPlaying: t('song.nowPlaying'),
      likeShort: t('song.likeShort'),
      unlikeShort: t('song.unlikeShort'),
      like: withName('song.like'),
      unlike: withName('song.unlike'),
      more: withName('song.more'),
      artistHref: (id) =>
        pagesMissing
          ? undefined
          : router.options.history.createHref(`/artist/${encodeURIComponent(String(id))}`),
      albumHref: (album, artist) => router.resolve(albumRoute(album, artist)).href,
    }
  })
}
