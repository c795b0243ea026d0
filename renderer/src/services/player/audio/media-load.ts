import { parseContentRange } from '@shared/http/range'
/** A media address that failed: `code` is the MediaError code an element would report. */
export class MediaFailure extends Error {
  readonly code: number
  constructor(code: number, message: string) {
    super(message)
    this.code = code
  }
}

/**
 * Fetches a range of a media address (`options.fetch`, default `fetch`, which Electron allows on the
 * privileged scheme); an answer that is not ok is a `MediaFailure` (404: unsupported source).
 */
export function createLoad(options: { fetch?: typeof fetch }) {
  return async (url: string, range?: string) => {
    const answer = await (options.fetch ?? fetch)(url, { headers: range ? { Range: range } : {} })
    if (!answer.ok) {
      await answer.body?.cancel().catch(() => undefined)
      throw new MediaFailure(answer.status === 404 ? 4 : 2, `HTTP ${answer.status}`)
    }
    return answer
  }
}

/**
 * The whole file's length from a ranged answer: its `Content-Range` total, or the body's length when it
 * answered 200 (the whole file); undefined when neither says.
 */
export function fileSize(answer: Response, bodyLength: number): number | undefined {
  const total = parseContentRange(answer.headers.get('content-range'))?.total
  return total !== undefined ? total : answer.status === 200 ? bodyLength : undefined
}
