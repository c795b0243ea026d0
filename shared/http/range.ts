/**
 * HTTP byte ranges (RFC 9110 §14), one `bytes=` range at a time, as every process uses them: the
 * renderer and main ask for ranges (`rangeHeader`), main and the reference server answer them
 * (`parseRange`, `contentRangeHeader`, `unsatisfiedRangeHeader`), and main and the renderer read the
 * answer's `Content-Range` (`parseContentRange`).
 */

/** Bytes `start` to `end` of a file, both included. */
export interface ByteSpan {
  start: number
  end: number
}

/** A `Range` header's value: bytes `start` to `end` (included), or to the end of the file without `end`. */
export function rangeHeader(start: number, end?: number): string {
  return `bytes=${start}-${end ?? ''}`
}

/**
 * One `bytes=` range of a file of `size` bytes: the span to answer (206); 'whole' (no range, or several:
 * a server may answer those with the whole file); 'unsatisfiable' (416: it starts past the end, or asks
 * for no bytes); 'malformed' (not a range this reads: the caller decides, whole file or 416).
 */
export function parseRange(
  header: string | null | undefined,
  size: number,
): ByteSpan | 'whole' | 'unsatisfiable' | 'malformed' {
  const text = header?.trim() ?? ''
  if (text === '') return 'whole'
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)$/.exec(text)
  if (!match) return text.startsWith('bytes=') && text.includes(',') ? 'whole' : 'malformed'
  const [, from = '', to = ''] = match
  if (from === '' && to === '') return 'malformed'
  if (from === '') {
    const suffix = Number(to)
    if (suffix === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(from)
  if (start >= size) return 'unsatisfiable'
  if (to !== '' && Number(to) < start) return 'malformed'
  return { start, end: to === '' ? size - 1 : Math.min(Number(to), size - 1) }
}

/** The `Content-Range` of a 206: `bytes <start>-<end>/<size>`. */
export function contentRangeHeader(span: ByteSpan, size: number): string {
  return `bytes ${span.start}-${span.end}/${size}`
}

/** The `Content-Range` of a 416: `bytes *\/<size>`. */
export function unsatisfiedRangeHeader(size: number): string {
  return `bytes */${size}`
}

/**
 * An answer's `Content-Range`: `bytes <start>-<end>/<total>` (the total `*` when unknown) or
 * `bytes *\/<total>`; undefined when it is neither.
 */
export function parseContentRange(
  header: string | null | undefined,
): { start?: number; end?: number; total?: number } | undefined {
  const match = /^bytes (?:(\d+)-(\d+)|\*)\/(\d+|\*)$/.exec(header?.trim() ?? '')
  if (!match) return undefined
  const [, start, end, total] = match
  return {
    start: start === undefined ? undefined : Number(start),
    end: end === undefined ? undefined : Number(end),
    total: total === '*' || total === undefined ? undefined : Number(total),
  }
}
