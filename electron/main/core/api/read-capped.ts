import { invalid } from './errors'
import { defaultTurn } from './sliced-json'

/**
 * The capped reader: a body is read as bytes, never more than a limit, and refused as soon as it nests
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

/** How long reading may run before the event loop gets a turn (see `readCapped`). */
const BUDGET_MS = 6

/**
 * Reads the body's bytes, at most `limit` bytes: a larger `Content-Length` is refused before reading, and a
 * body that passes the limit while streaming is cut off at once. Nesting is checked on the way.
 *
 * A body that has already arrived is handed over chunk after chunk without a turn of the event loop in
 * between (libuv reads up to 32 chunks per poll, and each read resolves the next at once): 14 MB so read
 * and scanned held main for 25-50 ms. So the reader gives the event loop a turn whenever it has run for
 * `budgetMs`; meanwhile the body waits in the socket (the stream's backpressure).
 */
export async function readCapped(
  response: Response,
  limit: number,
  endpoint: string,
  options: { budgetMs?: number; turn?: () => Promise<void>; now?: () => number } = {},
): Promise<Uint8Array> {
  const budget = options.budgetMs ?? BUDGET_MS
  const turn = options.turn ?? defaultTurn
  const now = options.now ?? (() => performance.now())
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
  if (!response.body) return new Uint8Array()
  const reader = response.body.getReader()
  const tooDeep = createNestingScanner(MAX_NESTING)
  // Kept as bytes, not decoded to one string: the parser reads UTF-8 and decodes only small pieces (one
  // 14 MB string would be a join and a copy of its own, ~12 ms in one piece). With a Content-Length the
  // bytes go straight into one buffer of that size; without, the chunks are joined once at the end (a
  // plain copy, a few ms for 16 MB), so a refused answer never held more than the chunks read.
  const sized = Number.isFinite(declared) && declared > 0 ? new Uint8Array(declared) : undefined
  const parts: Uint8Array[] = []
  let total = 0
  let mark = now()
  for (;;) {
    if (now() - mark >= budget) {
      await turn()
      mark = now()
    }
    const { done, value } = await reader.read()
    if (done) break
    if (total + value.byteLength > limit) {
      await reader.cancel().catch(() => {})
      throw tooLarge(`more than ${Math.round(limit / (1024 * 1024))} MB sent`)
    }
    if (tooDeep(value)) {
      await reader.cancel().catch(() => {})
      throw invalid(endpoint, status, 'The data source sent an answer nested too deeply')
    }
    // A body longer than it announced goes on in parts after the sized buffer.
    if (sized && !parts.length && total + value.byteLength <= sized.length) sized.set(value, total)
    else {
      if (sized && !parts.length) parts.push(sized.subarray(0, total))
      parts.push(value)
    }
    total += value.byteLength
  }
  if (!parts.length) return sized ? sized.subarray(0, total) : new Uint8Array()
  if (parts.length === 1) return parts[0]
  const bytes = new Uint8Array(total)
  let at = 0
  for (const part of parts) {
    bytes.set(part, at)
    at += part.byteLength
  }
  return bytes
}
