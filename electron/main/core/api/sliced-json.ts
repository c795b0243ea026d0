/**
 * JSON parsing that never holds the event loop for long. `JSON.parse` of a 14 MB answer (a 50,000-song
 * playlist from a server that does not page) is one block of about 100 ms on main, during which every
 * window and the tray freeze. Here a big array or object is walked member by member: each member small
 * enough is handed to `JSON.parse` whole (fast, native), bigger ones are walked the same way, and the walk
 * gives the event loop a turn whenever it has run for `budgetMs`. The result is what `JSON.parse` gives.
 *
 * Small texts go straight to `JSON.parse`. Invalid JSON throws a `SyntaxError`, as `JSON.parse` does.
 */

/** Texts (and members) shorter than this many bytes are parsed in one piece: well under a millisecond each. */
const PIECE_CHARS = 64 * 1024
/** How long one stretch of work may run before the event loop gets a turn. */
const BUDGET_MS = 6

/**
 * An item kept as its JSON text (`keepText`): where its UTF-8 bytes lie in the answer's bytes, decoded and
 * parsed only when it is needed. One small object per item, not a typed-array view per item: 50,000
 * views for a long list, each surviving to the old generation, would make the garbage collector's
 * scavenges copy megabytes of views (pauses of 25-60 ms on main).
 */
export class JsonText {
  constructor(
    /** The whole answer's bytes, shared by every item of it. */
    readonly source: Uint8Array,
    readonly start = 0,
    readonly end = source.length,
  ) {}
  /** The item's bytes (a view made on each call). */
  get bytes(): Uint8Array {
    return this.source.subarray(this.start, this.end)
  }
  get text(): string {
    return utf8.decode(this.bytes)
  }
}

const utf8 = new TextDecoder()

/** Gives the event loop a turn (after I/O callbacks waiting for it). */
export const defaultTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

export interface SlicedParseOptions {
  budgetMs?: number
  pieceChars?: number
  /**
   * Where an array's items are kept as their JSON text instead of parsed (keys from the root, e.g.
   * `['data', 'songs']`): a long list read a page at a time costs a string per item, not a tree of
   * objects the garbage collector has to copy. Only when the text is long enough to be walked.
   */
  keepText?: readonly string[]
  /** Gives the event loop a turn (default: setImmediate). */
  turn?: () => Promise<void>
  now?: () => number
}

