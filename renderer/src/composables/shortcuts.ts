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

  /**
   * Until when keys typed after `/` or Ctrl/Cmd+F are kept for the search field, while its view's code is
   * still loading: a person who types at once loses no letter.
   */
  let typeAheadUntil = 0

  function onKey(event: KeyboardEvent) {
    if (event.defaultPrevented || event.isComposing) return
    const mod = event.ctrlKey || event.metaKey
    if ((mod && event.key.toLowerCase() === 'f') || (event.key === '/' && !mod && !typing(event.target))) {
      event.preventDefault()
      search.requestFocus()
      if (router.currentRoute.value.name !== 'search') {
        typeAheadUntil = performance.now() + TYPE_AHEAD_MS
        void router.push({ name: 'search' })
      }
      return
    }
    if (performance.now() > typeAheadUntil || typing(event.target)) return
    if (document.querySelector('[data-testid="search-input"]')) {
      typeAheadUntil = 0
      return
    }
    const printable = event.key.length === 1 && !mod && !event.altKey
    if (printable || event.key === 'Backspace') {
      event.preventDefault()
      search.typeAhead(event.key)
    }
  }
  onMounted(() => window.addEventListener('keydown', onKey))
  onBeforeUnmount(() => window.removeEventListener('keydown', onKey))
}
