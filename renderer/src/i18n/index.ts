import { createI18n } from 'vue-i18n'
import type { Composer } from 'vue-i18n'
import type { Language } from '@shared/settings'
import type { DomainModule, Tree } from './domain'

/**
 * All text goes through vue-i18n. Messages live by domain in `messages/<domain>.ts`, each exporting
 * `{ en: {...}, 'zh-CN': {...} }`; the file name is the key prefix (`messages/home.ts` → `home.title`).
 *
 * Each file is imported once per language with `?lang=<language>`; the build (tools/i18n-precompile.ts)
 * keeps only that language's tree, so Simplified Chinese is one lazy chunk, loaded by `ensureLanguage`
 * before the locale switches to it, and only part of English (the fallback) is in the initial bundle.
 */

/**
 * English for what every window shows from the start (sidebar links, banners, toasts); the views' domains
 * are one more chunk, loaded before the first page shows (`ensureLanguage` in the router's guard),
 * alongside that page's own chunk. The frame's lazy parts that use them (the player bar, the sidebar's
 * playlists, the overlays) wait for it too (`withViewsEnglish`). Tests and the dev server have all of
 * English up front.
 */
const englishFrame = import.meta.glob<DomainModule>('./messages/{auth,common,library,nav,source}.ts', {
  eager: true,
  query: { lang: 'en' },
})
// Outside the build (tests, dev server) every English domain is there from the start.
const englishAll = import.meta.env.PROD
  ? {}
  : import.meta.glob<DomainModule>('./messages/*.ts', { eager: true, query: { lang: 'en' } })
const englishUpFront = import.meta.env.PROD ? englishFrame : englishAll
type Modules = Record<string, DomainModule>
/** The rest of each language, one chunk per language (`views-en.ts`, `all-zh-CN.ts`). */
const lazy: Record<Language, () => Promise<Modules>> = {
  en: import.meta.env.PROD ? () => import('./views-en').then((m) => m.default) : async () => ({}),
  'zh-CN': () => import('./all-zh-CN').then((m) => m.default),
}
/** The languages each i18n instance has whole (English up front outside the build). */
const complete = new WeakMap<object, Set<Language>>()

function domainOf(path: string) {
  return path.replace(/^.*\/(.*)\.ts(\?.*)?$/, '$1')
}

function tree(language: Language, modules: Array<[string, DomainModule]>): Tree {
  const messages: Tree = {}
  for (const [path, module] of modules) messages[domainOf(path)] = module.default[language] ?? {}
  return messages
}

/** One language's messages, keyed by domain (loads the chunks it needs). */
export async function loadMessages(language: Language): Promise<Tree> {
  const loaded = Object.entries(await lazy[language]())
  return tree(language, language === 'en' ? [...Object.entries(englishUpFront), ...loaded] : loaded)
}

type Global = Pick<Composer, 'availableLocales' | 'getLocaleMessage' | 'setLocaleMessage'>

/** Makes sure all of `language`'s messages are in vue-i18n. */
export async function ensureLanguage(global: Global, language: Language): Promise<void> {
  const whole = complete.get(global) ?? new Set<Language>(import.meta.env.PROD ? [] : ['en'])
  complete.set(global, whole)
  if (whole.has(language) && global.availableLocales.includes(language)) return
  const loading = loadMessages(language).then((messages) => global.setLocaleMessage(language, messages))
  if (language === 'en') viewsEnglish = loading.catch(() => undefined)
  await loading
  whole.add(language)
}

/** The views' English while it loads (set by `ensureLanguage`); a failed load is not waited for again. */
let viewsEnglish: Promise<void> = Promise.resolve()

/**
 * A loader for a lazy part of the window's frame whose text is in the views' domains (the player bar, the
 * sidebar's playlists, the overlays): its chunk and the views' English, fetched together, so it never
 * shows a message key.
 */
export function withViewsEnglish<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([load(), viewsEnglish]).then(([module]) => module)
}

/** The language last shown, remembered so the next start can load its messages before the first paint. */
const LANGUAGE_HINT = 'cadence.language'
export function rememberLanguage(language: Language): void {
  try {
    localStorage.setItem(LANGUAGE_HINT, language)
  } catch {
    // No storage: the next start shows English until the settings arrive.
  }
}
export function rememberedLanguage(): Language | undefined {
  try {
    const hint = localStorage.getItem(LANGUAGE_HINT)
    return hint === 'en' || hint === 'zh-CN' ? hint : undefined
  } catch {
    return undefined
  }
}

export function createAppI18n(locale: Language = 'en') {
  return createI18n({
    legacy: false,
    locale,
    fallbackLocale: 'en',
    // Typed by language, not by what is loaded: other languages arrive through `ensureLanguage`.
    messages: { en: tree('en', Object.entries(englishUpFront)) } as Record<string, Tree>,
    missingWarn: false,
    fallbackWarn: false,
  })
}
