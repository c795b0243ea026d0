import { defineStore } from 'pinia'
import { ref } from 'vue'

export type NotificationKind = 'info' | 'success' | 'error'
export interface Notification {
  id: number
  kind: NotificationKind
  /** Already translated text. */
  message: string
  /** Technical text, shown only behind "Details" (a raw error message, the endpoint). */
  details?: string[]
}

/** The one path for transient messages (toasts). Each disappears by itself after `timeoutMs`. */
export const useNotificationsStore = defineStore('notifications', () => {
  const items = ref<Notification[]>([])
  let nextId = 1
  const timeoutMs = 5000

  const timers = new Map<number, ReturnType<typeof setTimeout>>()
  function dismiss(id: number) {
    clearTimeout(timers.get(id))
    timers.delete(id)
    items.value = items.value.filter((n) => n.id !== id)
  }
  function push(kind: NotificationKind, message: string, details?: string[]): number {
    // The same message again does not stack: the one on screen stays for another full while.
    const same = items.value.find((n) => n.kind === kind && n.message === message)
    const id = same?.id ?? nextId++
    if (!same) {
      // Newest last, at most four on screen.
      const item: Notification = { id, kind, message, ...(details?.length ? { details } : {}) }
      items.value = [...items.value.slice(-3), item]
    }
    clearTimeout(timers.get(id))
    timers.set(
      id,
      setTimeout(() => dismiss(id), timeoutMs),
    )
    return id
  }

  return {
    items,
    push,
    dismiss,
    info: (message: string) => push('info', message),
    success: (message: string) => push('success', message),
    error: (message: string, details?: string[]) => push('error', message, details),
  }
})
