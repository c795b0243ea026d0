/**
 * A Web Audio graph that records what is made and wired (happy-dom has no AudioContext): nodes with
 * their connections, params with their value and scheduled glides, a clock moved by hand, and
 * `setSinkId` answered as a device list says.
 */

export class FakeParam {
  glides: Array<{ value: number; at: number; constant: number }> = []
  constructor(public value: number) {}
  /** The value once every glide has arrived (what is heard a moment later). */
  get target(): number {
    return this.glides.at(-1)?.value ?? this.value
  }
  setTargetAtTime(value: number, at: number, constant: number) {
    this.glides.push({ value, at, constant })
    return this
  }
  cancelAndHoldAtTime() {
    return this
  }
  linearRampToValueAtTime(value: number) {
    this.glides.push({ value, at: 0, constant: 0 })
    return this
  }
}

export class FakeNode {
  outputs = new Set<FakeNode>()
  disconnects = 0
  constructor(public kind: string) {}
  connect<T extends FakeNode>(node: T): T {
    this.outputs.add(node)
    return node
  }
  disconnect(node?: FakeNode) {
    this.disconnects++
    if (node) this.outputs.delete(node)
    else this.outputs.clear()
  }
}

export class FakeGain extends FakeNode {
  gain = new FakeParam(1)
  constructor() {
    super('gain')
  }
}

export class FakeBiquad extends FakeNode {
  type = 'lowpass'
  frequency = new FakeParam(350)
  Q = new FakeParam(1)
  gain = new FakeParam(0)
  constructor() {
    super('biquad')
  }
}

export class FakeCompressor extends FakeNode {
  threshold = new FakeParam(-24)
  knee = new FakeParam(30)
  ratio = new FakeParam(12)
  attack = new FakeParam(0.003)
  release = new FakeParam(0.25)
  constructor() {
    super('compressor')
  }
}

export class FakeContext {
  currentTime = 0
  sampleRate = 48000
  baseLatency = 0.01
  outputLatency = 0.02
  state = 'running'
  destination = new FakeNode('destination')
  sinkId = ''
  made: FakeNode[] = []
  /** Device ids `setSinkId` accepts ('' always). */
  devices = new Set<string>()
  sinkCalls: string[] = []
  createGain() {
    return this.make(new FakeGain())
  }
  createBiquadFilter() {
    return this.make(new FakeBiquad())
  }
  createDynamicsCompressor() {
    return this.make(new FakeCompressor())
  }
  async setSinkId(id: string) {
    this.sinkCalls.push(id)
    if (id && !this.devices.has(id)) throw new DOMException(`the device ${id} is not found`, 'NotFoundError')
    this.sinkId = id
  }
  async suspend() {
    this.state = 'suspended'
  }
  async resume() {
    this.state = 'running'
  }
  private make<T extends FakeNode>(node: T): T {
    this.made.push(node)
    return node
  }
}

/** The nodes a signal passes from `from` to the first node with no output (one path: the graph's chain). */
export function pathFrom(from: FakeNode): FakeNode[] {
  const path = [from]
  let node = from
  while (node.outputs.size === 1 && path.length < 100) {
    node = [...node.outputs][0]
    path.push(node)
  }
  return path
}

export const asContext = (fake: FakeContext) => fake as unknown as AudioContext
