import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'
import vue from '@vitejs/plugin-vue'

const alias = {
  '@main': resolve('electron/main'),
  '@shared': resolve('shared'),
  '@server': resolve('server'),
  '@renderer': resolve('renderer/src'),
}

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' },
      },
      {
        resolve: { alias },
        plugins: [vue()],
        test: { name: 'component', include: ['test/component/**/*.test.ts'], environment: 'happy-dom' },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/conformance/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 90_000,
          // One Chromium at a time on a 2-core machine.
          fileParallelism: false,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'electron',
          include: ['test/electron/**/*.test.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 90_000,
          // Each test starts the built app with its own Chromium and data source: one at a time.
          fileParallelism: false,
        },
      },
    ],
  },
})
