import { onScopeDispose } from 'vue'
import { usePlayerStore } from '@renderer/stores/player'

export const SEEK_STEP_MS = 5000
export const VOLUME_STEP = 0.05

/** Where keys belong to the focused control: text fields, sliders, selects, editable content. */
function ownsKeys(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  return target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]') !== null
}

/**
 * App-wide player keys, only outside text fields: Space plays/pauses, Left/Right seek 5 s, Up/Down change
 * the volume, Ctrl/Cmd+Left/Right skip. Alt is left alone (Alt+Up/Down reorders the queue).
 */
export function usePlayerShortcuts() {
  const player = usePlayerStore()

  function onKeydown(event: KeyboardEvent) {
    if (event.defaultPrevented || event.altKey || (event.repeat && event.key === ' ')) return
    if (ownsKeys(event.target)) return
    if (event.ctrlKey || event.metaKey) {
      // Ctrl/Cmd + Left/Right: previous and next song.
      if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
        event.preventDefault()
        void (event.key === 'ArrowRight' ? player.next() : player.previous())
      }
      return
    }
    const target = event.target instanceof HTMLElement ? event.target : null
    switch (event.key) {
      case ' ':
        // A focused button is pressed by Space itself; do not toggle as well.
        if (target?.closest('button, a, [role="button"], summary')) return
        event.preventDefault()
        void player.toggle()
        return
      case 'ArrowLeft':
        event.preventDefault()
        player.seek(player.positionMs - SEEK_STEP_MS)
        return
      case 'ArrowRight':
        event.preventDefault()
        player.seek(player.positionMs + SEEK_STEP_MS)
        return
      case 'ArrowUp':
        if (target?.closest('[role="listbox"], [role="menu"], li[tabindex]')) return
        event.preventDefault()
        player.setVolume(player.volume + VOLUME_STEP)
        return
      case 'ArrowDown':
        if (target?.closest('[role="listbox"], [role="menu"], li[tabindex]')) return
        event.preventDefault()
        player.setVolume(player.volume - VOLUME_STEP)
        return
    }
  }

  window.addEventListener('keydown', onKeydown)
  onScopeDispose(() => window.removeEventListener('keydown', onKeydown))
}
