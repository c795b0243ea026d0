import { useI18n } from 'vue-i18n'
import { useRouter } from 'vue-router'
import type { Song } from '@shared/api/models'
import type { CollectionFormat } from '@shared/ipc/contract'
import type { Playlist } from '@shared/api/models'
import type { CadenceError } from '@shared/errors'
import { useAccountPlaylistsStore } from '@renderer/stores/account-playlists'
import { useCollectionStore } from '@renderer/stores/collection'
import { useNotificationsStore } from '@renderer/stores/notifications'
import { useFailure } from '@renderer/composables/failure'
import { saveFile } from '@renderer/services/save-file'
import { useCountText } from '@renderer/composables/format'

/** The route of one of the user's playlists. */
export const collectionRoute = (id: string) => ({ name: 'collection', params: { id } })
/**
 * The route of a playlist in the account on the data source, with its name for the page to show (some
 * servers' playlist detail has no name: NeteaseMusicAdapter's).
 */
export const accountPlaylistRoute = (id: Playlist['id'], name: string) => ({
  path: `/playlist/${encodeURIComponent(String(id))}`,
  state: { card: { name } },
})

/**
 * What the user does with their own playlists, with what they are told: each action reports success or
 * failure through the one notifications path and answers whether it worked.
 */
export function useCollect() {
  const { t } = useI18n()
  const countText = useCountText()
  const router = useRouter()
  const store = useCollectionStore()
  const account = useAccountPlaylistsStore()
  const notifications = useNotificationsStore()
  const failed = useFailure()

  return {
    async addSongs(id: string, songs: Song[]) {
      try {
        const result = await store.add(id, songs)
        const name = result.playlist.name
        if (result.added === 0) notifications.info(t('collection.alreadyIn', { name }))
        else notifications.success(countText('collection.added', result.added, { name }))
        return result
      } catch (cause) {
        return failed('collection.addFailed', cause)
      }
    },
    /**
     * A new playlist: in the account where the data source can hold playlists (so it is on the phone
     * too), else (or `here`: songs of another data source among them) on this computer, which the message
     * says. `route` opens it.
     */
    async create(name: string, songs?: Song[], here = false) {
      let reason: string | undefined
      if (account.canCreate && !here) {
        try {
          const made = await account.create(name, songs)
          notifications.success(
            songs?.length
              ? countText('collection.added', songs.length, { name: made.name })
              : t('collection.createdInAccount', { name: made.name }),
          )
          return { id: String(made.id), name: made.name, route: accountPlaylistRoute(made.id, made.name) }
        } catch (cause) {
          if ((cause as CadenceError).kind !== 'unavailable') return failed('collection.createFailed', cause)
          reason = (cause as CadenceError).message
        }
      }
      try {
        const made = await store.create(name, songs)
        if (reason) notifications.info(t('collection.keptHere', { reason, name: made.name }))
        else
          notifications.success(
            songs?.length
              ? countText('collection.added', made.size, { name: made.name })
              : t('collection.created', { name: made.name }),
          )
        return { id: made.id, name: made.name, route: collectionRoute(made.id) }
      } catch (cause) {
        return failed('collection.createFailed', cause)
      }
    },
    /** Adds songs to a playlist in the account (shown at once, rolled back with a message if refused). */
    async addToAccount(playlist: Playlist, songs: Song[]) {
      try {
        await account.add(playlist, songs)
        notifications.success(countText('collection.added', songs.length, { name: playlist.name }))
        return true
      } catch (cause) {
        return failed('collection.addFailed', cause)
      }
    },
    /** Copies one of this computer's playlists into the account, as a new playlist there. */
    async copyToAccount(name: string, songs: Song[]) {
      try {
        const made = await account.create(name, songs)
        notifications.success(t('collection.copiedToAccount', { name: made.name }))
        await router.push(accountPlaylistRoute(made.id, made.name))
        return made
      } catch (cause) {
        return failed('collection.copyFailed', cause)
      }
    },
    async rename(id: string, name: string) {
      try {
        return await store.rename(id, name)
      } catch (cause) {
        return failed('collection.renameFailed', cause)
      }
    },
    async remove(id: string, name: string) {
      try {
        await store.remove(id)
        notifications.info(t('collection.deleted', { name }))
        return true
      } catch (cause) {
        return failed('collection.deleteFailed', cause)
      }
    },
    /** Saves the playlist as a file the way a browser downloads one (Electron asks where to save it). */
    async exportAs(id: string, format: CollectionFormat) {
      try {
        const file = await store.exportFile(id, format)
        saveFile(file)
        return file
      } catch (cause) {
        return failed('collection.exportFailed', cause)
      }
    },
    /** Imports a chosen M3U8 or JSON file as a new playlist and opens it. */
    async importFrom(file: File) {
      try {
        const made = await store.importFile(await file.text(), file.name)
        notifications.success(countText('collection.imported', made.size, { name: made.name }))
        await router.push(collectionRoute(made.id))
        return made
      } catch (cause) {
        return failed('collection.importFailed', cause)
      }
    },
  }
}
