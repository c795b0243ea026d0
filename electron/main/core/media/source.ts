import type { MediaRef } from '@shared/player/media-url'

/**
 * Where the media handler gets a song's bytes. The network source below resolves the data source's signed
 * URL and streams it; a cache is another `MediaSource` that answers from disk and falls back to
 * the one it wraps, so the handler and the renderer never change.
 */
export interface MediaSource {
  /**
   * The song's bytes as an HTTP answer: 200 with the whole file, 206 with the asked `range`
   * (`bytes=…`, passed as the renderer sent it), 416 for a range past the end. Anything that cannot be
   * served throws a `MediaError` with the status to answer.
   */
  open(ref: MediaRef, request: MediaOpenRequest): Promise<Response>
}

export interface MediaOpenRequest {
  method: 'GET' | 'HEAD'
  /** The renderer's `Range` header, as sent. */
  range?: string
  signal?: AbortSignal
}

/** A failure with the HTTP status the renderer should see (404 gone, 403 refused, 502 upstream failed…). */
export class MediaError extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.name = 'MediaError'
    this.status = status
  }
}