/** Parses a JSON answer given as its UTF-8 bytes (or as text, for tests). */
export async function parseJsonSliced(
  input: Uint8Array | string,
  options: SlicedParseOptions = {},
): Promise<unknown> {
  const piece = options.pieceChars ?? PIECE_CHARS
  const text = typeof input === 'string' ? new TextEncoder().encode(input) : input
  if (text.length < piece) return JSON.parse(utf8.decode(text))
  const budget = options.budgetMs ?? BUDGET_MS
  const turn = options.turn ?? defaultTurn
  const now = options.now ?? (() => performance.now())
  const walk = walker(text, piece, now, budget, options.keepText)
  for (;;) {
    const step = walk.next()
    if (step.done) return step.value
    await turn()
  }
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

/**
 * A generator that yields when its time is up and returns the parsed value. `mark` is when the current
 * stretch of work began; it restarts after each yield.
 */
function* walker(
  text: Uint8Array,
  piece: number,
  now: () => number,
  budget: number,
  keepText: readonly string[] | undefined,
): Generator<void, unknown, void> {
  // A byte order mark is not JSON, but TextDecoder (and so JSON.parse of the decoded text) skips it.
  let i = text[0] === 0xef && text[1] === 0xbb && text[2] === 0xbf ? 3 : 0
  let mark = now()
  const parse = (start: number, end: number): unknown => JSON.parse(utf8.decode(text.subarray(start, end)))
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} in JSON at position ${i}`)
  }
  const skipSpace = () => {
    while (i < text.length && isSpace(text[i])) i++
  }
  /**
   * The index just past the value starting at `start` (brackets matched, strings skipped), or -1 when it
   * runs on past `start + limit` (a big container, walked instead of measured).
   */
  const endOf = (start: number, limit = Infinity): number => {
    const first = text[start]
    if (first === 0x22) return endOfString(start)
    if (first !== 0x5b && first !== 0x7b) {
      let j = start
      while (j < text.length) {
        const c = text[j]
        if (c === 0x2c || c === 0x5d || c === 0x7d || isSpace(c)) break
        j++
      }
      return j
    }
    let depth = 0
    const stop = Math.min(text.length, start + limit)
    for (let j = start; j < stop; j++) {
      const c = text[j]
      if (c === 0x22) j = endOfString(j) - 1
      else if (c === 0x5b || c === 0x7b) depth++
      else if (c === 0x5d || c === 0x7d) {
        if (--depth === 0) return j + 1
      }
    }
    return stop < text.length ? -1 : text.length
  }
  const endOfString = (start: number): number => {
    for (let j = start + 1; j < text.length; j++) {
      const c = text[j]
      if (c === 0x5c) j++
      else if (c === 0x22) return j + 1
    }
    return text.length
  }

  /** `depth`: how many keys of `keepText` the path to this value matched (-1: off the path). */
  function* value(depth: number): Generator<void, unknown, void> {
    skipSpace()
    const c = text[i]
    if (keepText && depth === keepText.length && c === 0x5b) return yield* texts()
    if (c !== 0x5b && c !== 0x7b) {
      const end = endOf(i)
      const parsed: unknown = parse(i, end)
      i = end
      return parsed
    }
    const end = endOf(i, piece)
    if (end >= 0) {
      const parsed: unknown = parse(i, end)
      i = end
      return parsed
    }
    return c === 0x5b ? yield* array() : yield* object(depth)
  }

  /** An array whose items stay JSON text. */
  function* texts(): Generator<void, JsonText[], void> {
    const out: JsonText[] = []
    i++ // [
    skipSpace()
    if (text[i] === 0x5d) return (i++, out)
    for (;;) {
      skipSpace()
      const end = endOf(i)
      if (end <= i) fail('Expected a value')
      out.push(new JsonText(text, i, end))
      i = end
      yield* pause()
      skipSpace()
      const c = text[i++]
      if (c === 0x5d) return out
      if (c !== 0x2c) fail('Expected , or ]')
    }
  }

  function* pause(): Generator<void, void, void> {
    if (now() - mark < budget) return
    yield
    mark = now()
  }

  function* array(): Generator<void, unknown[], void> {
    const out: unknown[] = []
    i++ // [
    skipSpace()
    if (text[i] === 0x5d) return (i++, out)
    for (;;) {
      out.push(yield* value(-1))
      yield* pause()
      skipSpace()
      const c = text[i++]
      if (c === 0x5d) return out
      if (c !== 0x2c) fail('Expected , or ]')
    }
  }

  function* object(depth: number): Generator<void, Record<string, unknown>, void> {
    const out: Record<string, unknown> = {}
    i++ // {
    skipSpace()
    if (text[i] === 0x7d) return (i++, out)
    for (;;) {
      skipSpace()
      if (text[i] !== 0x22) fail('Expected a property name')
      const keyEnd = endOfString(i)
      const key = parse(i, keyEnd) as string
      i = keyEnd
      skipSpace()
      if (text[i++] !== 0x3a) fail('Expected :')
      const onPath = depth >= 0 && keepText !== undefined && keepText[depth] === key
      const member = yield* value(onPath ? depth + 1 : -1)
      // As JSON.parse does: a `__proto__` key is an own property, never the prototype.
      Object.defineProperty(out, key, { value: member, enumerable: true, writable: true, configurable: true })
      yield* pause()
      skipSpace()
      const c = text[i++]
      if (c === 0x7d) return out
      if (c !== 0x2c) fail('Expected , or }')
    }
  }

  const result = yield* value(keepText?.length ? 0 : -1)
  skipSpace()
  if (i < text.length) fail('Unexpected text after the value')
  return result
}

/**
 * Visits every object below `root` (arrays walked into), giving the event loop a turn whenever the walk
 * has run for `budgetMs`: for fixing up a big answer after parsing it (see `normaliseImages`).
 */
export async function visitSliced(
  root: unknown,
  visit: (record: Record<string, unknown>) => void,
  options: Pick<SlicedParseOptions, 'budgetMs' | 'turn' | 'now'> = {},
): Promise<void> {
  const budget = options.budgetMs ?? BUDGET_MS
  const turn = options.turn ?? defaultTurn
  const now = options.now ?? (() => performance.now())
  const stack: unknown[] = [root]
  let mark = now()
  let count = 0
  while (stack.length) {
    const node = stack.pop()
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push(node[i])
    } else if (typeof node === 'object' && node !== null && !(node instanceof JsonText)) {
      const record = node as Record<string, unknown>
      visit(record)
      for (const key in record) {
        const child = record[key]
        if (typeof child === 'object' && child !== null) stack.push(child)
      }
    }
    if (++count % 256 === 0 && now() - mark >= budget) {
      await turn()
      mark = now()
    }
  }
}
