/**
 * A song's position ↔ the audio clock, for one song of the Web Audio output (`track.ts`): runs of
 * constant speed. A start or a seek begins a new map; a speed change adds a run from the clock time the
 * new speed is heard, while the times before it keep the old one (the old rendering still plays until
 * then). Pure.
 */

export interface ClockRun {
  /** Clock time (s) the run begins. */
  at: number
  /** Song position (s) at `at`. */
  position: number
  /** Song seconds per clock second. */
  speed: number
}

export class ClockMap {
  private runs: ClockRun[] = [{ at: 0, position: 0, speed: 1 }]

  /** The song plays from `position` at clock time `at`, at `speed`. */
  reset(at: number, position: number, speed: number) {
    this.runs = [{ at, position, speed }]
  }

  /** From clock time `at` on, the song plays from `position` at `speed` (a later run replaces this). */
  add(at: number, position: number, speed: number) {
    this.runs = [...this.runs.filter((run) => run.at < at).slice(-1), { at, position, speed }]
  }

  /** The song position (s) at clock time `now`: before the first run, where it starts. */
  position(now: number): number {
    const run = this.runAt(now)
    return run.position + Math.max(0, now - run.at) * run.speed
  }

  /** The clock time the song reaches `position` at the latest run's speed. */
  clockAt(position: number): number {
    const run = this.runs[this.runs.length - 1]
    return run.at + (position - run.position) / run.speed
  }

  /** The speed heard at clock time `now`. */
  speedAt(now: number): number {
    return this.runAt(now).speed
  }

  private runAt(now: number): ClockRun {
    for (let i = this.runs.length - 1; i > 0; i--) if (this.runs[i].at <= now) return this.runs[i]
    return this.runs[0]
  }
}
