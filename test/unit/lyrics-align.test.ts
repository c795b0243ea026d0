import { describe, expect, it } from 'vitest'
import { alignLyrics, buildLyrics, parseWordLyrics } from '@shared/lyrics'

const at = (time: number, text = String(time)) => ({ time, text })

describe('alignLyrics', () => {
  it('pairs lines by nearest time, not by index', () => {
    const original = [at(1000, 'a'), at(2000, 'b'), at(3000, 'c')]
    const extra = [at(2100, 'B'), at(2950, 'C')]
    expect(alignLyrics(original, extra).map((line) => line?.text)).toEqual([undefined, 'B', 'C'])
  })

  it('tolerates drift within the tolerance and drops lines beyond it', () => {
    const original = [at(1000), at(5000), at(9000)]
    const extra = [at(1400, 'x'), at(5590, 'y'), at(9700, 'z')]
    expect(alignLyrics(original, extra).map((line) => line?.text)).toEqual(['x', 'y', undefined])
    expect(alignLyrics(original, extra, 800).map((line) => line?.text)).toEqual(['x', 'y', 'z'])
  })

  it('uses each extra line at most once, giving it to the closest original line', () => {
    const original = [at(1000, 'a'), at(1300, 'b')]
    const extra = [at(1250, 'X')]
    expect(alignLyrics(original, extra).map((line) => line?.text)).toEqual([undefined, 'X'])
  })

  it('pairs repeated times in order', () => {
    const original = [at(1000, 'a1'), at(1000, 'a2')]
    const extra = [at(1000, 'A1'), at(1000, 'A2')]
    expect(alignLyrics(original, extra).map((line) => line?.text)).toEqual(['A1', 'A2'])
  })

  it('keeps pairs in order and prefers pairing more lines', () => {
    const original = [at(1000, 'a'), at(1300, 'b')]
    const extra = [at(1250, 'X'), at(1400, 'Y')]
    // b–X is the closest single pair, but a–X with b–Y pairs both lines without crossing.
    expect(alignLyrics(original, extra).map((line) => line?.text)).toEqual(['X', 'Y'])
  })

  it('lines up a translation that runs consistently late between close lines', () => {
    const original = [at(10_000, 'a'), at(10_300, 'b'), at(10_600, 'c'), at(14_000, 'd')]
    const extra = original.map((line) => at(line.time + 250, line.text.toUpperCase()))
    expect(alignLyrics(original, extra).map((line) => line?.text)).toEqual(['A', 'B', 'C', 'D'])
  })

  it('matches a huge dense cluster without crossing pairs', () => {
    const original = Array.from({ length: 3000 }, (_, i) => at(i * 400))
    const extra = Array.from({ length: 3000 }, (_, i) => at(i * 400 + 150))
    const result = alignLyrics(original, extra)
    let last = -1
    for (const line of result) {
      if (!line) continue
      expect(line.time).toBeGreaterThan(last)
      last = line.time
    }
    expect(result.filter(Boolean).length).toBeGreaterThan(2900)
  })

  it('handles a translation missing lines and having extra ones', () => {
    const original = [at(0, 'o0'), at(4000, 'o1'), at(8000, 'o2'), at(12000, 'o3')]
    const extra = [at(100, 't0'), at(6000, 'stray'), at(12100, 't3')]
    expect(alignLyrics(original, extra).map((line) => line?.text)).toEqual(['t0', undefined, undefined, 't3'])
  })

  it('returns an entry per original line for empty inputs', () => {
    expect(alignLyrics([at(1), at(2)], [])).toEqual([undefined, undefined])
    expect(alignLyrics([], [at(1)])).toEqual([])
  })
})

