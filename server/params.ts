import { badRequest } from './envelope'

/** Query string / body values as Fastify hands them over. */
export type Params = Record<string, unknown>

const MAX_ID = Number.MAX_SAFE_INTEGER

function scalar(params: Params, name: string): string | undefined {
  let value = params[name]
  if (Array.isArray(value)) value = value[value.length - 1]
  if (value === undefined || value === null) return undefined
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (typeof value !== 'string') throw badRequest(`Parameter "${name}" must be a single value.`)
  // Control characters (a NUL ends SQLite's string) never go further than here.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) {
    throw badRequest(`Parameter "${name}" contains control characters.`)
  }
  const trimmed = value.trim()
  return trimmed === '' ? undefined : trimmed
}

/** A positive integer id (ids are numbers in this server; numeric strings are accepted). */
export function idParam(params: Params, name: string, required: true): number
export function idParam(params: Params, name: string, required: false): number | undefined
export function idParam(params: Params, name: string, required: boolean): number | undefined {
  const raw = scalar(params, name)
  if (raw === undefined) {
    if (required) throw badRequest(`Missing required parameter "${name}".`)
    return undefined
  }
  if (!/^\d{1,16}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_ID) {
    throw badRequest(`Parameter "${name}" must be a positive integer id, got "${raw.slice(0, 40)}".`)
  }
  return Number(raw)
}

/** An integer in [min, ∞); values above `max` are clamped to `max`. */
export function intParam(params: Params, name: string, def: number, min: number, max: number): number {
  const raw = scalar(params, name)
  if (raw === undefined) return def
  if (!/^-?\d{1,20}$/.test(raw)) {
    throw badRequest(`Parameter "${name}" must be an integer, got "${raw.slice(0, 40)}".`)
  }
  const n = Number(raw)
  if (n < min) throw badRequest(`Parameter "${name}" must be at least ${min}, got ${raw.slice(0, 40)}.`)
  return Math.min(n, max)
}

export function boolParam(params: Params, name: string, def: boolean): boolean {
  const raw = scalar(params, name)
  if (raw === undefined) return def
  const v = raw.toLowerCase()
  if (v === 'true' || v === '1' || v === 'yes') return true
  if (v === 'false' || v === '0' || v === 'no') return false
  throw badRequest(`Parameter "${name}" must be true or false, got "${raw.slice(0, 40)}".`)
}

export function stringParam(params: Params, name: string, required: true, maxLength: number): string
export function stringParam(
  params: Params,
  name: string,
  required: false,
  maxLength: number,
): string | undefined
export function stringParam(
  params: Params,
  name: string,
  required: boolean,
  maxLength: number,
): string | undefined {
  const raw = scalar(params, name)
  if (raw === undefined) {
    if (required) throw badRequest(`Missing required parameter "${name}".`)
    return undefined
  }
  if ([...raw].length > maxLength) {
    throw badRequest(`Parameter "${name}" is too long (at most ${maxLength} characters).`)
  }
  return raw
}
