import { describe, expect, it } from 'vitest'
import {
  contentRangeHeader,
  parseContentRange,
  parseRange,
  rangeHeader,
  unsatisfiedRangeHeader,
} from '@shared/http/range'

describe('rangeHeader', () => {
  it('asks for a closed span, or from an offset to the end', () => {
    expect(rangeHeader(0, 65535)).toBe('bytes=0-65535')
    expect(rangeHeader(1000)).toBe('bytes=1000-')
  })
})

describe('parseRange', () => {
  it('reads a span, an open end and a suffix, cut to the file', () => {
    expect(parseRange('bytes=0-', 10)).toEqual({ start: 0, end: 9 })
    expect(parseRange('bytes=2-100', 10)).toEqual({ start: 2, end: 9 })
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 })
    expect(parseRange('bytes=-30', 10)).toEqual({ start: 0, end: 9 })
    expect(parseRange(' bytes= 4 - 5 ', 10)).toEqual({ start: 4, end: 5 })
  })

  it('answers the whole file to no range and to several', () => {
    expect(parseRange(undefined, 10)).toBe('whole')
    expect(parseRange('', 10)).toBe('whole')
    expect(parseRange('bytes=0-1,4-5', 10)).toBe('whole')
  })

  it('finds a range past the end, an empty suffix or an empty file unsatisfiable', () => {
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable')
    expect(parseRange('bytes=15-12', 10)).toBe('unsatisfiable')
    expect(parseRange('bytes=-0', 10)).toBe('unsatisfiable')
    expect(parseRange('bytes=-5', 0)).toBe('unsatisfiable')
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable')
  })

  it('leaves what it cannot read to the caller', () => {
    expect(parseRange('items=0-1', 10)).toBe('malformed')
    expect(parseRange('bytes=-', 10)).toBe('malformed')
    expect(parseRange('bytes=5-2', 10)).toBe('malformed')
    expect(parseRange('bytes=a-b', 10)).toBe('malformed')
  })
})

describe('Content-Range', () => {
  it('is written for a 206 and a 416', () => {
    expect(contentRangeHeader({ start: 10, end: 19 }, 1000)).toBe('bytes 10-19/1000')
    expect(unsatisfiedRangeHeader(1000)).toBe('bytes */1000')
  })

  it('is read back, with an unknown total, and refused when it is something else', () => {
    expect(parseContentRange('bytes 10-19/1000')).toEqual({ start: 10, end: 19, total: 1000 })
    expect(parseContentRange('bytes 10-19/*')).toEqual({ start: 10, end: 19, total: undefined })
    expect(parseContentRange('bytes */1000')).toEqual({ start: undefined, end: undefined, total: 1000 })
    expect(parseContentRange('items 1-2/3')).toBeUndefined()
    expect(parseContentRange(null)).toBeUndefined()
    expect(parseContentRange('bytes 1-2')).toBeUndefined()
  })
})
