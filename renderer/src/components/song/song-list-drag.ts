import { ref } from 'vue'
import type { Song } from '@shared/api/models'

/**
 * Drag-reorder in a `reorderable` list: a row dragged onto another asks to `move` there. `dropAt` is the
 * row it would land on (the list marks it).
 */
export function useSongDrag(deps: {
  reorderable: () => boolean
  songs: () => ReadonlyArray<Song | undefined>
  /** The row an event happened in, if any. */
  rowOf: (event: Event) => { index: number } | undefined
  move: (from: number, to: number) => void
}) {
  /** The row being dragged, and the row it would land on. */
  const dragFrom = ref<number>()
  const dropAt = ref<number>()

  function onDragStart(event: DragEvent) {
    const row = deps.rowOf(event)
    if (!deps.reorderable() || !row) return
    dragFrom.value = row.index
    event.dataTransfer?.setData('text/plain', deps.songs()[row.index]?.name ?? '')
    if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move'
  }
  function onDragOver(event: DragEvent) {
    const row = deps.rowOf(event)
    if (dragFrom.value === undefined || !row) return
    event.preventDefault()
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'move'
    dropAt.value = row.index
  }
  function onDrop(event: DragEvent) {
    const from = dragFrom.value
    const to = deps.rowOf(event)?.index ?? dropAt.value
    onDragEnd()
    if (from === undefined || to === undefined) return
    event.preventDefault()
    if (from !== to) deps.move(from, to)
  }
  function onDragEnd() {
    dragFrom.value = undefined
    dropAt.value = undefined
  }

  return { dragFrom, dropAt, onDragStart, onDragOver, onDrop, onDragEnd }
}
