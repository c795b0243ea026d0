import { registerHooks } from 'node:module'

/**
 * `node --import ./test/electron/stand-in/register.ts out/main/index.js`: resolves the bare `electron`
 * to the stand-in, for ES modules (the built main) and for CommonJS `require` inside node_modules alike
 * (`registerHooks` runs in-thread for both), so the real package never tries to fetch its binary.
 * `process.type` is `browser`, as in Electron's main process (electron-store reads it).
 */
const standIn = new URL('./electron.ts', import.meta.url).href

/** Every module URL resolved in this process, read by the stand-in's `modules` command (what main loaded). */
const resolved: Set<string> = ((globalThis as { __standinResolved?: Set<string> }).__standinResolved =
  new Set())

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: standIn, shortCircuit: true }
    const result = nextResolve(specifier, context)
    resolved.add(result.url)
    return result
  },
})

Object.defineProperty(process, 'type', { value: 'browser', enumerable: true })
