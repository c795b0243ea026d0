import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'

const ROOT = resolve(import.meta.dirname, '../..')

/**
 * `npm run test:package` (not part of `npm test`): the packed app under the stand-in Electron. The
 * script builds the app and the Linux `dir` package first (test/package/build.ts); every file here
 * starts that one package.
 */
export default defineConfig({
  root: ROOT,
  resolve: {
    alias: {
      '@main': resolve(ROOT, 'electron/main'),
      '@shared': resolve(ROOT, 'shared'),
      '@server': resolve(ROOT, 'server'),
    },
  },
  test: {
    name: 'package',
    include: ['test/package/**/*.test.ts'],
    environment: 'node',
    testTimeout: 90_000,
    hookTimeout: 90_000,
    // Each file starts the package with its own Chromium and data source: one at a time.
    fileParallelism: false,
  },
})
