import { watch } from 'vue'
import type { Settings } from '@shared/settings'
import { createPlayerOutput, hasSoundControls } from '@renderer/services/player/engine'
import type { OutputOptions, PlayerNotice, PlayerOutput, SoundOutput } from '@renderer/services/player/engine'
import type { WebAudioOutput } from '@renderer/services/player/audio/output'
import { createHeadPrefetch } from '@renderer/services/player/head-prefetch'
import { useOutputDeviceStore } from '@renderer/stores/output-device'

type FadingOutput = Pick<WebAudioOutput, 'fadeOut' | 'cancelFadeOut'>
const canFade = (audio: unknown): audio is FadingOutput =>
  typeof (audio as Partial<FadingOutput> | undefined)?.fadeOut === 'function'
const canPress = (audio: unknown): audio is Pick<WebAudioOutput, 'press'> =>
  typeof (audio as Partial<WebAudioOutput> | undefined)?.press === 'function'

/**
 * The sound settings carried to the player's output (a helper of the player store, docs/playback.md
 * "The sound"): loudness read as each song starts, the equaliser and the output device read when the
 * output's graph is made and then applied as they change, and the one message when the chosen device is
 * missing; the crossfade read as each following song is planned. Speed is applied by the player store
 * (`engine.setSpeed`). The output's media requests go through `head-prefetch.ts`, which answers a song's
 * head from what `warmHead` fetched when its row was pressed (and the output reads its first chunk then).
 */
export function usePlayerSound(
  settings: () => Settings,
  notices: { notify(notice: PlayerNotice): void; clear(type: PlayerNotice['type']): void },
) {
  const devices = useOutputDeviceStore()
  let output: SoundOutput | undefined
  const heads = createHeadPrefetch()

  const options: OutputOptions = {
    fetch: heads.fetch,
    loudnessTarget: () => settings().loudness,
    // Read as each following song is planned.
    crossfadeSeconds: () => settings().crossfadeSeconds,
    equaliser: () => settings().equaliser,
    sinkId: () => devices.sinkId,
    onSinkRefused: (id) => devices.refusedSink(id),
  }

  watch(
    () => settings().equaliser,
    (equaliser) => output?.setEqualiser(equaliser),
  )
  watch(
    () => devices.sinkId,
    (id) => {
      void output?.setSink(id).then((result) => {
        if (result === 'refused') devices.refusedSink(id)
      })
    },
  )
  watch(
    () => devices.announcement,
    (missing) => {
      if (missing) notices.notify({ type: 'device', label: missing.label })
      else notices.clear('device')
    },
  )

  return {
    /** Makes the player's output with the sound settings (the engine calls it once). */
    createOutput(): PlayerOutput {
      const made = createPlayerOutput(options)
      if (hasSoundControls(made)) output = made
      return made
    },
    /**
     * A song's row pressed, its play soon: its head fetched (`head-prefetch.ts`), then the output opens
     * it and reads and decodes its first chunk (`audio/pressed-song.ts`), so the play only schedules it.
     */
    warmHead(url: string, wake?: boolean) {
      heads.warm(url)
      if (canPress(output)) output.press(url, wake)
    },
    /** Lists the devices and follows them (at the player's start). */
    start: () => devices.start(),
    /** The sleep timer's fade: silent `inSeconds` from now, along a fade of `seconds` (Web Audio only). */
    fadeOut(inSeconds: number, seconds: number) {
      if (canFade(output)) output.fadeOut(inSeconds, seconds)
    },
    cancelFadeOut() {
      if (canFade(output)) output.cancelFadeOut()
    },
  }
}
