import { describe, expect, it } from 'vitest'
import { formatBytes } from '@renderer/composables/bytes'

const MiB = 1024 * 1024

describe('formatBytes', () => {
  it('reads the cache sizes the app offers as people expect: 512 MB, 1 GB, 2 GB', () => {
    expect([256, 512, 1024, 2048, 4096, 10240].map((mib) => formatBytes(mib * MiB))).toEqual([
      '256 MB',
      '512 MB',
      '1 GB',
      '2 GB',
      '4 GB',
      '10 GB',
    ])
  })

  it('keeps one decimal below 100 and groups in the locale', () => {
    expect(formatBytes(0)).toBe('0 B')
    expect(formatBytes(1023)).toBe('1,023 B')
    expect(formatBytes(1.5 * 1024 * MiB)).toBe('1.5 GB')
    expect(formatBytes(4.25 * MiB)).toBe('4.3 MB')
    expect(formatBytes(1.5 * 1024 * MiB, 'de')).toBe('1,5 GB')
    expect(formatBytes(undefined)).toBe('')
  })
})
