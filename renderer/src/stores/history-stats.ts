import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { HistoryStats, HistoryStatsRange } from '@shared/ipc/history'
import type { CadenceError } from '@shared/errors'
import { invoke } from '@renderer/services/cadence'
import { toCadenceError } from '@renderer/services/cadence-error'

/**
 * "Your listening, in pictures" as the renderer sees it: main computes it from history
 * (`history:stats`, core/history/store.ts) for the span chosen; days are the renderer's local days.
 */
export const useHistoryStatsStore = defineStore('history-stats', () => {
  const range = ref<HistoryStatsRange>('month')
  const stats = shallowRef<HistoryStats>()
  const status = ref<'idle' | 'loading' | 'ready' | 'error'>('idle')
  const error = shallowRef<CadenceError>()
  let asked = 0

  /** The figures for `span` (the one shown stays until they come; a later ask wins). */
  async function load(span: HistoryStatsRange = range.value) {
    range.value = span
    const mine = ++asked
    status.value = 'loading'
    try {
      const value = await invoke('history:stats', {
        range: span,
        utcOffsetMinutes: -new Date().getTimezoneOffset(),
      })
      if (mine !== asked) return
      stats.value = value
      status.value = 'ready'
    } catch (cause) {
      if (mine !== asked) return
      error.value = toCadenceError(cause)
      status.value = 'error'
    }
  }

  return { range, stats, status, error, load }
})
