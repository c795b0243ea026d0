import { describe, expect, it } from 'vitest'
import { chromiumFlags, chromiumSwitches } from '@main/core'

describe("Chromium's switches", () => {
  it('shortens the audio output queue on Linux only, where PulseAudio gets 512-frame buffers otherwise', () => {
    expect(chromiumSwitches('linux')).toEqual([['audio-buffer-size', '256']])
    expect(chromiumSwitches('win32')).toEqual([])
    expect(chromiumSwitches('darwin')).toEqual([])
  })

  it('gives the same switches as flags for a browser started in the app’s place', () => {
    expect(chromiumFlags('linux')).toEqual(['--audio-buffer-size=256'])
    expect(chromiumFlags('darwin')).toEqual([])
  })
})
