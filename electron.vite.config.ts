import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import vue from '@vitejs/plugin-vue'
import { bundleReport } from './tools/bundle-report'
import { i18nPrecompile } from './tools/i18n-precompile'

const alias = {
  '@main': resolve('electron/main'),
  '@shared': resolve('shared'),
  '@server': resolve('server'),
  '@renderer': resolve('renderer/src'),
}

/** The English message files in the initial bundle (the rest is the `messages-en` chunk). */
const FRAME_MESSAGES = /[\\/](auth|common|library|nav|source)\.ts\?lang=en$/

export default defineConfig({
  main: {
    resolve: { alias },
    build: {
      outDir: 'out/main',
      // zod is bundled so that only what the schemas use is loaded: as a package, its entry loads every
      // locale's error messages (about 40 modules) into main and the data source at start.
      externalizeDeps: { exclude: ['zod'] },
      rollupOptions: {
        input: {
          index: resolve('electron/main/index.ts'),
          // The built-in data source runs in its own utility process.
          'data-source': resolve('server/utility-entry.ts'),
          // Demo audio is synthesised off the data source's event loop, in a worker thread.
          'synth-worker': resolve('server/audio/synth-worker.ts'),
        },
        // V8 keeps each script's source in memory, at two bytes a character if one character is beyond
        // Latin-1 (the tray's Chinese labels, a dash in a comment): escaped and without JSDoc, it is kept
        // at one byte a character and about a third smaller. Licence comments stay.
        output: { charset: 'ascii', comments: { legal: true, annotation: true, jsdoc: false } },
      },
    },
  },
  preload: {
    resolve: { alias },
    plugins: [bundleReport()],
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot load ES modules or node_modules: one CommonJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'renderer',
    resolve: {
      alias: {
        ...alias,
        // Messages are compiled at build time (tools/i18n-precompile.ts): the runtime-only build suffices.
        'vue-i18n': 'vue-i18n/dist/vue-i18n.runtime.esm-bundler.js',
      },
    },
    define: {
      __VUE_I18N_FULL_INSTALL__: 'false',
      __VUE_I18N_LEGACY_API__: 'false',
      __INTLIFY_PROD_DEVTOOLS__: 'false',
      __INTLIFY_DROP_MESSAGE_COMPILER__: 'true',
      __VUE_OPTIONS_API__: 'false',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
    plugins: [i18nPrecompile(), vue(), bundleReport()],
    build: {
      outDir: 'out/renderer',
      minify: true,
      rollupOptions: {
        input: { index: resolve('renderer/index.html') },
        output: {
          // A language other than English is one lazy chunk (renderer/src/i18n/index.ts), not one per file.
          manualChunks: (id) => {
            // The frameworks every window starts with: one file compresses better than rolldown's split.
            if (/[\\/]node_modules[\\/](@vue|vue|vue-router|vue-i18n|@intlify|pinia)[\\/]/.test(id))
              return 'vendor'
            if (!/[\\/]i18n[\\/]messages[\\/]/.test(id)) return undefined
            if (id.endsWith('?lang=zh-CN')) return 'messages-zh-CN'
            // English for the views (renderer/src/i18n/index.ts): one lazy chunk.
            if (id.endsWith('?lang=en') && !FRAME_MESSAGES.test(id)) return 'messages-en'
            return undefined
          },
        },
      },
    },
  },
})
