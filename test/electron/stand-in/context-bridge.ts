/**
 * `contextBridge.exposeInMainWorld` with the copy rules of Electron's documentation ("Parameter / Error /
 * Return Type support" in the contextBridge API page), for a preload that runs in the page's own world
 * (the stand-in Electron's windows and the end-to-end tests). Browser-safe: no Node import.
 *
 * Reproduced:
 * - strings, numbers, booleans, null, undefined, bigint: passed as they are;
 * - objects and arrays: copied key by key (own enumerable string keys); the prototype is dropped, so a
 *   class instance arrives as a plain object; every copy is frozen (the documented "copied and frozen");
 * - errors: a new `Error(message)` in the other world; the class, `name` and custom properties are lost;
 * - functions: proxied; arguments are copied the other way and the result copied back by the same rules;
 *   a promise is proxied only as a return value or an exact argument, nested in an object it is dropped;
 * - Date, RegExp, Map, Set, ArrayBuffer, typed arrays, Blob: structured clone;
 * - symbols and values nested more than 1000 levels deep: refused with an error, as Electron does;
 * - binding over an existing property of `window` throws.
 * Not reproduced: two real JavaScript worlds (the copy stands in for the world boundary, so an object the
 * preload keeps is not the page's), `exposeInIsolatedWorld`, DOM elements crossing, and the exact wording
 * and stack of Electron's messages.
 */

const MAX_DEPTH = 1000

type Direction = 'to-page' | 'to-preload'

function isCloneable(value: object): boolean {
  return (
    value instanceof Date ||
    value instanceof RegExp ||
    value instanceof Map ||
    value instanceof Set ||
    value instanceof ArrayBuffer ||
    ArrayBuffer.isView(value) ||
    (typeof Blob !== 'undefined' && value instanceof Blob)
  )
}

function copyError(error: Error): Error {
  return new Error(error.message)
}

function proxyFunction(
  fn: (...args: unknown[]) => unknown,
  direction: Direction,
): (...args: unknown[]) => unknown {
  const back: Direction = direction === 'to-page' ? 'to-preload' : 'to-page'
  return function proxied(...args: unknown[]) {
    let result: unknown
    try {
      result = fn(...args.map((arg) => copyValue(arg, back, 0, true)))
    } catch (error) {
      throw error instanceof Error ? copyError(error) : copyValue(error, direction, 0, false)
    }
    return copyValue(result, direction, 0, true)
  }
}

/**
 * Copies one value across the bridge. `topLevel` says whether a promise may cross here (a return value
 * or an exact argument); nested promises are dropped.
 */
export function copyValue(value: unknown, direction: Direction, depth = 0, topLevel = true): unknown {
  if (depth > MAX_DEPTH) throw new Error('Object has too much recursion to cross the context bridge')
  if (value === null || value === undefined) return value
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'bigint':
      return value
    case 'symbol':
      throw new TypeError('A symbol cannot cross the context bridge')
    case 'function':
      return proxyFunction(value as (...args: unknown[]) => unknown, direction)
  }
  const object = value as object
  if (object instanceof Promise) {
    if (!topLevel) return undefined
    return object.then(
      (resolved) => copyValue(resolved, direction, 0, false),
      (reason: unknown) => {
        throw reason instanceof Error ? copyError(reason) : copyValue(reason, direction, 0, false)
      },
    )
  }
  if (object instanceof Error) return copyError(object)
  if (isCloneable(object)) return structuredClone(object)
  if (Array.isArray(object)) {
    return Object.freeze(object.map((item) => copyValue(item, direction, depth + 1, false)))
  }
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(object)) {
    copy[key] = copyValue((object as Record<string, unknown>)[key], direction, depth + 1, false)
  }
  return Object.freeze(copy)
}

/** Electron's `contextBridge.exposeInMainWorld(apiKey, api)`, on the given window. */
export function exposeInMainWorld(target: object, apiKey: string, api: unknown): void {
  if (apiKey in target) {
    throw new Error(`Cannot bind an API on top of an existing property on the window object: ${apiKey}`)
  }
  Object.defineProperty(target, apiKey, {
    value: copyValue(api, 'to-page'),
    enumerable: true,
    writable: false,
    configurable: false,
  })
}
