import { describe, expect, it } from 'vitest'
import { JsonText, parseJsonSliced, visitSliced } from '@main/core/api/sliced-json'

/** A clock that moves 1 ms each time it is read, and a turn that only counts: no real time involved. */
function fakeTime() {
  let t = 0
  const clock = { turns: 0, now: () => ++t, turn: async () => void clock.turns++ }
  return clock
}

const songs = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: `Song ${i} 夜に駆ける "quoted" \\ back`,
    tns: i % 2 ? [] : ['Into the Night'],
    artists: [{ id: i % 9, name: `Artist ${i % 9}` }],
    album: { id: 5, name: 'Album', cover: null },
    ok: i % 3 === 0,
    n: -1.5e3,
  }))

describe('parseJsonSliced', () => {
  it('gives the same value as JSON.parse for a big answer, and gives the event loop turns while parsing', async () => {
    const text = JSON.stringify({ code: 0, message: 'Success', data: { id: 1, songs: songs(5000) } })
    const time = fakeTime()
    const parsed = await parseJsonSliced(text, { pieceChars: 1024, budgetMs: 4, ...time })
    expect(parsed).toEqual(JSON.parse(text))
    expect(time.turns).toBeGreaterThan(100)
  })

  it('parses from UTF-8 bytes, multi-byte characters and a byte order mark included', async () => {
    const text = JSON.stringify({ data: songs(300), emoji: '🎵 音楽' })
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)])
    expect(await parseJsonSliced(bytes, { pieceChars: 512 })).toEqual(JSON.parse(text))
  })

  it('keeps the items of the named array as their JSON text', async () => {
    const list = songs(400)
    const text = JSON.stringify({ code: 0, data: { id: 1, songs: list, other: [1, 2] } })
    const parsed = (await parseJsonSliced(text, { pieceChars: 512, keepText: ['data', 'songs'] })) as {
      data: { songs: unknown[]; other: unknown[] }
    }
    expect(parsed.data.songs).toHaveLength(400)
    expect(parsed.data.songs.every((s) => s instanceof JsonText)).toBe(true)
    expect(parsed.data.songs.map((s) => JSON.parse((s as JsonText).text) as unknown)).toEqual(list)
    expect(parsed.data.other).toEqual([1, 2])
  })

  it('throws a SyntaxError for broken JSON, big or small, as JSON.parse does', async () => {
    const text = JSON.stringify({ data: songs(500) })
    await expect(parseJsonSliced(text.slice(0, -10), { pieceChars: 512 })).rejects.toThrow(SyntaxError)
    await expect(parseJsonSliced(text + ' x', { pieceChars: 512 })).rejects.toThrow(SyntaxError)
    await expect(parseJsonSliced(text.replace('"data"', 'data'), { pieceChars: 512 })).rejects.toThrow(
      SyntaxError,
    )
    await expect(parseJsonSliced('{"a":')).rejects.toThrow(SyntaxError)
  })

  it('makes `__proto__` an own property, never the prototype', async () => {
    const text = `{"__proto__": {"polluted": true}, "pad": ${JSON.stringify(songs(200))}}`
    const parsed = (await parseJsonSliced(text, { pieceChars: 256 })) as Record<string, unknown>
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype)
    expect(Object.hasOwn(parsed, '__proto__')).toBe(true)
  })
})

describe('visitSliced', () => {
  it('visits every object once, giving the event loop turns, and never walks into kept texts', async () => {
    const value = { a: songs(2000), kept: [new JsonText(new TextEncoder().encode('{"cover":"x"}'))] }
    const time = fakeTime()
    let visited = 0
    await visitSliced(value, () => void visited++, { budgetMs: 2, ...time })
    // The root, 2000 songs with 2 objects each under them (artist, album), and the JsonText never.
    expect(visited).toBe(1 + 2000 * 3)
    expect(time.turns).toBeGreaterThan(0)
  })
})
