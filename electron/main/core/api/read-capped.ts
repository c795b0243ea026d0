import { invalid } from './errors'

/**
 * The capped reader: a body is read as text, never more than a limit, and refused as soon as it nests
 * deeper than structured clone copes with.
 */

/**
 * Deeper answers are refused: JSON.parse copes with any depth, but structured clone (Electron IPC) and
 * JSON.stringify overflow the stack at a few thousand levels. Real answers nest about ten levels.
 */
const MAX_NESTING = 100

/**
 * Counts how deeply JSON nests while the bytes arrive (strings skipped). Works on UTF-8 bytes: quote,
 * backslash and brackets are ASCII, and no byte of a multi-byte character is ASCII.
 */
function createNestingScanner(max: number) {
  let depth = 0
  let inString = false
  let escaped = false
  return (bytes: Uint8Array): boolean => {
    for (let i = 0; i < bytes.length; i++) {
      const c = bytes[i]
      if (inString) {
        if (escaped) escaped = false
        else if (c === 0x5c) escaped = true
        else if (c === 0x22) inString = false
      } else if (c === 0x22) inString = true
      else if (c === 0x5b || c === 0x7b) {
        if (++depth > max) return true
      } else if (c === 0x5d || c === 0x7d) depth--
    }
    return false
  }
}

/**
 * Reads the body as text, at most `limit` bytes: a larger `Content-Length` is refused before reading, and a
 * body that passes the limit while streaming is cut off at once. Nesting is checked on the way.
 */
export async function readCapped(response: Response, limit: number, endpoint: string): Promise<string> {
  const status = response.status
  const tooLarge = (what: string) =>
    invalid(
      endpoint,
      status,
      `The answer is too large (${what}; at most ${Math.round(limit / (1024 * 1024))} MB is read)`,
    )
  const declared = Number(response.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => {})
    throw tooLarge(`${Math.round(declared / (1024 * 1024))} MB announced`)
  }
  if (!response.body) return ''
  const reader = response.body.getReader()
  const tooDeep = createNestingScanner(MAX_NESTING)
  // Decoded as it arrives, so each chunk's bytes can go at once (multi-byte characters split across
  // chunks are carried over by the streaming decoder).
  const decoder = new TextDecoder()
  const parts: string[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > limit) {
      await reader.cancel().catch(() => {})
      throw tooLarge(`more than ${Math.round(limit / (1024 * 1024))} MB sent`)
    }
    if (tooDeep(value)) {
      await reader.cancel().catch(() => {})
      throw invalid(endpoint, status, 'The data source sent an answer nested too deeply')
    }
    parts.push(decoder.decode(value, { stream: true }))
  }
  parts.push(decoder.decode())
  return parts.join('')
}
