import { dbToGain } from '@shared/audio/gain'
import { FADE_SECONDS, rampFrom, rampValueAt } from './fades'
import type { FadePlan, RampSegment } from './fades'
import type { EqualiserSettings } from './equaliser'
import { createEqualiserStage } from './equaliser-stage'
import { applySink } from './sink'
import type { SinkResult } from './sink'

export interface GraphOptions {
  createContext?: () => AudioContext
  /** The equaliser's settings when the graph is made (later changes come through `applyEqualiser`). */
  equaliser?: () => EqualiserSettings | undefined
  /** The device to play on when the graph is made ('' = the system default; later: `applySink`). */
  sinkId?: () => string
  /** The device given by `sinkId` refused when the graph was made (gone, or not allowed). */
  onSinkRefused?: (sinkId: string) => void
}

/** The limiter before the device: a hard knee at −1 dBFS, 20:1, fast. */
const LIMITER = { threshold: -1, knee: 0, ratio: 20, attack: 0.002, release: 0.1 } as const

/**
 * The gain (dB) a `DynamicsCompressorNode` adds to everything it passes, whether it compresses or not:
 * the Web Audio spec's makeup gain, (1 / the curve's gain at 0 dBFS)^0.6, for a hard knee (at 0 dBFS the
 * curve gives `threshold + (0 − threshold) / ratio`). For the limiter, +0.57 dB: every song played that
 * much over its loudness target, unless taken off again after it.
 */
export function compressorMakeupDb({ threshold, ratio }: { threshold: number; ratio: number }): number {
  return -0.6 * threshold * (1 - 1 / ratio)
}

const WARM_POLL_MS = 50
const WARM_LIMIT_MS = 10_000
/** A context woken by a press (`wake`) is suspended again this long after, unless a play came. */
export const WAKE_KEEP_MS = 2_000

/**
 * The Web Audio output's graph (`output.ts`), made on first use: every song's gain node → the transport
 * gain (fades) → the volume gain → the equaliser when on (`equaliser-stage.ts`) → a limiter (its makeup
 * gain taken off) → the device (`sink.ts`). It also suspends the context once a pause's fade has been heard.
 */
