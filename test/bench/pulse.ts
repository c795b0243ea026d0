import { spawn, spawnSync } from 'node:child_process'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'

/** A private PulseAudio whose only output is a null sink named `bench`: what the audio benches play into. */
export interface NullSink {
  /** `PULSE_SERVER` for the processes that play into it or record it (`bench.monitor`). */
  server: string
  stop(): void
}

export const hasPulseAudio = () => spawnSync('pulseaudio', ['--version']).status === 0

/** Starts it with its socket and runtime files in `root` (which must exist), `rate` Hz stereo. */
export async function startNullSink(root: string, rate = 48000): Promise<NullSink> {
  const socket = join(root, 'native')
  const child = spawn(
    'pulseaudio',
    [
      '-n',
      '--daemonize=no',
      '--exit-idle-time=-1',
      '--disallow-exit',
      '--use-pid-file=no',
      '-L',
      `module-native-protocol-unix auth-anonymous=1 socket=${socket}`,
      '-L',
      `module-null-sink sink_name=bench rate=${rate} channels=2`,
    ],
    { env: { ...process.env, PULSE_RUNTIME_PATH: join(root, 'run'), HOME: root }, stdio: 'ignore' },
  )
  const stop = () => void child.kill()
  for (let i = 0; i < 50; i++) {
    if ((await readdir(root)).includes('native')) return { server: `unix:${socket}`, stop }
    await new Promise((done) => setTimeout(done, 100))
  }
  stop()
  throw new Error('pulseaudio did not start')
}
