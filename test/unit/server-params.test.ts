import { describe, expect, it } from 'vitest'
import { boolParam, idParam, intParam, stringParam } from '../../server/params'
import { ApiError } from '../../server/envelope'

/** The ApiError `fn` throws (fails the test when it throws nothing or something else). */
function rejection(fn: () => unknown): ApiError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError)
    return error as ApiError
  }
  throw new Error('expected an ApiError')
}

describe('server params', () => {
  describe('idParam', () => {
    it('accepts positive integers as numbers or numeric strings, trimmed', () => {
      expect(idParam({ id: '42' }, 'id', true)).toBe(42)
      expect(idParam({ id: 7 }, 'id', true)).toBe(7)
      expect(idParam({ id: ' 9 ' }, 'id', true)).toBe(9)
      expect(idParam({ id: String(Number.MAX_SAFE_INTEGER) }, 'id', true)).toBe(Number.MAX_SAFE_INTEGER)
    })

    it('answers 400 naming the parameter for a missing required id, and undefined for an optional one', () => {
      const error = rejection(() => idParam({}, 'id', true))
      expect(error.status).toBe(400)
      expect(error.message).toContain('"id"')
      expect(idParam({}, 'id', false)).toBeUndefined()
      expect(idParam({ id: '   ' }, 'id', false)).toBeUndefined()
    })

    it('refuses zero, negatives, fractions, hex, exponents and ids past the safe range', () => {
      for (const bad of ['0', '-1', '1.5', '0x10', '1e3', 'abc', '9007199254740993', '12345678901234567']) {
        expect(rejection(() => idParam({ id: bad }, 'id', true)).status).toBe(400)
      }
    })

    it('takes the last of repeated values and refuses objects', () => {
      expect(idParam({ id: ['1', '2'] }, 'id', true)).toBe(2)
      expect(rejection(() => idParam({ id: { a: 1 } }, 'id', true)).message).toContain('single value')
    })

    it('quotes at most 40 characters of a bad value back', () => {
      const error = rejection(() => idParam({ id: 'x'.repeat(5000) }, 'id', true))
      expect(error.message.length).toBeLessThan(200)
    })
  })

  describe('intParam', () => {
    it('uses the default when absent, clamps above max, refuses below min', () => {
      expect(intParam({}, 'limit', 30, 1, 100)).toBe(30)
      expect(intParam({ limit: '5' }, 'limit', 30, 1, 100)).toBe(5)
      expect(intParam({ limit: '100000' }, 'limit', 30, 1, 100)).toBe(100)
      expect(rejection(() => intParam({ limit: '0' }, 'limit', 30, 1, 100)).message).toContain('at least 1')
    })

    it('refuses anything but an integer', () => {
      for (const bad of ['1.0', 'ten', '1_000', '--1', '+5']) {
        expect(rejection(() => intParam({ limit: bad }, 'limit', 3, 1, 9)).status).toBe(400)
      }
      expect(intParam({ limit: '' }, 'limit', 3, 1, 9)).toBe(3)
    })
  })

  describe('boolParam', () => {
    it('reads true/false, 1/0 and yes/no in any case', () => {
      for (const t of ['true', 'TRUE', '1', 'yes', true])
        expect(boolParam({ like: t }, 'like', false)).toBe(true)
      for (const f of ['false', 'False', '0', 'no', false])
        expect(boolParam({ like: f }, 'like', true)).toBe(false)
      expect(boolParam({}, 'like', true)).toBe(true)
    })

    it('refuses anything else', () => {
      expect(rejection(() => boolParam({ like: 'maybe' }, 'like', true)).status).toBe(400)
    })
  })

  describe('stringParam', () => {
    it('trims, treats blank as absent, and counts characters not UTF-16 units against the limit', () => {
      expect(stringParam({ keywords: '  night sky ' }, 'keywords', true, 100)).toBe('night sky')
      expect(stringParam({ keywords: '   ' }, 'keywords', false, 100)).toBeUndefined()
      expect(rejection(() => stringParam({ keywords: '  ' }, 'keywords', true, 100)).status).toBe(400)
      // Four astral characters are eight UTF-16 units but four characters.
      expect(stringParam({ keywords: '🎵🎵🎵🎵' }, 'keywords', true, 4)).toBe('🎵🎵🎵🎵')
      expect(rejection(() => stringParam({ keywords: 'abcde' }, 'keywords', true, 4)).message).toContain(
        'too long',
      )
    })

    it('stops control characters (a NUL would end the string in SQLite) before they go further', () => {
      for (const bad of ['a\u0000b', 'tab\there', 'bell\u0007', 'del\u007f', 'line\nbreak']) {
        const error = rejection(() => stringParam({ keywords: bad }, 'keywords', true, 100))
        expect(error.status).toBe(400)
        expect(error.message).toContain('control characters')
      }
      // Non-ASCII text and symbols are not control characters.
      expect(stringParam({ keywords: '夜空 — café' }, 'keywords', true, 100)).toBe('夜空 — café')
    })
  })
})
