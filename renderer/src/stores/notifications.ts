import { defineStore } from 'pinia'
import { ref } from 'vue'

export type NotificationKind = 'info' | 'success' | 'error'
export interface Notification {
  id: number
  kind: NotificationKind
  /** Already translated text. */
  message: string
}

/** The one path for transient messages (toasts). Each disappears by itself after `timeoutMs`. */
export const useNotificationsStore = defineStore('notifications', () => {
  const items = ref<Notification[]>([])
  let nextId = 1
  const timeoutMs = 5000

  function dismiss(id: number) {
    items.value = items.value.filter((n) => n.id !== id)
  }
  function push(kind: NotificationKind, message: string): number {
    const id = nextId++
    // Newest last, at most four on screen.
    items.value = [...items.value.slice(-3), { id, kind, message }]
    setTimeout(() => dismiss(id), timeoutMs)
    return id
  }

  return {
    items,
    push,
    dismiss,
    info: (message: string) => push('info', message),
    success: (message: string) => push('success', message),
    error: (message: string) => push('error', message),
  }
})
