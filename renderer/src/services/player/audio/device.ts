/**
 * Which output device to play on: the one the user chose while it is there, else the system default,
 * with a message when the chosen one went away (unplugged). Pure: the graph calls `setSinkId` with the
 * answer.
 */

export interface OutputDevice {
  deviceId: string
  label: string
}

/** The system default output (`setSinkId('')`). */
export const DEFAULT_DEVICE = ''

export interface DeviceChoice {
  /** What to pass to `setSinkId`. */
  sinkId: string
  /** Set when the chosen device is missing: its label (or id) for the message. */
  fellBack?: string
}

export function chooseDevice(
  wanted: string | undefined,
  available: readonly OutputDevice[],
  wantedLabel?: string,
): DeviceChoice {
  if (!wanted || wanted === DEFAULT_DEVICE || wanted === 'default') return { sinkId: DEFAULT_DEVICE }
  if (available.some((device) => device.deviceId === wanted)) return { sinkId: wanted }
  return { sinkId: DEFAULT_DEVICE, fellBack: wantedLabel || wanted }
}
