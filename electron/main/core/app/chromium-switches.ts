/**
 * Chromium switches the app sets before `ready` (`app.commandLine.appendSwitch`), per platform.
 *
 * `audio-buffer-size` on Linux: Chromium's PulseAudio output asks for 512-frame buffers and keeps about
 * three queued, 42 ms from a play or a seek to the speakers (`baseLatency` 10–12 ms + `outputLatency`
 * 32 ms, read in headless Chromium on a PulseAudio sink). At 256 frames it is 22 ms (5.8 + 16), which is
 * what lets a click be heard within 50 ms and a seek's new position within 30 ms (`npm run bench:audio`,
 * `docs/playback.md`); the bench measured no CPU cost. 128 frames (about 11 ms) was faster still but
 * leaves a desktop sound server 8 ms of queue, too little under load for a player whose worst fault is a
 * drop-out. Windows (WASAPI, 10 ms) and macOS (Core Audio, 128–512 frames) already start low and keep
 * Chromium's choice.
 */
export const LINUX_AUDIO_BUFFER_FRAMES = 256

export function chromiumSwitches(platform: NodeJS.Platform): Array<[name: string, value: string]> {
  return platform === 'linux' ? [['audio-buffer-size', String(LINUX_AUDIO_BUFFER_FRAMES)]] : []
}

/** The same switches as Chromium command-line flags, for a browser the tests start in the app's place. */
export const chromiumFlags = (platform: NodeJS.Platform) =>
  chromiumSwitches(platform).map(([name, value]) => `--${name}=${value}`)
