import type { Ref } from 'vue'

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]):not([hidden]), a[href], [tabindex="0"]'

/**
 * Keeps Tab and Shift+Tab inside a modal dialog: from its last control to its first and back. Call the
 * returned handler from the dialog's keydown.
 */
export function useFocusTrap(root: Ref<HTMLElement | undefined>) {
  return (event: KeyboardEvent) => {
    if (event.key !== 'Tab' || !root.value) return
    const items = [...root.value.querySelectorAll<HTMLElement>(FOCUSABLE)]
    if (!items.length) return
    const first = items[0]
    const last = items[items.length - 1]
    const at = document.activeElement
    if (event.shiftKey && (at === first || !root.value.contains(at))) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && (at === last || !root.value.contains(at))) {
      event.preventDefault()
      first.focus()
    }
  }
}

/**
 * A modal dialog's keyboard and focus: Tab stays inside `root`, Escape closes, and closing gives focus
 * back to what had it when the dialog opened. `close` runs `onClose` (the owner's emit) and restores focus.
 */
export function useModalDialog(root: Ref<HTMLElement | undefined>, onClose: () => void) {
  const trap = useFocusTrap(root)
  const previous = document.activeElement as HTMLElement | null
  function close() {
    onClose()
    previous?.focus?.({ preventScroll: true })
  }
  function onKey(event: KeyboardEvent) {
    trap(event)
    if (event.key !== 'Escape') return
    event.preventDefault()
    event.stopPropagation()
    close()
  }
  return { close, onKey }
}
