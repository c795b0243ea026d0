import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import { decideOutput, deviceOptions, listOutputs } from '@renderer/services/player/audio/device'
import type { OutputDevice } from '@renderer/services/player/audio/device'
import { outputDevicesPort } from '@renderer/services/player/audio/output-devices'
import { useSettingsStore } from '@renderer/stores/settings'

/**
 * `ready`: the devices are known. `unsupported`: this browser cannot choose a device (no `setSinkId`).
 * `hidden`: it lists outputs without saying which (the page may not see its devices). `error`: the list
 * failed. In the last two the chosen device is tried and counts as missing if it refuses.
 */
export type OutputDeviceStatus = 'idle' | 'loading' | 'ready' | 'unsupported' | 'hidden' | 'error'

/**
 * The output device: the system's devices, and where to play given `settings.outputDevice`
 * (`services/player/audio/device.ts` decides). The player applies `sinkId` to the output and says
 * `announcement` (the chosen device is missing) once; views list `options`.
 */
export const useOutputDeviceStore = defineStore('output-device', () => {
  const settings = useSettingsStore()
  const port = outputDevicesPort()
  const status = ref<OutputDeviceStatus>('idle')
  const devices = shallowRef<OutputDevice[]>([])
  /** Devices that refused since the list last changed (gone between the list and the switch). */
  const refused = shallowRef<string[]>([])
  /** Where the output plays ('' = the system default). */
  const sinkId = ref('')
  /** The chosen device is not connected: a new value each time it is to be said, null once it is not true. */
  const announcement = shallowRef<{ label: string } | null>(null)
  let announced: string | undefined

  const wanted = computed(() => settings.settings.outputDevice)
  const options = computed(() => deviceOptions(devices.value, wanted.value))

  function decide() {
    if (status.value === 'idle' || status.value === 'loading') return
    if (status.value === 'unsupported') {
      sinkId.value = ''
      return
    }
    const decision = decideOutput({
      wanted: wanted.value,
      available: status.value === 'ready' ? devices.value : undefined,
      refused: refused.value,
      announced,
    })
    sinkId.value = decision.sinkId
    if (decision.announce) announcement.value = { label: decision.announce }
    else if (!decision.missing && announced) announcement.value = null
    announced = decision.missing
  }

  /** Lists run one after another as devices change; only the newest one's answer counts. */
  let listing = 0
  async function refresh() {
    if (!port.supported) {
      status.value = 'unsupported'
      decide()
      return
    }
    const mine = ++listing
    if (status.value === 'idle') status.value = 'loading'
    try {
      const list = listOutputs(await port.list())
      if (mine !== listing) return
      devices.value = list.devices
      status.value = list.hidden ? 'hidden' : 'ready'
    } catch {
      if (mine !== listing) return
      devices.value = []
      status.value = 'error'
    }
    refused.value = []
    decide()
  }

  let started: Promise<void> | undefined
  /** Lists the devices and follows them as they come and go (once; later calls wait for the first list). */
  function start(): Promise<void> {
    if (started) return started
    port.onChange(() => void refresh())
    started = refresh()
    return started
  }

  /** The output could not play on `id`: it counts as missing until the devices change. */
  function refusedSink(id: string) {
    if (!id || id !== sinkId.value || refused.value.includes(id)) return
    refused.value = [...refused.value, id]
    decide()
  }

  watch(wanted, decide)

  return {
    status,
    devices,
    options,
    sinkId,
    announcement,
    supported: port.supported,
    start,
    refresh,
    refusedSink,
  }
})
