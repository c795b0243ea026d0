import { createI18n } from 'vue-i18n'
import type { Language } from '@shared/settings'

/**
 * All text goes through vue-i18n. Messages live by domain in `messages/<domain>.ts`, each exporting
 * `{ en: {...}, 'zh-CN': {...} }`; the file name is the key prefix (`messages/home.ts` → `home.title`).
 */
type Tree = { [key: string]: string | Tree }
type DomainMessages = Record<Language, Tree>

const modules = import.meta.glob<{ default: DomainMessages }>('./messages/*.ts', { eager: true })

export function collectMessages(): Record<Language, Tree> {
  const messages: Record<Language, Tree> = { en: {}, 'zh-CN': {} }
  for (const [path, module] of Object.entries(modules)) {
    const domain = path.replace(/^.*\/(.*)\.ts$/, '$1')
    for (const language of Object.keys(messages) as Language[]) {
      messages[language][domain] = module.default[language] ?? {}
    }
  }
  return messages
}

export function createAppI18n(locale: Language = 'en') {
  return createI18n({
    legacy: false,
    locale,
    fallbackLocale: 'en',
    messages: collectMessages(),
    missingWarn: false,
    fallbackWarn: false,
  })
}
