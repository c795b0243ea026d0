/// <reference types="vite/client" />
import type { CadenceBridge } from '@shared/ipc/bridge'

declare global {
  interface Window {
    /** Built by the preload from the IPC contract (electron/preload/index.ts). */
    cadence: CadenceBridge
  }
}

declare module '*.vue' {
  import type { DefineComponent } from 'vue'
  const component: DefineComponent<object, object, unknown>
  export default component
}
