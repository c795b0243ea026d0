import type { TrackInfo } from '@shared/ipc/contract'
import type { Logger } from '../log'
import { fetchCover, MAX_COVER_BYTES } from '../offline/extras'
import type { NotifierPort } from './ports'

/** A cover larger than this is not fetched for a notification (read no further than that). */
export { MAX_COVER_BYTES }
export const COVER_TIMEOUT_MS = 3000
/** The image types a notification shows. */
const NOTIFICATION_TYPES = /^image\/(png|jpeg|webp|gif)$/

/**
 * The track-change notification: shown when the setting is on, for a song not announced just before,
 * while no Cadence window has focus (the user sees the song already), with the cover: the PNG the renderer
 * drew when it could read the cover, else fetched here in time (an image, at most 2 MiB); none otherwise.
 */
export function createTrackNotifier(deps: {
  notifier?: NotifierPort
  enabled: () => boolean
  fetch?: typeof fetch
  log: Logger
}) {
  let lastId: string | null = null

  async function cover(url: string | undefined): Promise<Uint8Array | undefined> {
    if (!url || !deps.fetch) return undefined
    try {
      // Streamed and cut off at the cap, as the covers kept offline are.
      const { bytes } = await fetchCover(deps.fetch, url, {
        timeoutMs: COVER_TIMEOUT_MS,
        accept: (type) => NOTIFICATION_TYPES.test(type),
      })
      return bytes
    } catch (error) {
      deps.log.debug('no cover for the notification', { error: String(error) })
      return undefined
    }
  }

  /** A PNG the renderer drew (the schema checked its shape). */
  function fromDataUri(uri: string): Uint8Array | undefined {
    const bytes = Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64')
    return bytes.byteLength > 0 && bytes.byteLength <= MAX_COVER_BYTES ? new Uint8Array(bytes) : undefined
  }

  /** Answers whether a notification was shown. */
  async function trackChanged(track: TrackInfo): Promise<boolean> {
    const id = String(track.id)
    const repeated = id === lastId
    lastId = id
    const notifier = deps.notifier
    if (repeated || !deps.enabled() || !notifier?.supported() || notifier.appFocused()) return false
    const icon = track.coverImage ? fromDataUri(track.coverImage) : await cover(track.cover)
    if (lastId !== id) return false
    const body = track.album ? `${track.artists} — ${track.album}` : track.artists
    notifier.show({ title: track.name, body, icon })
    return true
  }

  return { trackChanged }
}
