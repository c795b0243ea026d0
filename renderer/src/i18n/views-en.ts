import type { DomainModule } from './domain'

/**
 * The views' English domains in one chunk (the frame's domains are in the initial bundle): one lazy
 * import in the entry for all of them, whatever the number of message files.
 */
export default import.meta.glob<DomainModule>(
  ['./messages/*.ts', '!./messages/{auth,common,library,nav,source}.ts'],
  { eager: true, query: { lang: 'en' } },
)
