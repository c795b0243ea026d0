/**
 * What crosses the stand-in's Playwright binding between a page and main: one JSON string, in which
 * `undefined` survives (structured clone keeps it; JSON would turn `[undefined]` into `[null]`).
 * Main runs `structuredClone` first, so a value Electron's IPC refuses (a function, a symbol) is refused
 * here too. Browser-safe.
 */
const UNDEFINED = '\u0000undefined'

export function encode(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (item === undefined ? UNDEFINED : item)) ?? 'null'
}

export function decode(text: string): unknown {
  const value: unknown = JSON.parse(text, (_key, item: unknown) => (item === UNDEFINED ? undefined : item))
  return value === UNDEFINED ? undefined : value
}
