import { describe, expect, it } from 'vitest'
import { findLineIndex, formatLrcTime, parseLrc } from '@shared/lyrics'

describe('parseLrc', () => {
  it('reads each timestamp form', () => {
    const lines = parseLrc(
      [
        '[00:01]whole',
        '[00:02.5]tenths',
        '[00:03.25]hundredths',
        '[00:04.125]millis',
        '[00:05:50]colon',
      ].join('\n'),
    )
    expect(lines).toEqual([
      { time: 1000, text: 'whole' },
      { time: 2500, text: 'tenths' },
      { time: 3250, text: 'hundredths' },
      { time: 4125, text: 'millis' },
      { time: 5500, text: 'colon' },
    ])
  })

  it('keeps the first three fraction digits of longer fractions', () => {
    expect(parseLrc('[00:01.123456]x')).toEqual([{ time: 1123, text: 'x' }])
  })

  it('accepts minutes above 59 and single-digit minutes', () => {
    expect(parseLrc('[75:02.10]late\n[1:02.00]early')).toEqual([
      { time: 62000, text: 'early' },
      { time: 75 * 60000 + 2100, text: 'late' },
    ])
  })

  it('gives one line per timestamp when a line has several', () => {
    expect(parseLrc('[00:12.00][01:30.50]chorus\n[00:20.00]verse')).toEqual([
      { time: 12000, text: 'chorus' },
      { time: 20000, text: 'verse' },
      { time: 90500, text: 'chorus' },
    ])
  })

  it('sorts lines given out of order and keeps file order for equal times', () => {
    expect(parseLrc('[00:03.00]c\n[00:01.00]a\n[00:02.00]first\n[00:02.00]second')).toEqual([
      { time: 1000, text: 'a' },
      { time: 2000, text: 'first' },
      { time: 2000, text: 'second' },
      { time: 3000, text: 'c' },
    ])
  })

  it('ignores metadata tags, blank lines, untimed lines and garbage tags', () => {
    const text = [
      '[ar:Artist]',
      '[ti:Title]',
      '[al:Album]',
      '[by:someone]',
      '[length: 03:25]',
      '',
      '   ',
      'plain words',
      '[xx:yy]garbage',
      '[00:xx]garbage',
      '[:12]garbage',
      '[00:01.00',
      '[00:01.00]kept',
    ].join('\n')
    expect(parseLrc(text)).toEqual([{ time: 1000, text: 'kept' }])
  })

  it('keeps a timed line with empty text as an instrumental gap', () => {
    expect(parseLrc('[00:01.00]sing\n[00:05.00]\n[00:09.00]  \n[00:10.00]again')).toEqual([
      { time: 1000, text: 'sing' },
      { time: 5000, text: '' },
      { time: 9000, text: '' },
      { time: 10000, text: 'again' },
    ])
  })

  it('applies a positive offset by showing lyrics earlier, clamped at zero', () => {
    expect(parseLrc('[offset:+500]\n[00:00.20]a\n[00:02.00]b')).toEqual([
      { time: 0, text: 'a' },
      { time: 1500, text: 'b' },
    ])
  })

  it('applies a negative offset by showing lyrics later, wherever the tag is', () => {
    expect(parseLrc('[00:02.00]b\n[OFFSET: -250]')).toEqual([{ time: 2250, text: 'b' }])
  })

  it('ignores an offset that is not a number', () => {
    expect(parseLrc('[offset:soon]\n[00:02.00]b')).toEqual([{ time: 2000, text: 'b' }])
  })

  it('handles a BOM and CRLF, CR and mixed line endings', () => {
    expect(parseLrc('\uFEFF[00:01.00]a\r\n[00:02.00]b\r[00:03.00]c\n\r\n[00:04.00]d\r\n')).toEqual([
      { time: 1000, text: 'a' },
      { time: 2000, text: 'b' },
      { time: 3000, text: 'c' },
      { time: 4000, text: 'd' },
    ])
  })

  it('trims whitespace around tags and text', () => {
    expect(parseLrc('  \t[00:01.00]  [00:02.00]\t hello world \t')).toEqual([
      { time: 1000, text: 'hello world' },
      { time: 2000, text: 'hello world' },
    ])
  })

  it('keeps bracketed text after the timestamps as text', () => {
    expect(parseLrc('[00:01.00][Chorus] la [la]')).toEqual([{ time: 1000, text: '[Chorus] la [la]' }])
  })

  it('returns no lines for empty or non-string input', () => {
    expect(parseLrc('')).toEqual([])
    expect(parseLrc(undefined as unknown as string)).toEqual([])
    expect(parseLrc('\uFEFF')).toEqual([])
  })

  it('parses a 10,000-line file in one pass', () => {
    const text = Array.from({ length: 10_000 }, (_, i) => {
      const ms = i * 1000
      const mm = String(Math.floor(ms / 60000)).padStart(2, '0')
      const ss = String(Math.floor((ms % 60000) / 1000)).padStart(2, '0')
      return `[${mm}:${ss}.00]line ${i}`
    }).join('\n')
    const lines = parseLrc(text)
    expect(lines).toHaveLength(10_000)
    expect(lines[9999]).toEqual({ time: 9_999_000, text: 'line 9999' })
  })
})

describe('findLineIndex', () => {
  const lines = [{ time: 1000 }, { time: 2000 }, { time: 2000 }, { time: 5000 }]

  it('returns -1 before the first line and for no lines', () => {
    expect(findLineIndex(lines, 999)).toBe(-1)
    expect(findLineIndex([], 1000)).toBe(-1)
  })

  it('returns the last line whose time has come', () => {
    expect(findLineIndex(lines, 1000)).toBe(0)
    expect(findLineIndex(lines, 1999)).toBe(0)
    expect(findLineIndex(lines, 2000)).toBe(2)
    expect(findLineIndex(lines, 4999)).toBe(2)
    expect(findLineIndex(lines, 5000)).toBe(3)
    expect(findLineIndex(lines, 1e9)).toBe(3)
  })

  it('agrees with a linear scan on many lines', () => {
    const many = Array.from({ length: 500 }, (_, i) => ({ time: i * 37 + (i % 3) }))
    for (let t = -10; t < 500 * 37; t += 13) {
      let expected = -1
      for (let i = 0; i < many.length; i++) if (many[i].time <= t) expected = i
      expect(findLineIndex(many, t)).toBe(expected)
    }
  })
})

describe('formatLrcTime', () => {
  it('writes [mm:ss.mmm], rounding to the millisecond and clamping below zero', () => {
    expect(formatLrcTime(0)).toBe('[00:00.000]')
    expect(formatLrcTime(83_456.4)).toBe('[01:23.456]')
    expect(formatLrcTime(-5)).toBe('[00:00.000]')
    expect(formatLrcTime(100 * 60_000 + 7)).toBe('[100:00.007]')
  })

  it('reads back through parseLrc at the same time', () => {
    for (const ms of [0, 1, 999, 59_999, 61_001, 3_599_999]) {
      expect(parseLrc(`${formatLrcTime(ms)}line`)).toEqual([{ time: ms, text: 'line' }])
    }
  })
})
