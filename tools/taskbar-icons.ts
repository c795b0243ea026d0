import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { deflateSync } from 'node:zlib'

/**
 * Draws the thumbnail-toolbar icons (resources/taskbar/<name>.png, 16 px, and <name>@2x.png, 32 px,
 * which nativeImage picks for 200 % displays): white shapes on transparency, edges anti-aliased by
 * sampling each pixel 4×4 times. `npx tsx tools/taskbar-icons.ts`.
 */

type Shape = (x: number, y: number) => boolean

/** Inside the triangle (a, b, c)? */
const triangle =
  (a: [number, number], b: [number, number], c: [number, number]): Shape =>
  (x, y) => {
    const side = (p: [number, number], q: [number, number]) =>
      (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0])
    const d1 = side(a, b)
    const d2 = side(b, c)
    const d3 = side(c, a)
    return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0))
  }
const rect =
  (x0: number, y0: number, x1: number, y1: number): Shape =>
  (x, y) =>
    x >= x0 && x <= x1 && y >= y0 && y <= y1
const union =
  (...shapes: Shape[]): Shape =>
  (x, y) =>
    shapes.some((shape) => shape(x, y))
/** The heart curve (x² + y² − 1)³ − x²y³ ≤ 0, centred and scaled into the icon. */
const heart =
  (scale: number): Shape =>
  (x, y) => {
    const u = (x - 0.5) / scale
    const v = -(y - 0.52) / scale
    const r = u * u + v * v - 1
    return r * r * r - u * u * v * v * v <= 0
  }

const SHAPES: Record<string, Shape> = {
  play: triangle([0.28, 0.18], [0.28, 0.82], [0.82, 0.5]),
  pause: union(rect(0.24, 0.2, 0.42, 0.8), rect(0.58, 0.2, 0.76, 0.8)),
  next: union(triangle([0.2, 0.2], [0.2, 0.8], [0.66, 0.5]), rect(0.68, 0.2, 0.8, 0.8)),
  previous: union(rect(0.2, 0.2, 0.32, 0.8), triangle([0.8, 0.2], [0.8, 0.8], [0.34, 0.5])),
  liked: heart(0.34),
  like: (x, y) => heart(0.34)(x, y) && !heart(0.2)(x + 0, y + 0.02),
}

function crc32(bytes: Buffer): number {
  let crc = ~0
  for (const byte of bytes) {
    crc ^= byte
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1
  }
  return ~crc >>> 0
}
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'ascii')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

export function drawPng(shape: Shape, size: number): Buffer {
  const rows: Buffer[] = []
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 4)
    for (let px = 0; px < size; px++) {
      let hits = 0
      for (let sy = 0; sy < 4; sy++)
        for (let sx = 0; sx < 4; sx++)
          if (shape((px + (sx + 0.5) / 4) / size, (py + (sy + 0.5) / 4) / size)) hits++
      row.writeUInt32BE((0xffffff00 | Math.round((hits / 16) * 255)) >>> 0, 1 + px * 4)
    }
    rows.push(row)
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header[8] = 8 // bit depth
  header[9] = 6 // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

const out = resolve(import.meta.dirname, '../resources/taskbar')
mkdirSync(out, { recursive: true })
for (const [name, shape] of Object.entries(SHAPES)) {
  writeFileSync(join(out, `${name}.png`), drawPng(shape, 16))
  writeFileSync(join(out, `${name}@2x.png`), drawPng(shape, 32))
}
