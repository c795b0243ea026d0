import type { Language } from '@shared/settings'

/** One message tree: keys to text or to more keys. */
export type Tree = { [key: string]: string | Tree }
/** A `messages/<domain>.ts` module: its tree in each language (one, once built with `?lang=`). */
export type DomainModule = { default: Partial<Record<Language, Tree>> }
