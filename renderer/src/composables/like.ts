import { useI18n } from 'vue-i18n'
import type { Song } from '@shared/api/models'
import { useLikesStore } from '@renderer/stores/likes'
import { useNotificationsStore } from '@renderer/stores/notifications'

/**
 * Like or unlike a song from anywhere (song rows, the now-playing bar): the likes store updates at once and
 * rolls back if the server refuses; the refusal is reported with the same words everywhere.
 */
export function useLikeToggle() {
  const { t } = useI18n()
  const likes = useLikesStore()
  const notifications = useNotificationsStore()
  return async function setLiked(song: Song, want: boolean): Promise<void> {
    try {
      await likes.setLiked(song, want)
    } catch (error) {
      const kind = (error as { kind?: string }).kind
      notifications.error(
        kind === 'unauthorized'
          ? t('song.likeSignedOut')
          : t(want ? 'song.likeFailed' : 'song.unlikeFailed', { name: song.name }),
      )
    }
  }
}
