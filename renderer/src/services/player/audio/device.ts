/**
 * Which output device to play on: the one the user chose while it is there, else the system default,
 * with a message once when the chosen one went away (unplugged). Pure: the output device store feeds it
 * the device list and the settings, and the graph calls `setSinkId` with the answer.
 */

export interface OutputDevice {
  deviceId: string
  label: string
}

/** The system default output (`setSinkId('')`). */
export const DEFAULT_DEVICE = ''

/** The ids Chromium gives the system's own aliases of a real device: not devices of their own. */
const ALIASES = new Set(['default', 'communications'])

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
  if (!wanted || wanted === DEFAULT_DEVICE || ALIASES.has(wanted)) return { sinkId: DEFAULT_DEVICE }
  if (available.some((device) => device.deviceId === wanted)) return { sinkId: wanted }
  return { sinkId: DEFAULT_DEVICE, fellBack: wantedLabel || wanted }
}

/** What `enumerateDevices()` answers, as far as it matters here. */
export interface DeviceInfo {
  kind: string
  deviceId: string
  label: string
}

export interface OutputList {
  /** The real output devices (no aliases), in the system's order. */
  devices: OutputDevice[]
  /**
   * The browser lists outputs but hides who they are (empty ids: the page may not see its devices), so
   * the chosen device can neither be offered nor be known to be missing.
   */
  hidden: boolean
}

/** The output devices in `enumerateDevices()`'s answer. */
export function listOutputs(infos: readonly DeviceInfo[]): OutputList {
  const outputs = infos.filter((info) => info.kind === 'audiooutput')
  const devices = outputs
    .filter((info) => info.deviceId && !ALIASES.has(info.deviceId))
    .map((info) => ({ deviceId: info.deviceId, label: info.label }))
  return { devices, hidden: outputs.length > 0 && outputs.every((info) => !info.deviceId) }
}

export interface WantedDevice {
  /** `settings.outputDevice.id` ('' = the system default). */
  id: string
  label: string
}

export interface OutputDecisionInput {
  wanted: WantedDevice
  /** The devices there now; undefined when they cannot be known (hidden, or no list at all). */
  available?: readonly OutputDevice[]
  /** Devices `setSinkId` refused since the list last changed (gone between the list and the switch). */
  refused?: readonly string[]
  /** The id whose absence was already announced (the message is said once while it stays missing). */
  announced?: string
}

export interface OutputDecision {
  /** What to pass to `setSinkId`. */
  sinkId: string
  /** The chosen device's id while it is missing (keep it as `announced` for the next decision). */
  missing?: string
  /** The label to name in the message "… is not connected": only the first time it is found missing. */
  announce?: string
}

/**
 * Where to play now. A device the list does not show (or that refused) plays on the system default and
 * is named once; when it is back it is used again, and a later loss is named again. When the list cannot
 * be known the chosen device is tried, and a refusal then counts as missing.
 */
export function decideOutput({
  wanted,
  available,
  refused = [],
  announced,
}: OutputDecisionInput): OutputDecision {
  const wantsDefault = !wanted.id || ALIASES.has(wanted.id)
  if (wantsDefault) return { sinkId: DEFAULT_DEVICE }
  const isRefused = refused.includes(wanted.id)
  if (!available && !isRefused) return { sinkId: wanted.id }
  const present = (available ?? []).filter((device) => !refused.includes(device.deviceId))
  const choice = chooseDevice(wanted.id, present, wanted.label)
  if (!choice.fellBack) return choice
  return {
    sinkId: choice.sinkId,
    missing: wanted.id,
    ...(announced === wanted.id ? {} : { announce: choice.fellBack }),
  }
}

export interface DeviceOption {
  /** '' for the system default. */
  id: string
  /** The device's own name ('' when the system gives none, and for the default: the view words those). */
  label: string
  state: 'default' | 'present' | 'missing'
}

/**
 * The choices a device menu shows: the system default first, then each device, then the remembered
 * device when it is not connected (so the menu still shows what was chosen).
 */
export function deviceOptions(available: readonly OutputDevice[], wanted: WantedDevice): DeviceOption[] {
  const options: DeviceOption[] = [{ id: DEFAULT_DEVICE, label: '', state: 'default' }]
  for (const device of available) options.push({ id: device.deviceId, label: device.label, state: 'present' })
  const wantsDefault = !wanted.id || ALIASES.has(wanted.id)
  if (!wantsDefault && !available.some((device) => device.deviceId === wanted.id))
    options.push({ id: wanted.id, label: wanted.label, state: 'missing' })
  return options
}
