import { describe, expect, it } from 'vitest'
import { parseArgs } from '../../server/args'

describe('server args: the demo catalogue', () => {
  it('takes --no-demo as taking the demo out, and --demo N as its size', () => {
    expect(parseArgs(['--no-demo']).removeDemo).toBe(true)
    expect(parseArgs(['--demo', '300']).demo).toBe(300)
    expect(parseArgs([]).removeDemo).toBeUndefined()
  })
})
