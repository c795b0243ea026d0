import { inject, provide } from 'vue'
import type { InjectionKey, Ref } from 'vue'

/** The element the main area scrolls in: long lists virtualise against it. */
const SCROLLER: InjectionKey<Ref<HTMLElement | undefined>> = Symbol('scroller')

export function provideScroller(element: Ref<HTMLElement | undefined>) {
  provide(SCROLLER, element)
}
export function useScroller(): Ref<HTMLElement | undefined> | undefined {
  return inject(SCROLLER, undefined)
}
