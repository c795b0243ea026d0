import { onBeforeUnmount, onMounted } from 'vue'
import { useRouter } from 'vue-router'
import { useSearchStore } from '@renderer/stores/search'

/** The shortcuts the settings view lists, as i18n keys of their descriptions. */
export const SHORTCUTS: ReadonlyArray<{ keys: string[]; action: string }> = [
  { keys: ['Ctrl/⌘ + F', '/'], action: 'settings.shortcut.search' },
  { keys: ['Space'], action: 'settings.shortcut.toggle' },
  { keys: ['Ctrl/⌘ + →'], action: 'settings.shortcut.next' },
  { keys: ['Ctrl/⌘ + ←'], action: 'settings.shortcut.previous' },
  { keys: ['←', '→'], action: 'settings.shortcut.seek' },
  { keys: ['↑', '↓'], action: 'settings.shortcut.volume' },
  { keys: ['Alt + ↑', 'Alt + ↓'], action: 'settings.shortcut.queueMove' },
  { keys: ['↑ ↓', 'Home', 'End'], action: 'settings.shortcut.move' },
  { keys: ['Enter'], action: 'settings.shortcut.play' },
  { keys: ['Shift + F10', '☰'], action: 'settings.shortcut.menu' },
  { keys: ['Esc'], action: 'settings.shortcut.close' },
  { keys: ['Alt + ←', '⌘ + ['], action: 'settings.shortcut.back' },
  { keys: ['Alt + →', '⌘ + ]'], action: 'settings.shortcut.forward' },
  { keys: ['Shift + ↑ ↓', 'Shift + click'], action: 'settings.shortcut.extendSelection' },
]

/** How long keys are kept for a search field that is not there yet. */
const TYPE_AHEAD_MS = 3000

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null
  if (!el) return false
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName)
}

/** App-wide keys (window level): search focus. The player's keys live in player-shortcuts.ts. */
export function useShortcuts() {
  const router = useRouter()
  const search = useSearchStore()

  function onKey(event: KeyboardEvent) {
    if (event.defaultPrevented || event.isComposing) return
    const mod = event.ctrlKey || event.metaKey
    if ((mod && event.key.toLowerCase() === 'f') || (event.key === '/' && !mod && !typing(event.target))) {
      event.preventDefault()
      search.requestFocus()
      if (router.currentRoute.value.name !== 'search') {
        // While the search view's code loads, what is typed is kept for its field: no letter is lost.
        search.expectField(TYPE_AHEAD_MS)
        void router.push({ name: 'search' })
      }
      return
    }
    if (typing(event.target)) return
    const printable = event.key.length === 1 && !mod && !event.altKey
    if ((printable || event.key === 'Backspace') && search.typeAhead(event.key)) event.preventDefault()
  }
  onMounted(() => window.addEventListener('keydown', onKey))
  onBeforeUnmount(() => window.removeEventListener('keydown', onKey))
}
