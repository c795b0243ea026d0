/**
 * How popular a song is: its plays, with each like worth as much as twenty plays. This file is the only
 * place the formula is written; rankings in SQL use `popularitySql`, rankings in code use `popularity`.
 */
export const LIKE_WEIGHT = 20

export interface Counts {
  play_count: number
  like_count: number
}

export function popularity(counts: Counts): number {
  return counts.play_count + counts.like_count * LIKE_WEIGHT
}

/** The same formula as an SQL expression over the `songs` row aliased `alias`. */
export function popularitySql(alias: string): string {
  if (!/^[a-z_][a-z0-9_]*$/i.test(alias)) throw new Error(`Not an SQL alias: ${alias}`)
  return `(${alias}.play_count + ${alias}.like_count * ${LIKE_WEIGHT})`
}
