import type { Plugin } from 'vite'

/** What `out/<part>/bundle-report.json` holds: each emitted chunk and the bytes each module put in it. */
export interface BundleReport {
  chunks: Array<{
    file: string
    isEntry: boolean
    isDynamicEntry: boolean
    /** Static imports: loaded with the chunk. */
    imports: string[]
    /** Module id (node_modules paths shortened to `node_modules/<package>/...`) → rendered bytes. */
    modules: Record<string, number>
  }>
}

const shorten = (id: string) => id.replace(/^.*[\\/]node_modules[\\/]/, 'node_modules/').replace(/\\/g, '/')

/**
 * Writes `bundle-report.json` beside the built files: the bench reads it for the bundle figures and the
 * bundle tests check with it that zod and vue-i18n's message compiler stay out of the renderer and preload.
 */
export function bundleReport(): Plugin {
  return {
    name: 'cadence:bundle-report',
    apply: 'build',
    generateBundle(_options, bundle) {
      const report: BundleReport = { chunks: [] }
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue
        const modules: Record<string, number> = {}
        for (const [id, info] of Object.entries(output.modules)) {
          modules[shorten(id)] = (modules[shorten(id)] ?? 0) + info.renderedLength
        }
        report.chunks.push({
          file: output.fileName,
          isEntry: output.isEntry,
          isDynamicEntry: output.isDynamicEntry,
          imports: output.imports,
          modules,
        })
      }
      this.emitFile({
        type: 'asset',
        fileName: 'bundle-report.json',
        source: JSON.stringify(report, null, 1),
      })
    },
  }
}