export function createOutputGraph(options: GraphOptions) {
  let context: AudioContext | undefined
  let transport: GainNode
  let volumeNode: GainNode
  let equaliser: ReturnType<typeof createEqualiserStage>
  let suspendTimer: ReturnType<typeof setTimeout> | undefined
  /** The transport gain's last ramps (from 0): its value at any time. */
  let transportRamps: RampSegment[] = []

  function graph(): AudioContext {
    if (context) return context
    context = options.createContext?.() ?? new AudioContext({ latencyHint: 'interactive' })
    const limiter = context.createDynamicsCompressor()
    limiter.threshold.value = LIMITER.threshold
    limiter.knee.value = LIMITER.knee
    limiter.ratio.value = LIMITER.ratio
    limiter.attack.value = LIMITER.attack
    limiter.release.value = LIMITER.release
    // The limiter's makeup gain taken off: below its threshold the output is the input, and a
    // full-scale input comes out at its curve's −0.95 dBFS, not 0.57 dB over it.
    const makeup = context.createGain()
    makeup.gain.value = dbToGain(-compressorMakeupDb(LIMITER))
    limiter.connect(makeup)
    volumeNode = context.createGain()
    transport = context.createGain()
    transport.gain.value = 0
    transport.connect(volumeNode)
    makeup.connect(context.destination)
    equaliser = createEqualiserStage(context, volumeNode, limiter)
    equaliser.apply(options.equaliser?.())
    const sinkId = options.sinkId?.() ?? ''
    if (sinkId) {
      void applySink(context, sinkId).then((result) => {
        if (result === 'refused') options.onSinkRefused?.(sinkId)
      })
    }
    return context
  }

  return {
    graph,
    /** The context, once made. */
    get context() {
      return context
    },
    /** Where each song's gain node connects (made with the context). */
    get transport() {
      return transport
    },
    /** Ramps the transport gain as the plan says, on the audio clock. */
    applyFade(plan: FadePlan) {
      for (const ramp of plan.ramps) {
        // Each ramp starts from the value the ramps before it give at its start (kept here: the node's
        // own value is that of the last rendered block, not of `ramp.at`).
        const from = rampValueAt(transportRamps, ramp.at)
        rampFrom(transport.gain, ramp.at, from, ramp.to, ramp.seconds)
        transportRamps = [...transportRamps.filter((r) => r.at <= ramp.at).slice(-3), { ...ramp, from }]
      }
    },
    /** The equaliser's new settings, heard at once (glides, never a stop); kept for the graph if not made yet. */
    applyEqualiser(settings: EqualiserSettings | undefined) {
      if (context) equaliser.apply(settings)
    },
    /** Moves the output to another device while it plays; before the graph exists `sinkId` is read then. */
    applySink(sinkId: string): Promise<SinkResult> {
      return context ? applySink(context, sinkId) : Promise.resolve('done')
    },
    applyVolume(level: number) {
      if (!context) return
      volumeNode.gain.setTargetAtTime(level, context.currentTime, 0.01)
    },
    /** The sleep fade called off: the volume gain back to `level` from where the fade has it now. */
    endVolumeFade(level: number) {
      if (!context) return
      volumeNode.gain.cancelAndHoldAtTime(context.currentTime)
      volumeNode.gain.setTargetAtTime(level, context.currentTime, 0.01)
    },
    /**
     * The sleep timer's fade: the volume gain ramps linearly to silence, reaching it at `endsAt` on the
     * audio clock, from where a fade toward it that began at `endsAt - seconds` would be now (so a volume
     * change or a re-planned fade carries on along the same line).
     */
    fadeVolumeOut(level: number, endsAt: number, seconds: number) {
      if (!context) return
      const now = context.currentTime
      const left = Math.max(0, endsAt - now)
      const from = seconds > 0 ? level * Math.min(1, left / seconds) : 0
      rampFrom(volumeNode.gain, now, from, 0, Math.max(left, 0.005))
    },
    /** The volume gain's value now (after the last rendered block): what the sleep fade has left. */
    get volumeLevel(): number {
      return context ? volumeNode.gain.value : 1
    },
    /**
     * After a pause: suspends the context once the fade has left the output's buffer (suspending stops
     * the device stream, and what was still in its buffer, the fade itself, would be dropped: a cut).
     */
    suspendWhenDrained(paused: () => boolean) {
      const context = graph()
      const drained = FADE_SECONDS + context.baseLatency + (context.outputLatency || 0) + 0.2
      clearTimeout(suspendTimer)
      suspendTimer = setTimeout(() => {
        if (paused() && context.state === 'running') void context.suspend()
      }, drained * 1000)
    },
    cancelSuspend() {
      clearTimeout(suspendTimer)
    },
    /**
     * A row pressed, its play 100–300 ms away: a suspended context resumed now (resuming takes 10–70 ms,
     * `test/bench/press-chain.ts`), so the play does not wait for it; suspended again after
     * `WAKE_KEEP_MS` if nothing plays by then (a play cancels that, `cancelSuspend`). A context still
     * running (a pause's fade draining, or an earlier press) is kept running that long from this press:
     * its suspend, due first, would make the play wait for a resume.
     */
    wake(paused: () => boolean) {
      if (!context || !paused()) return
      const woken = context
      clearTimeout(suspendTimer)
      if (woken.state !== 'running') void woken.resume()
      suspendTimer = setTimeout(() => {
        if (paused() && woken.state === 'running') void woken.suspend()
      }, WAKE_KEEP_MS)
    },
    /**
     * Opens the device before the first play and lets it rest: the first stream a page opens takes
     * Chromium over a second to start (1.4 s from a click to the first sound on PulseAudio, measured by
     * `npm run bench:audio`; a resumed one starts within a callback). Makes the context, waits until its
     * clock runs (the device is playing), then suspends it if nothing plays by then.
     */
    warm(paused: () => boolean) {
      const context = graph()
      let waited = 0
      const check = () => {
        if (!paused() || context.state !== 'running') return
        if (context.currentTime > 0 || waited >= WARM_LIMIT_MS) {
          void context.suspend()
          return
        }
        waited += WARM_POLL_MS
        setTimeout(check, WARM_POLL_MS)
      }
      check()
    },
  }
}
