/** A small seeded PRNG (mulberry32) so every fuzz run is reproducible from its seed. */
export interface Rng {
  /** A float in [0, 1). */
  next(): number
  /** An integer in [min, max] (inclusive). */
  int(min: number, max: number): number
  /** True with probability p. */
  chance(p: number): boolean
  pick<T>(items: readonly T[]): T
  readonly seed: number
}

export function createRng(seed: number): Rng {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  return {
    seed,
    next,
    int,
    chance: (p) => next() < p,
    pick: (items) => items[int(0, items.length - 1)],
  }
}

/** The seed for this run: FUZZ_SEED from the environment, or a fixed default so CI is deterministic. */
export function fuzzSeed(fallback: number): number {
  const fromEnv = Number(process.env.FUZZ_SEED)
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : fallback
}
