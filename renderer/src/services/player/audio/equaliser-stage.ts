import { dbToGain } from '@shared/audio/gain'
import { equaliserChain, equaliserStep } from './equaliser'
import type { EqualiserChain, EqualiserSettings } from './equaliser'

/** How fast a band or the preamp glides to a new gain (time constant, s): no step, so no click. */
export const EQ_GLIDE_SECONDS = 0.03
/** Taking the chain out waits for its gains to have glided to neutral (over six time constants). */
export const EQ_REMOVE_MS = 200

/**
 * The equaliser in the Web Audio output's graph (`graph.ts`): between `input` (the volume gain) and
 * `output` (the limiter), a preamp gain and ten BiquadFilterNodes (`equaliser.ts` decides), or a plain
 * connection when it is off or flat.
 *
 * Nothing here stops the music. A change of a band or of the preamp glides the node's gain
 * (`setTargetAtTime`). Turning it on connects the chain at neutral gains (a 0 dB biquad and a unity gain
 * pass the signal unchanged, so the swap is silent) and then glides them to the settings; turning it off
 * glides them back to neutral and only then takes the chain out.
 */
export function createEqualiserStage(context: BaseAudioContext, input: AudioNode, output: AudioNode) {
  let nodes: { preamp: GainNode; filters: BiquadFilterNode[] } | undefined
  let removal: ReturnType<typeof setTimeout> | undefined
  input.connect(output)

  function insert(chain: EqualiserChain) {
    const preamp = context.createGain()
    const filters = chain.filters.map((spec) => {
      const filter = context.createBiquadFilter()
      filter.type = spec.type
      filter.frequency.value = spec.frequency
      filter.Q.value = spec.q
      filter.gain.value = 0
      return filter
    })
    // The chain is wired to the output before the input is moved onto it.
    let last: AudioNode = preamp
    for (const filter of filters) last = last.connect(filter)
    last.connect(output)
    input.connect(preamp)
    input.disconnect(output)
    nodes = { preamp, filters }
  }

  function glide(preampDb: number, gains: readonly number[]) {
    if (!nodes) return
    const now = context.currentTime
    nodes.preamp.gain.setTargetAtTime(dbToGain(preampDb), now, EQ_GLIDE_SECONDS)
    nodes.filters.forEach((filter, i) => filter.gain.setTargetAtTime(gains[i] ?? 0, now, EQ_GLIDE_SECONDS))
  }

  function remove() {
    removal = undefined
    const old = nodes
    if (!old) return
    input.connect(output)
    input.disconnect(old.preamp)
    for (const node of [old.preamp, ...old.filters]) node.disconnect()
    nodes = undefined
  }

  return {
    /** Applies the settings (undefined: off). */
    apply(settings: EqualiserSettings | undefined) {
      const chain = equaliserChain(settings)
      // A chain gliding out is still in the path: a new chain takes it back instead of adding another.
      const step = equaliserStep(!!nodes, chain)
      if (step === 'none') return
      if (step === 'remove') {
        if (removal) return
        glide(0, [])
        removal = setTimeout(remove, EQ_REMOVE_MS)
        return
      }
      clearTimeout(removal)
      removal = undefined
      if (step === 'insert') insert(chain!)
      glide(
        chain!.preamp,
        chain!.filters.map((filter) => filter.gain),
      )
    },
    /** Whether the chain is in the signal path now (for tests and the sound bench). */
    get inserted() {
      return !!nodes
    },
  }
}
