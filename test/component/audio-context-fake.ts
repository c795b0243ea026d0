/**
 * A Web Audio context for the output's tests (happy-dom has none): its clock moves only when told, and
 * it records what the output schedules (buffer sources with their start and stop times, gain automation,
 * connections), so a test can ask what is heard at any clock time: which sources play and through which
 * gains.
 */

type Event =
  | { type: 'set'; time: number; value: number }
  | { type: 'linear'; time: number; value: number }
  | { type: 'curve'; time: number; duration: number; values: Float32Array; heldAt?: number; held?: number }

export class FakeParam {
  private events: Event[] = []
  constructor(public value: number) {}
  setValueAtTime(value: number, time: number) {
    this.insert({ type: 'set', time, value })
  }
  linearRampToValueAtTime(value: number, time: number) {
    this.insert({ type: 'linear', time, value })
  }
  setTargetAtTime(value: number, time: number) {
    this.insert({ type: 'set', time, value })
  }
  setValueCurveAtTime(values: Float32Array, time: number, duration: number) {
    const end = time + duration
    // As the standard says: a curve may not overlap another event.
    if (
      this.events.some(
        (e) =>
          (e.time > time && e.time < end) ||
          (e.type === 'curve' && e.time < end && e.time + e.duration > time),
      )
    )
      throw new DOMException('overlapping automation', 'NotSupportedError')
    this.insert({ type: 'curve', time, duration, values: values.slice() })
  }
  cancelScheduledValues(time: number) {
    this.events = this.events.filter((e) => e.time < time)
  }
  cancelAndHoldAtTime(time: number) {
    // As the standard says (and Chromium does): a ramp in progress at `time` is cut short there, a curve
    // in progress is held there; otherwise no event is added, so a ramp scheduled next starts from the
    // last event before `time`, however long ago that was.
    const held = this.at(time)
    const later = this.events.find((e) => e.time > time)
    const curving = this.events.some((e) => e.type === 'curve' && e.time < time && e.time + e.duration > time)
    this.events = this.events.flatMap((e): Event[] => {
      if (e.type === 'curve' && e.time < time && e.time + e.duration > time)
        return [{ ...e, heldAt: time, held }]
      return e.time <= time ? [e] : []
    })
    if (later?.type === 'linear') this.insert({ type: 'linear', time, value: held })
    else if (curving) this.insert({ type: 'set', time, value: held })
  }
  /** The value at clock time `t`. */
  at(t: number): number {
    let value = this.value
    let from = { time: 0, value }
    for (const e of this.events) {
      if (e.type === 'curve') {
        if (e.time > t) break
        const end = e.heldAt ?? e.time + e.duration
        if (t >= end) {
          value = e.heldAt !== undefined ? e.held! : e.values[e.values.length - 1]
          from = { time: end, value }
          continue
        }
        const x = ((t - e.time) / e.duration) * (e.values.length - 1)
        const i = Math.floor(x)
        const a = e.values[i]
        const b = e.values[Math.min(i + 1, e.values.length - 1)]
        return a + (b - a) * (x - i)
      }
      if (e.time <= t) {
        value = e.value
        from = { time: e.time, value }
        continue
      }
      if (e.type === 'linear')
        return from.value + ((e.value - from.value) * (t - from.time)) / (e.time - from.time)
      break
    }
    return value
  }
  private insert(event: Event) {
    this.events.push(event)
    this.events.sort((a, b) => a.time - b.time)
  }
}

export class FakeNode {
  targets = new Set<FakeNode>()
  /** Clock time it was disconnected: what it passes on before then still counts. */
  disconnectedAt = Number.POSITIVE_INFINITY
  constructor(readonly context: FakeAudioContext) {}
  connect<T extends FakeNode>(target: T): T {
    this.targets.add(target)
    return target
  }
  disconnect() {
    this.disconnectedAt = Math.min(this.disconnectedAt, this.context.currentTime)
  }
  /** The gain from this node to the destination at `t` (0 when not connected to it then). */
  gainTo(t: number): number {
    if (this === this.context.destination) return 1
    if (t >= this.disconnectedAt) return 0
    let total = 0
    for (const target of this.targets) total += target.gainTo(t)
    return total * this.ownGain(t)
  }
  ownGain(_t: number): number {
    return 1
  }
}

export class FakeGain extends FakeNode {
  gain = new FakeParam(1)
  ownGain(t: number) {
    return this.gain.at(t)
  }
}

