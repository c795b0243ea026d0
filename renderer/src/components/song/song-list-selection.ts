import { shallowRef } from 'vue'
import type { Song } from '@shared/api/models'

/** How a click (or Shift+arrow) picks rows, as in file managers. */
export type SelectHow = 'one' | 'toggle' | 'range' | 'add-range'

/**
 * Rows picked by clicks (indices), Ctrl/Cmd+A, cleared with Escape: the menu of a selected row acts on all
 * of them. The file managers' rule: a plain click selects one row and sets the anchor; Ctrl/Cmd-click
 * toggles one and moves the anchor there; Shift-click selects anchor..row, replacing the range of the
 * Shift-click before it but keeping rows added with Ctrl/Cmd; Ctrl/Cmd+Shift-click adds anchor..row.
 */
export function useSongSelection(songs: () => ReadonlyArray<Song | undefined>) {
  const selected = shallowRef<ReadonlySet<number>>(new Set())
  /** Where a Shift range starts: the row last clicked plainly or with Ctrl/Cmd. */
  let anchor: number | undefined
  /** The selection a Shift range is added to: what was selected before the first Shift-click from the anchor. */
  let base: ReadonlySet<number> = new Set()

  function between(from: number, to: number, into: Set<number>) {
    const [low, high] = from < to ? [from, to] : [to, from]
    for (let i = low; i <= high; i++) into.add(i)
    return into
  }

  /** `from`: where a range starts when no row was clicked yet (the focused row, for Shift+↑/↓). */
  function select(index: number, how: SelectHow, from?: number) {
    if (anchor === undefined && from !== undefined) {
      anchor = from
      base = new Set()
    }
    if (how === 'one' || anchor === undefined) {
      selected.value = new Set([index])
      anchor = index
      base = new Set()
    } else if (how === 'toggle') {
      const next = new Set(selected.value)
      if (next.has(index)) next.delete(index)
      else next.add(index)
      selected.value = next
      anchor = index
      base = next
    } else if (how === 'range') {
      const next = new Set(base)
      between(anchor!, index, next)
      next.add(anchor!)
      selected.value = next
    } else {
      const next = between(anchor!, index, new Set(selected.value))
      selected.value = next
      base = next
    }
  }
  function selectAll() {
    selected.value = new Set(songs().map((_, i) => i))
    base = selected.value
  }
  function clear() {
    selected.value = new Set()
    base = new Set()
    anchor = undefined
  }
  /** The songs the menu of row `index` acts on: the selection when the row is in it. */
  function menuSongs(index: number): Song[] | undefined {
    if (!selected.value.has(index) || selected.value.size < 2) return undefined
    const list = songs()
    return [...selected.value]
      .sort((a, b) => a - b)
      .map((i) => list[i])
      .filter((song): song is Song => song !== undefined)
  }

  return { selected, select, selectAll, clear, menuSongs }
}
