import { readdir, readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'

/**
 * CPU-seconds per process over a stretch, counted from `/proc/<pid>/stat` (utime + stime, clock ticks),
 * for the Chromium processes this process started (its descendants whose command line names chromium),
 * each by its own difference plus what it reaped from children that ended meanwhile; and this Node
 * process itself (`process.cpuUsage()`: the end-to-end harness's core, data source and Playwright client,
 * which serve the page's IPC and media). CPU time consumed does not depend on how loaded the machine is
 * the way wall time does: a busy machine delays the work but does not make it more.
 */

const TICKS_PER_SECOND = 100

/** A Chromium process's part, from its command line: browser, renderer, gpu-process, audio, network… */
export function processKind(cmdline: string): string {
  // Chromium's child processes rewrite their command line as one string joined by spaces.
  const args = cmdline.split(/[\0 ]/)
  const value = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3)
  const type = value('type')
  if (!type) return 'browser'
  if (type === 'utility')
    return (value('utility-sub-type') ?? 'utility').replace(/\.mojom\./, ' ').split(' ')[0]
  return type
}

interface Reading {
  processes: Map<number, { own: number; reaped: number; kind: string }>
  /** The renderers' threads by `tid name`, ticks. */
  threads: Map<string, number>
  node: NodeJS.CpuUsage
}

export interface ProcessTicks {
  ppid: number
  /** utime + stime, clock ticks. */
  own: number
  /** cutime + cstime: what it reaped from children that ended. */
  reaped: number
  cmd: string
}

/** Every process's CPU ticks now (`/proc`), and whether a process descends from this one. */
export async function readProcessTable(): Promise<{
  all: Map<number, ProcessTicks>
  descends: (pid: number) => boolean
}> {
  const all = new Map<number, ProcessTicks>()
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    const stat = (await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')).split(') ')[1]?.split(' ')
    if (!stat) continue
    all.set(Number(pid), {
      ppid: Number(stat[1]),
      own: Number(stat[11]) + Number(stat[12]),
      reaped: Number(stat[13]) + Number(stat[14]),
      cmd: await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => ''),
    })
  }
  const descends = (pid: number): boolean => {
    for (let at = all.get(pid)?.ppid, hops = 0; at && hops < 64; at = all.get(at)?.ppid, hops++)
      if (at === process.pid) return true
    return false
  }
  return { all, descends }
}

/** A process's threads' CPU ticks now, into `threads` by `tid name`. */
export async function readThreads(pid: number, threads: Map<string, number>): Promise<void> {
  for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [])) {
    const line = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => '')
    const name = line.slice(line.indexOf('(') + 1, line.lastIndexOf(')'))
    const fields = line.slice(line.lastIndexOf(') ') + 2).split(' ')
    if (fields.length > 12) threads.set(`${tid} ${name}`, Number(fields[11]) + Number(fields[12]))
  }
}

async function read(): Promise<Reading> {
  const { all, descends } = await readProcessTable()
  const processes: Reading['processes'] = new Map()
  const threads = new Map<string, number>()
  for (const [pid, stat] of all) {
    if (!stat.cmd.includes('chromium') || !descends(pid)) continue
    const kind = processKind(stat.cmd)
    processes.set(pid, { own: stat.own, reaped: stat.reaped, kind })
    if (kind === 'renderer') await readThreads(pid, threads)
  }
  return { processes, threads, node: process.cpuUsage() }
}

/**
 * A blank page's floor: a tone looped through a gain (0.3) and a compressor, as the app's graph ends, in a
 * running context (`window.floorContext`, `floorGain`, `floorContexts`).
 */
export function playFloorTone(page: Page): Promise<void> {
  return page.evaluate(async () => {
    const context = new AudioContext({ latencyHint: 'interactive' })
    const limiter = context.createDynamicsCompressor()
    limiter.connect(context.destination)
    const gain = context.createGain()
    gain.gain.value = 0.3
    gain.connect(limiter)
    const tone = context.createBuffer(2, context.sampleRate, context.sampleRate)
    for (let c = 0; c < 2; c++)
      tone
        .getChannelData(c)
        .forEach((_, i, data) => (data[i] = Math.sin((2 * Math.PI * 440 * i) / context.sampleRate)))
    const source = context.createBufferSource()
    source.buffer = tone
    source.loop = true
    source.connect(gain)
    source.start()
    await context.resume()
    Object.assign(window, { floorContext: context, floorGain: gain, floorContexts: [context] })
  })
}

export interface CpuSeconds {
  /** CPU-seconds by Chromium process kind (renderer, gpu-process, browser, audio, network…). */
  kinds: Record<string, number>
  /** CPU-seconds by renderer thread name (CrRendererMain, AudioOutputDevice, Compositor…). */
  threads: Record<string, number>
  /** All of Chromium's processes. */
  chromium: number
  /** This Node process (the harness: core, data source, Playwright's client). */
  node: number
  seconds: number
}

/** Starts counting; `stop()` gives the CPU-seconds used since. */
export async function countCpu(): Promise<{ stop(): Promise<CpuSeconds> }> {
  const before = await read()
  const started = performance.now()
  return {
    async stop() {
      const after = await read()
      const seconds = (performance.now() - started) / 1000
      const kinds: Record<string, number> = {}
      let chromium = 0
      for (const [pid, stat] of after.processes) {
        const was = before.processes.get(pid) ?? { own: 0, reaped: 0 }
        const used = (stat.own - was.own + stat.reaped - was.reaped) / TICKS_PER_SECOND
        kinds[stat.kind] = (kinds[stat.kind] ?? 0) + used
        chromium += used
      }
      const threads: Record<string, number> = {}
      for (const [key, ticks] of after.threads) {
        const name = key.slice(key.indexOf(' ') + 1)
        threads[name] = (threads[name] ?? 0) + (ticks - (before.threads.get(key) ?? 0)) / TICKS_PER_SECOND
      }
      const node = process.cpuUsage(before.node)
      return { kinds, threads, chromium, node: (node.user + node.system) / 1e6, seconds }
    },
  }
}

/** One line: total, per process kind and the costliest renderer threads, CPU-seconds over the stretch. */
export function formatCpu(cpu: CpuSeconds): string {
  const f = (n: number) => n.toFixed(2)
  const list = (record: Record<string, number>, count = 8) =>
    Object.entries(record)
      .filter(([, s]) => s > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, s]) => `${name} ${f(s)}`)
      .join(', ')
  return (
    `Chromium ${f(cpu.chromium)} CPU-s over ${cpu.seconds.toFixed(1)} s (${f((cpu.chromium / cpu.seconds) * 100)} % of a core): ` +
    `${list(cpu.kinds)}; renderer threads: ${list(cpu.threads, 6)}; harness Node ${f(cpu.node)} CPU-s`
  )
}
