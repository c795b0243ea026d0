import { onBeforeUnmount, onMounted, ref } from 'vue'
import { useRouter } from 'vue-router'

/** vue-router's own entry in `history.state`: where Back and Forward would go, if anywhere. */
interface RouterHistoryState {
  back?: string | null
  forward?: string | null
}

const isMac = typeof navigator !== 'undefined' && /Mac/i.test(navigator.platform)

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null
  if (!el) return false
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName)
}

/**
 * Back and Forward through the pages visited, on the router's (hash) history: whether each has somewhere
 * to go, and the keys and mouse buttons every desktop app answers: Alt+←/→ (outside text fields),
 * Cmd+[ / Cmd+] on macOS, and the mouse's back and forward buttons (3 and 4, on `mouseup`, whose default
 * Chromium would otherwise also act on).
 */
export function useHistoryNav() {
  const router = useRouter()
  const canBack = ref(false)
  const canForward = ref(false)

  function update() {
    const state = (router.options.history.state ?? {}) as RouterHistoryState
    canBack.value = typeof state.back === 'string'
    canForward.value = typeof state.forward === 'string'
  }
  function back() {
    if (canBack.value) router.back()
  }
  function forward() {
    if (canForward.value) router.forward()
  }

  function onKey(event: KeyboardEvent) {
    if (event.defaultPrevented || event.isComposing) return
    const alt = event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey && !typing(event.target)
    const cmd = isMac && event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey
    if ((alt && event.key === 'ArrowLeft') || (cmd && event.key === '[')) {
      event.preventDefault()
      back()
    } else if ((alt && event.key === 'ArrowRight') || (cmd && event.key === ']')) {
      event.preventDefault()
      forward()
    }
  }
  function onMouseUp(event: MouseEvent) {
    if (event.button !== 3 && event.button !== 4) return
    event.preventDefault()
    if (event.button === 3) back()
    else forward()
  }

  const stop = router.afterEach(update)
  onMounted(() => {
    update()
    window.addEventListener('keydown', onKey)
    window.addEventListener('mouseup', onMouseUp)
  })
  onBeforeUnmount(() => {
    stop()
    window.removeEventListener('keydown', onKey)
    window.removeEventListener('mouseup', onMouseUp)
  })
  return { canBack, canForward, back, forward }
}
