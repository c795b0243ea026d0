import { pathToFileURL } from 'node:url'
import { baseCompile } from '@intlify/message-compiler'
import type { Plugin } from 'vite'

/**
 * Build-time message compilation for vue-i18n, so the renderer ships vue-i18n's runtime-only build (no
 * message compiler in the bundle).
 *
 * Each `renderer/src/i18n/messages/<domain>.ts` (plain data: `export default { en: {...}, 'zh-CN': {...} }`)
 * is loaded here with Node's own TypeScript support and replaced by the same tree in which every message
 * string is its compiled AST. vue-i18n's runtime turns an AST into a message function without `eval`, so
 * the page's CSP keeps `script-src 'self'` with no `unsafe-eval`. Imported as `<file>?lang=<language>`
 * (renderer/src/i18n/index.ts), a file keeps only that language, so each language can be its own chunk. Tests and the dev server keep the plain
 * strings (the full build compiles them on first use).
 */
export const MESSAGE_FILE = /[\\/]renderer[\\/]src[\\/]i18n[\\/]messages[\\/][^\\/?]+\.ts(\?.*)?$/

type Tree = { [key: string]: string | Tree }

/** The tree with every string replaced by its AST; a message that does not compile fails the build. */
export function compileTree(tree: Tree, where: string): unknown {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(tree)) {
    const path = `${where}.${key}`
    if (typeof value === 'string') {
      const errors: string[] = []
      const { ast } = baseCompile(value, {
        jit: true,
        location: false,
        minify: true,
        optimize: true,
        onError: (error) => void errors.push(error.message),
      })
      if (errors.length) throw new Error(`i18n message ${path} does not compile: ${errors.join('; ')}`)
      out[key] = ast
    } else if (typeof value === 'object' && value !== null) {
      out[key] = compileTree(value, path)
    } else {
      throw new Error(`i18n message ${path} is neither a string nor a group`)
    }
  }
  return out
}

export function i18nPrecompile(): Plugin {
  return {
    name: 'cadence:i18n-precompile',
    apply: 'build',
    enforce: 'pre',
    async load(id) {
      if (!MESSAGE_FILE.test(id)) return null
      this.addWatchFile(id.split('?')[0])
      // A fresh copy each build (the query defeats Node's module cache).
      const [file, query = ''] = id.split('?')
      const module = (await import(`${pathToFileURL(file).href}?t=${Date.now()}`)) as { default: Tree }
      const domain = file.replace(/^.*[\\/]/, '').replace(/\.ts$/, '')
      const language = new URLSearchParams(query).get('lang')
      const tree = language ? { [language]: module.default[language] ?? {} } : module.default
      return `export default ${JSON.stringify(compileTree(tree as Tree, domain))}\n`
    },
  }
}
