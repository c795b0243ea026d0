import type { DomainModule } from './domain'

/** Every Simplified Chinese domain in one chunk, loaded before the locale switches to it. */
export default import.meta.glob<DomainModule>('./messages/*.ts', { eager: true, query: { lang: 'zh-CN' } })
