import { nextTick, watch } from 'vue'
import type { Ref } from 'vue'
import type { Song } from '@shared/api/models'
import { SONG_ROW_HEIGHT } from './song-grid'

/**
 * Keyboard movement in a song list: one row holds the focus (`active`, the roving tabindex); arrow keys,
 * Home/End and PageUp/PageDown move it, and Alt+↑/↓ moves the row itself in a `reorderable` list.
 */
export function useSongKeys(deps: {
  root: Ref<HTMLElement | undefined>
  /** The row that holds the focus (the list clamps it when the list shrinks). */
  active: Ref<number>
  songs: () => ReadonlyArray<Song | undefined>
  /** Whether the list is virtualised, and how to bring a row into its window. */
  virtual: () => boolean
  scrollToIndex: (index: number) => void
  /** The height of what scrolls the list (for PageUp/PageDown). */
  viewportHeight: () => number | undefined
  reorderable: () => boolean
  move: (from: number, to: number) => void
}) {
  const { active } = deps

  function rowElement(i: number) {
    return deps.root.value?.querySelector<HTMLElement>(`[data-index="${i}"]`) ?? undefined
  }

  async function focusRow(i: number) {
    active.value = i
    if (deps.virtual()) deps.scrollToIndex(i)
    await nextTick()
    let row = rowElement(i)
    if (!row) {
      // The virtualiser renders the row on its next frame.
      await new Promise((r) => requestAnimationFrame(r))
      row = rowElement(i)
    }
    row?.focus({ preventScroll: deps.virtual() })
    if (!deps.virtual()) row?.scrollIntoView({ block: 'nearest' })
  }

  /**
   * A placeholder row with the keyboard focus (End or Page Down onto rows that have not arrived) is a
   * different element from the row that replaces it: when its song arrives, the focus moves to the new row
   * instead of falling back to the page. Runs before the DOM update, while the placeholder still has it.
   */
  watch(
    () => deps.songs()[active.value],
    (song, before) => {
      if (!song || before) return
      const focused = document.activeElement
      if (!(focused instanceof HTMLElement) || !deps.root.value?.contains(focused)) return
      const index = active.value
      if (focused.dataset.index !== String(index)) return
      void nextTick(() => rowElement(index)?.focus({ preventScroll: true }))
    },
  )

  /** Alt+↑/↓ (a reorderable list), arrows, Home/End, PageUp/PageDown from the row at `rowIndex`, if any. */
  function onMoveKey(event: KeyboardEvent, rowIndex: number | undefined) {
    const songs = deps.songs()
    if (
      deps.reorderable() &&
      rowIndex !== undefined &&
      event.altKey &&
      (event.key === 'ArrowUp' || event.key === 'ArrowDown')
    ) {
      event.preventDefault()
      const to = rowIndex + (event.key === 'ArrowUp' ? -1 : 1)
      if (to < 0 || to >= songs.length) return
      deps.move(rowIndex, to)
      return void focusRow(to)
    }
    const current = rowIndex ?? active.value
    const page = Math.max(1, Math.floor((deps.viewportHeight() ?? 480) / SONG_ROW_HEIGHT) - 1)
    const last = songs.length - 1
    const to: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      Home: 0,
      End: last,
      PageDown: current + page,
      PageUp: current - page,
    }
    if (!(event.key in to) || last < 0) return
    event.preventDefault()
    void focusRow(Math.max(0, Math.min(last, to[event.key])))
  }

  return { focusRow, onMoveKey }
}
