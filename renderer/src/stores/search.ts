import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { SearchResult } from '@shared/api/models'
import type { CadenceError } from '@shared/errors'
import { SEARCH_KEYWORDS_MAX } from '@shared/ipc/contract'
import { invoke } from '@renderer/services/cadence'
import type { AsyncStatus } from '@renderer/stores/async-state'
import { toCadenceError } from '@renderer/services/cadence-error'

const RECENT_KEY = 'cadence.recentSearches'
const RECENT_MAX = 10

function readRecent(): string[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]')
    return Array.isArray(value)
      ? value.filter((v): v is string => typeof v === 'string').slice(0, RECENT_MAX)
      : []
  } catch {
    return []
  }
}

/** Results of each kind a search asks for at first, and at most ("More results"). */
const SEARCH_FIRST = 20
const SEARCH_MOST = 100

/**
 * Search: the newest query always wins. Each search takes a generation number and an answer is kept only
 * if no newer search started since (main also cancels the older request). Recent searches are kept in
 * localStorage: only the words the user searched for.
 */
export const useSearchStore = defineStore('search', () => {
  const query = ref('')
  const result = shallowRef<SearchResult>()
  const status = ref<AsyncStatus>('idle')
  const error = shallowRef<CadenceError>()
  const recent = ref<string[]>(readRecent())
  /** Bumped to ask the search field to take focus (Ctrl/Cmd+F, `/`). */
  const focusRequest = ref(0)
  let generation = 0
  /** How many of each kind the search asks for: 20 first, more when the user asks for more. */
  const limit = ref(SEARCH_FIRST)
  let lastWords = ''
  /** The data source may have more songs than shown (it sent as many as were asked for). */
  const moreSongs = computed(
    () => !!result.value && result.value.songs.length >= limit.value && limit.value < SEARCH_MOST,
  )
  /**
   * What was typed after `/` before the search field was there (its view's code still loading), and until
   * when keys are kept for it: the field takes the text when it mounts, which ends the window.
   */
  let typedAhead = ''
  let typeAheadUntil = 0

  const empty = computed(() => {
    const r = result.value
    return !!r && !r.songs.length && !r.artists.length && !r.albums.length && !r.playlists.length
  })

  function remember(words: string) {
    recent.value = [words, ...recent.value.filter((w) => w !== words)].slice(0, RECENT_MAX)
    try {
      localStorage.setItem(RECENT_KEY, JSON.stringify(recent.value))
    } catch {
      // Storage full or disabled: recent searches just are not kept.
    }
  }
  function clearRecent() {
    recent.value = []
    try {
      localStorage.removeItem(RECENT_KEY)
    } catch {
      // ignore
    }
  }

  /** `wanted` results of each kind; by default 20 for new words, and as many as before for the same. */
  async function search(text: string, wanted?: number) {
    // Longer words (a long album name from "Go to album") are cut where the data source's cap is.
    const words = text.trim().slice(0, SEARCH_KEYWORDS_MAX).trim()
    limit.value = wanted ?? (words === lastWords ? limit.value : SEARCH_FIRST)
    lastWords = words
    query.value = text
    const mine = ++generation
    if (!words) {
      result.value = undefined
      status.value = 'idle'
      error.value = undefined
      return
    }
    status.value = 'loading'
    error.value = undefined
    try {
      const answer = await invoke('catalog:search', { keywords: words, limit: limit.value })
      if (mine !== generation) return
      result.value = answer
      status.value = 'ready'
      remember(words)
    } catch (cause) {
      if (mine !== generation) return
      const e = toCadenceError(cause)
      if (e.kind === 'cancelled') return
      error.value = e
      status.value = 'error'
    }
  }

  return {
    query,
    result,
    status,
    error,
    recent,
    focusRequest,
    empty,
    search,
    clearRecent,
    moreSongs,
    /** Asks for up to 100 of each kind (the API's cap), keeping what is shown until they arrive. */
    more: () => search(query.value, SEARCH_MOST),
    /** Forgets the results (another data source is active); the words stay in the field and recents. */
    clearResult() {
      generation++
      result.value = undefined
      error.value = undefined
      status.value = 'idle'
    },
    retry: () => search(query.value),
    requestFocus: () => focusRequest.value++,
    /** The search field is on its way: keys are kept for it for at most `ms`. */
    expectField(ms: number) {
      typedAhead = ''
      typeAheadUntil = Date.now() + ms
    },
    /**
     * Keeps a keystroke for the field on its way (Backspace takes one back); false when no field is awaited
     * (the key is not the search's).
     */
    typeAhead(key: string): boolean {
      if (Date.now() > typeAheadUntil) return false
      typedAhead = key === 'Backspace' ? typedAhead.slice(0, -1) : (typedAhead + key).slice(0, 200)
      return true
    },
    /** The text typed ahead, once: the search field takes it when it mounts. */
    takeTypedAhead() {
      const text = typedAhead
      typedAhead = ''
      typeAheadUntil = 0
      return text
    },
  }
})
