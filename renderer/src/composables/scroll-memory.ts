import type { Ref } from 'vue'
import type { Router } from 'vue-router'

/** How long a page's content may take to grow tall enough for the position Back returns to. */
const RESTORE_MS = 5000

/**
 * Where the main area was scrolled on each page of the history: a new page starts at the top, and Back or
 * Forward returns to where that page was. The lists are virtual and their rows arrive after the page, so
 * the position is applied again as the content grows, until it is reached, the person scrolls, or
 * RESTORE_MS pass. Returns what stops it. Loaded after the first page is drawn (the start budget), which
 * is early enough: the first page starts at the top anyway.
 */
export function startScrollMemory(router: Router, main: Ref<HTMLElement | undefined>): () => void {
  const history = router.options.history
  /** Scroll tops by vue-router's history position. */
  const tops = new Map<number, number>()
  let popped = false
  let cancelRestore: (() => void) | undefined

  const position = () => (history.state?.position as number | undefined) ?? 0
  /** The entry on screen (on Back, `history.state` is already the one being returned to). */
  let current = position()

  const stopListening = history.listen(() => {
    popped = true
  })
  const stopBefore = router.beforeEach((_to, from) => {
    if (from.matched.length && main.value) tops.set(current, main.value.scrollTop)
  })
  const stopAfter = router.afterEach((to, from, failure) => {
    const wasPop = popped
    popped = false
    if (failure) return
    cancelRestore?.()
    const here = position()
    current = here
    if (!wasPop) {
      tops.delete(here)
      if (to.path !== from.path) main.value?.scrollTo({ top: 0 })
      return
    }
    restore(tops.get(here) ?? 0)
  })

  function restore(top: number) {
    const el = main.value
    if (!el) return
    el.scrollTo({ top })
    if (top === 0 || Math.abs(el.scrollTop - top) < 1) return
    const until = performance.now() + RESTORE_MS
    let frame = 0
    const stop = () => {
      cancelAnimationFrame(frame)
      el.removeEventListener('wheel', stop)
      el.removeEventListener('keydown', stop)
      el.removeEventListener('pointerdown', stop)
      cancelRestore = undefined
    }
    const step = () => {
      el.scrollTo({ top })
      if (Math.abs(el.scrollTop - top) < 1 || performance.now() > until) return stop()
      frame = requestAnimationFrame(step)
    }
    el.addEventListener('wheel', stop, { passive: true })
    el.addEventListener('keydown', stop)
    el.addEventListener('pointerdown', stop)
    cancelRestore = stop
    frame = requestAnimationFrame(step)
  }

  return () => {
    stopListening()
    stopBefore()
    stopAfter()
    cancelRestore?.()
  }
}
