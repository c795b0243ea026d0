import type { Ref } from 'vue'
import type { Song } from '@shared/api/models'

/** A row keeping the keyboard focus this long is prepared for Enter (arrowing past rows prepares none). */
export const FOCUS_SETTLE_MS = 150
/**
 * A row the pointer rests on this long is prepared for its double-click (a pointer passing over rows
 * prepares none): a person's pointer rests on a row well before its first press.
 */
export const HOVER_SETTLE_MS = 120

/**
 * A song list's rows prepared for their play before it is asked (`player.prepare`: the song's resolve
 * and head fetch start at once): when the pointer rests on a row (`HOVER_SETTLE_MS`; leaving it first
 * prepares nothing), on the first press of a row (a double-click's second press comes 100–300 ms later)
 * and when a row keeps the keyboard focus (before Enter). Presses on a row's buttons and links prepare
 * nothing. A press also wakes the output's device for the play (`wake`). A row's focus also makes it the
 * list's `active` row. `on` holds the list's listeners.
 */
export function usePressAhead(
  rowOf: (event: Event) => { el: HTMLElement; index: number } | undefined,
  songs: () => ReadonlyArray<Song | undefined>,
  active: Ref<number>,
  prepare: (song: Song, wake?: boolean) => void,
) {
  let settle: ReturnType<typeof setTimeout> | undefined
  let rest: { index: number; timer: ReturnType<typeof setTimeout> } | undefined

  function prepareRow(index: number, wake?: boolean) {
    const song = songs()[index]
    if (song) prepare(song, wake)
  }
  function onPointerDown(event: PointerEvent) {
    const row = rowOf(event)
    if (row && event.button === 0 && !(event.target as HTMLElement).closest('button, a'))
      prepareRow(row.index, true)
  }
  function onFocusIn(event: FocusEvent) {
    const row = rowOf(event)
    if (!row) return
    active.value = row.index
    clearTimeout(settle)
    if (row.el === event.target) settle = setTimeout(() => prepareRow(row.index), FOCUS_SETTLE_MS)
  }
  function onPointerOver(event: PointerEvent) {
    const index = rowOf(event)?.index
    if (index === rest?.index) return
    onPointerLeave()
    if (index !== undefined && event.pointerType !== 'touch')
      rest = { index, timer: setTimeout(() => prepareRow(index), HOVER_SETTLE_MS) }
  }
  function onPointerLeave() {
    clearTimeout(rest?.timer)
    rest = undefined
  }
  return {
    onPointerDown,
    onFocusIn,
    on: {
      pointerdown: onPointerDown,
      focusin: onFocusIn,
      pointerover: onPointerOver,
      pointerleave: onPointerLeave,
    },
  }
}

/**
 * The same for song rows that are not a `SongList`'s (queue panel, history, downloads, top songs): the
 * first press on a row (not on an element matching `skip`, which does something else), or the keyboard
 * focus kept on it or inside it (before Enter, or Space on its play button), calls `prepare` with the
 * element pressed or focused (the caller finds its row from there).
 */
export function usePressRow(prepare: (target: HTMLElement) => void, skip?: string) {
  let settle: ReturnType<typeof setTimeout> | undefined
  const target = (event: Event) => {
    const el = event.target as HTMLElement
    return skip && el.closest(skip) ? undefined : el
  }
  return {
    onPointerDown(event: PointerEvent) {
      const el = target(event)
      if (el && event.button === 0) prepare(el)
    },
    onFocusIn(event: FocusEvent) {
      clearTimeout(settle)
      const el = target(event)
      if (el) settle = setTimeout(() => prepare(el), FOCUS_SETTLE_MS)
    },
    onFocusOut: () => clearTimeout(settle),
  }
}