/**
 * A `DynamicsCompressorNode` as it treats what stays under its threshold: it passes it at its makeup
 * gain, which the Web Audio spec derives from the curve, (1 / the curve's gain for a full-scale input)^0.6,
 * whether anything is compressed or not. Only a hard knee is modelled (what the app sets); at its defaults
 * (threshold −24 dB, knee 30, ratio 12) a real node adds several dB.
 */
export class FakeCompressor extends FakeNode {
  threshold = { value: -24 }
  knee = { value: 30 }
  ratio = { value: 12 }
  attack = { value: 0.003 }
  release = { value: 0.25 }
  ownGain() {
    if (this.knee.value !== 0) throw new Error('the fake compressor models a hard knee only')
    // The curve at 0 dBFS: above the threshold, each dB over it comes out as 1/ratio dB.
    const fullRangeDb = this.threshold.value - this.threshold.value / this.ratio.value
    return 10 ** ((-fullRangeDb * 0.6) / 20)
  }
}

export class FakeBuffer {
  private data: Float32Array[]
  constructor(
    readonly numberOfChannels: number,
    readonly length: number,
    readonly sampleRate: number,
  ) {
    this.data = Array.from({ length: numberOfChannels }, () => new Float32Array(length))
  }
  get duration() {
    return this.length / this.sampleRate
  }
  copyToChannel(source: Float32Array, channel: number) {
    this.data[channel].set(source)
  }
  getChannelData(channel: number) {
    return this.data[channel]
  }
}

export class FakeSource extends FakeNode {
  buffer: FakeBuffer | null = null
  startTime: number | undefined
  /** Where in its buffer it starts (s). */
  offset = 0
  stopTime = Number.POSITIVE_INFINITY
  onended: (() => void) | null = null
  start(at: number, offset = 0) {
    this.startTime = at
    this.offset = offset
  }
  /** As the standard: no time (or one passed) stops it at once; before its start, it never plays. */
  stop(at = 0) {
    this.stopTime = at
  }
  /** Plays at `t`: started, not stopped, within its buffer (to the frame). */
  playsAt(t: number): boolean {
    if (this.startTime === undefined || !this.buffer) return false
    const frame = this.frameAt(t)
    return (
      frame >= Math.round(this.offset * this.buffer.sampleRate) &&
      frame < this.buffer.length &&
      t < this.stopTime - 1e-9
    )
  }
  /** The sample it plays at `t` (first channel). */
  sampleAt(t: number): number {
    return this.buffer!.getChannelData(0)[this.frameAt(t)]
  }
  private frameAt(t: number): number {
    return Math.floor((t - this.startTime! + this.offset) * this.buffer!.sampleRate + 1e-6)
  }
}

export class FakeAudioContext {
  currentTime = 0
  state: AudioContextState = 'running'
  baseLatency = 0.005
  outputLatency = 0.02
  readonly destination: FakeNode = new FakeNode(this)
  readonly sources: FakeSource[] = []
  constructor(readonly sampleRate: number) {}
  createGain() {
    return new FakeGain(this)
  }
  createDynamicsCompressor() {
    return new FakeCompressor(this)
  }
  createBuffer(channels: number, length: number, rate: number) {
    return new FakeBuffer(channels, length, rate)
  }
  createBufferSource() {
    const source = new FakeSource(this)
    this.sources.push(source)
    return source
  }
  async resume() {
    this.state = 'running'
  }
  async suspend() {
    this.state = 'suspended'
  }
  /** "Decodes" a file reading `level seconds` (a stand-in for MP3, FLAC…): that level for that long. */
  async decodeAudioData(bytes: ArrayBuffer): Promise<FakeBuffer> {
    const [level, seconds] = new TextDecoder().decode(bytes).split(' ').map(Number)
    if (!Number.isFinite(level) || !(seconds > 0)) throw new DOMException('Unable to decode', 'EncodingError')
    const buffer = new FakeBuffer(1, Math.round(seconds * this.sampleRate), this.sampleRate)
    buffer.getChannelData(0).fill(level)
    return buffer
  }
  /** What is heard at `t`: each playing source's sample times its gain to the destination. */
  heard(t: number): Array<{ sample: number; gain: number }> {
    return this.sources
      .filter((source) => source.playsAt(t))
      .map((source) => ({ sample: source.sampleAt(t), gain: source.gainTo(t) }))
      .filter((part) => part.gain > 1e-4)
  }
}