describe('parseWordLyrics', () => {
  it('reads relative word offsets into absolute times and durations', () => {
    const [line] = parseWordLyrics('[00:12.34](0)Hello (420) world\n[00:15.00](0)next')
    expect(line.time).toBe(12340)
    expect(line.text).toBe('Hello world')
    expect(line.words).toEqual([
      { time: 12340, duration: 420, text: 'Hello ' },
      { time: 12760, duration: 15000 - 12760, text: 'world' },
    ])
  })

  it('gives the last word of the last line 500 ms', () => {
    const [line] = parseWordLyrics('[00:01.00](0)a(200)b')
    expect(line.words.map((word) => [word.time, word.duration])).toEqual([
      [1000, 200],
      [1200, 500],
    ])
  })

  it('reads the (offset,duration) form with explicit durations', () => {
    const [line] = parseWordLyrics('[00:02.00](0,300)你(350,250)好(600,400,0)吗')
    expect(line.text).toBe('你好吗')
    expect(line.words).toEqual([
      { time: 2000, duration: 300, text: '你' },
      { time: 2350, duration: 250, text: '好' },
      { time: 2600, duration: 400, text: '吗' },
    ])
  })

  it('keeps parentheses that are not markers as text', () => {
    const [line] = parseWordLyrics('[00:01.00](0)(ooh) (300)yeah')
    expect(line.words.map((word) => word.text)).toEqual(['(ooh) ', 'yeah'])
  })

  it('treats text before the first marker as a word at the line start', () => {
    const [line] = parseWordLyrics('[00:01.00]Hey (300)you')
    expect(line.words.map((word) => [word.time, word.text])).toEqual([
      [1000, 'Hey '],
      [1300, 'you'],
    ])
  })

  it('ends a word at a whitespace-only marker without making it a word', () => {
    const [line] = parseWordLyrics('[00:01.00](0)la(200) (600)di')
    expect(line.words).toEqual([
      { time: 1000, duration: 200, text: 'la ' },
      { time: 1600, duration: 500, text: 'di' },
    ])
  })

  it('keeps lines without markers and empty gap lines, which end the previous line', () => {
    const lines = parseWordLyrics('[00:01.00](0)one\n[00:03.00]\n[00:05.00]plain')
    expect(lines).toEqual([
      { time: 1000, text: 'one', words: [{ time: 1000, duration: 2000, text: 'one' }] },
      { time: 3000, text: '', words: [] },
      { time: 5000, text: 'plain', words: [] },
    ])
  })

  it('recognises absolute word times when every line starts its markers at its own time', () => {
    const lines = parseWordLyrics('[00:10.00](10000)a(10400)b\n[00:20.00](20050)c')
    expect(lines[0].words.map((word) => word.time)).toEqual([10000, 10400])
    expect(lines[1].words).toEqual([{ time: 20050, duration: 500, text: 'c' }])
  })

  it('applies the file offset to words', () => {
    const [line] = parseWordLyrics('[offset:100]\n[00:01.00](0)a(200)b')
    expect(line.words.map((word) => word.time)).toEqual([900, 1100])
  })
})

describe('buildLyrics', () => {
  it('returns no lines for missing lyrics', () => {
    const empty = { lines: [], hasTranslation: false, hasTransliteration: false, hasWords: false }
    expect(buildLyrics(undefined)).toEqual(empty)
    expect(buildLyrics({})).toEqual(empty)
    expect(buildLyrics({ normal: null, translation: 42 as unknown as string })).toEqual(empty)
  })

  it('attaches translation and transliteration by time', () => {
    const lyrics = buildLyrics({
      normal: '[00:01.00]こんにちは\n[00:04.00]ありがとう\n[00:07.00]さようなら',
      translation: '[00:01.20]Hello\n[00:07.00]Goodbye',
      transliteration: '[00:00.90]konnichiwa\n[00:04.10]arigatou\n[00:06.80]sayounara',
    })
    expect(lyrics.hasTranslation).toBe(true)
    expect(lyrics.hasTransliteration).toBe(true)
    expect(lyrics.hasWords).toBe(false)
    expect(lyrics.lines).toEqual([
      { time: 1000, text: 'こんにちは', translation: 'Hello', transliteration: 'konnichiwa' },
      { time: 4000, text: 'ありがとう', transliteration: 'arigatou' },
      { time: 7000, text: 'さようなら', translation: 'Goodbye', transliteration: 'sayounara' },
    ])
  })

  it('leaves out empty translations', () => {
    const lyrics = buildLyrics({ normal: '[00:01.00]a\n[00:02.00]b', translation: '[00:01.00]\n[00:02.00]' })
    expect(lyrics.hasTranslation).toBe(false)
    expect(lyrics.lines).toEqual([
      { time: 1000, text: 'a' },
      { time: 2000, text: 'b' },
    ])
  })

  it("takes QQ Music's // and lone punctuation for no translation", () => {
    const lyrics = buildLyrics({
      normal: '[00:01.00]你好\n[00:04.00]啦啦啦\n[00:07.00]再见',
      translation: '[00:01.00]Hello\n[00:04.00]//\n[00:07.00]Goodbye',
      transliteration: '[00:01.00]…\n[00:04.00]- -\n[00:07.00]zai jian',
    })
    expect(lyrics.lines).toEqual([
      { time: 1000, text: '你好', translation: 'Hello' },
      { time: 4000, text: '啦啦啦' },
      { time: 7000, text: '再见', translation: 'Goodbye', transliteration: 'zai jian' },
    ])
    expect(buildLyrics({ normal: '[00:01.00]a', translation: '[00:01.00]//' }).hasTranslation).toBe(false)
  })

  it('attaches word timing to the matching original lines', () => {
    const lyrics = buildLyrics({
      normal: '[00:01.00]Hello world\n[00:05.00]plain',
      wordforword: '[00:01.05](0)Hello (400)world',
    })
    expect(lyrics.hasWords).toBe(true)
    expect(lyrics.lines[0].words).toEqual([
      { time: 1050, duration: 400, text: 'Hello ' },
      { time: 1450, duration: 500, text: 'world' },
    ])
    expect(lyrics.lines[1].words).toBeUndefined()
  })

  it('builds lines from the word timing when there is no normal lyric', () => {
    const lyrics = buildLyrics({
      wordforword: '[00:01.00](0)Hi (300)there\n[00:03.00](0)bye',
      translation: '[00:01.00]Salut\n[00:03.00]Ciao',
    })
    expect(lyrics.lines.map((line) => [line.time, line.text, line.translation, line.words?.length])).toEqual([
      [1000, 'Hi there', 'Salut', 2],
      [3000, 'bye', 'Ciao', 1],
    ])
  })
})
