import { createI18n } from 'vue-i18n'
import type { Composer } from 'vue-i18n'
import type { Language } from '@shared/settings'

/**
 * All text goes through vue-i18n. Messages live by domain in `messages/<domain>.ts`, each exporting
 * `{ en: {...}, 'zh-CN': {...} }`; the file name is the key prefix (`messages/home.ts` → `home.title`).
 *
 * Only English (also the fallback) is in the initial bundle. Each file is imported once per language with
 * `?lang=<language>`; the build (tools/i18n-precompile.ts) keeps only that language's tree, so Simplified
 * Chinese is one lazy chunk, loaded by `ensureLanguage` before the locale switches to it.
 */
type Tree = { [key: string]: string | Tree }
type DomainModule = { default: Partial<Record<Language, Tree>> }

const english = import.meta.glob<DomainModule>('./messages/*.ts', { eager: true, query: { lang: 'en' } })
const lazy: Record<Exclude<Language, 'en'>, Record<string, () => Promise<DomainModule>>> = {
  'zh-CN': import.meta.glob<DomainModule>('./messages/*.ts', { query: { lang: 'zh-CN' } }),
}

const domainOf = (path: string) => path.replace(/^.*\/(.*)\.ts(\?.*)?$/, '$1')

function tree(language: Language, modules: Array<[string, DomainModule]>): Tree {
  const messages: Tree = {}
  for (const [path, module] of modules) messages[domainOf(path)] = module.default[language] ?? {}
  return messages
}

/** One language's messages, keyed by domain (loads the language's chunk unless it is English). */
export async function loadMessages(language: Language): Promise<Tree> {
  if (language === 'en') return tree('en', Object.entries(english))
  const loaders = Object.entries(lazy[language])
  const modules = await Promise.all(loaders.map(async ([path, load]) => [path, await load()] as const))
  return tree(language, modules as Array<[string, DomainModule]>)
}

type Global = Pick<Composer, 'availableLocales' | 'setLocaleMessage'>

/** Makes sure `language`'s messages are in vue-i18n (English always is). */
export async function ensureLanguage(global: Global, language: Language): Promise<void> {
  if (global.availableLocales.includes(language)) return
  global.setLocaleMessage(language, await loadMessages(language))
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
    messages: { en: tree('en', Object.entries(english)) } as Record<string, Tree>,
    missingWarn: false,
    fallbackWarn: false,
  })
}
