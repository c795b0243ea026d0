import type { DeviceInfo } from './device'
import { canChooseSink } from './sink'

/**
 * The system's output devices as the page sees them: `navigator.mediaDevices.enumerateDevices()` and its
 * `devicechange` event. Where the page cannot choose a device (no `mediaDevices`, or no
 * `AudioContext.setSinkId`) `supported` is false and the list is empty.
 */
export interface OutputDevicesPort {
  readonly supported: boolean
  list(): Promise<DeviceInfo[]>
  /** Calls `listener` when a device comes or goes; returns the unsubscribe. */
  onChange(listener: () => void): () => void
}

export function outputDevicesPort(): OutputDevicesPort {
  const media = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices
  const supported = typeof media?.enumerateDevices === 'function' && canChooseSink()
  return {
    supported,
    async list() {
      if (!supported || !media) return []
      const infos = await media.enumerateDevices()
      return infos.map(({ kind, deviceId, label }) => ({ kind, deviceId, label }))
    },
    onChange(listener) {
      if (!supported || !media) return () => undefined
      media.addEventListener('devicechange', listener)
      return () => media.removeEventListener('devicechange', listener)
    },
  }
}
