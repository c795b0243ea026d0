// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import vue from 'eslint-plugin-vue'
import globals from 'globals'

/** Files allowed to import `electron`: the thin glue around the core (docs/architecture.md). */
const GLUE = ['electron/main/index.ts', 'electron/main/glue/**/*.ts', 'electron/preload/index.ts']

const noElectron = {
  name: 'electron',
  message:
    'Only the glue files (electron/main/index.ts, electron/main/glue/, electron/preload/index.ts) import electron.',
}

/** What crosses to the preload and the renderer loads no zod: the schemas stay in main (shared/ipc/schemas.ts). */
const noZod = {
  name: 'zod',
  allowTypeImports: true,
  message:
    'The preload and the zod-free contract modules must not load zod: argument schemas live in shared/ipc/schemas.ts.',
}
const ZOD_FREE_SHARED = [
  'shared/ipc/contract.ts',
  'shared/ipc/bridge.ts',
  'shared/errors.ts',
  'shared/settings.ts',
  'shared/settings-choices.ts',
  'shared/api/artist-names.ts',
]

/**
 * Which process may import which (docs/architecture.md, "Boundaries"). Each process folder reaches
 * another only through `shared/`; the data source (server/) uses `shared/` through the `@shared` alias and
 * a module's face (`@shared/lyrics`, never `@shared/lyrics/lrc` or a relative `../shared/` path).
 */
const noMainProcess = {
  group: ['@main', '@main/*', '**/electron/main', '**/electron/main/**'],
  message: 'Only main imports electron/main: other processes reach it over IPC (shared/ipc/contract.ts).',
}
const noRenderer = {
  group: ['@renderer', '@renderer/*', '**/renderer/src', '**/renderer/src/**'],
  message: 'Only the renderer imports renderer/.',
}
const noServer = {
  group: ['@server', '@server/*', '**/server', '**/server/**'],
  message: 'Only the data source imports server/ (main starts it as a separate process).',
}
/** The renderer's own bans: no electron, no zod, the schema-building shared modules for types only. */
const rendererPaths = [
  noElectron,
  noZod,
  ...['@shared/api/models', '@shared/settings-schema', '@shared/ipc/schemas'].map((name) => ({
    name,
    allowTypeImports: true,
    message: 'This module builds zod schemas: the renderer imports only its types.',
  })),
]
/** `from` (a folder of renderer/src) may not import the folders `above` it. */
const rendererLayer = (from, above) => ({
  group: above.flatMap((folder) => [`@renderer/${folder}/*`, `**/${folder}/*`]),
  message: `renderer/src/${from}/ may not import ${above.join(', ')}: imports run views/components → composables → stores → services.`,
})
const sharedThroughItsFace = [
  {
    group: ['**/shared', '**/shared/**'],
    message:
      'The data source uses shared/ through the @shared alias (e.g. @shared/errors), not a relative path.',
  },
  {
    group: ['@shared/lyrics/*'],
    message: 'shared/lyrics has one face: import from @shared/lyrics (index.ts).',
  },
]
const nodeModules = [
  { group: ['node:*'], message: 'shared/ must not import Node modules.' },
  {
    group: [
      'fs',
      'path',
      'os',
      'crypto',
      'http',
      'https',
      'url',
      'child_process',
      'events',
      'stream',
      'buffer',
    ],
    message: 'shared/ must not import Node modules.',
  },
]

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'] } },
  },
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'vue/multi-word-component-names': 'off',
      // Optional props are typed `T | undefined`; a default of undefined adds nothing.
      'vue/require-default-prop': 'off',
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
      'vue/html-indent': 'off',
      'vue/html-closing-bracket-newline': 'off',
      'vue/multiline-html-element-content-newline': 'off',
      'no-restricted-imports': ['error', { paths: [noElectron] }],
    },
  },
  {
    // Main reaches the data source only as a process (sources/supervisor.ts), never by import.
    files: ['electron/main/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [noServer, noRenderer] }] },
  },
  {
    files: GLUE,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['./core/*', '../core/*', '@main/core/*'],
              message:
                'The glue uses the core through its one face: import from electron/main/core (index.ts).',
            },
            noServer,
            noRenderer,
          ],
        },
      ],
    },
  },
  {
    // shared/ is pure TypeScript used by every process: no electron, no Node, no DOM.
    files: ['shared/**/*.ts'],
    languageOptions: { globals: { ...globals.es2024 } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [...nodeModules, noMainProcess, noRenderer],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...[
          'window',
          'document',
          'navigator',
          'localStorage',
          'sessionStorage',
          'HTMLElement',
          'process',
          'Buffer',
          'require',
          '__dirname',
        ].map((name) => ({ name, message: 'shared/ runs in every process: no DOM or Node globals.' })),
      ],
    },
  },
  {
    files: ZOD_FREE_SHARED,
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [noElectron, noZod], patterns: [...nodeModules, noMainProcess, noRenderer] },
      ],
    },
  },
  {
    // The demo catalogue is a leaf: only the server's start-up uses it, through server/demo/index.ts.
    files: ['server/**/*.ts'],
    ignores: ['server/demo/**', 'server/index.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [
            {
              group: ['**/demo', '**/demo/*'],
              message:
                'server/demo/ is a leaf: only server/index.ts imports it. Shared helpers go elsewhere.',
            },
            noMainProcess,
            noRenderer,
            ...sharedThroughItsFace,
          ],
        },
      ],
    },
  },
  {
    files: ['server/index.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [
            { group: ['./demo/*'], message: 'Import the demo through its one face, ./demo (index.ts).' },
            noMainProcess,
            noRenderer,
            ...sharedThroughItsFace,
          ],
        },
      ],
    },
  },
  {
    // The demo catalogue: like the rest of server/, no electron, no other process, shared/ by its face.
    files: ['server/demo/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [noElectron], patterns: [noMainProcess, noRenderer, ...sharedThroughItsFace] },
      ],
    },
  },
  {
    // The preload's one file is glue (it imports electron); anything beside it is not.
    files: ['electron/preload/**/*.ts'],
    ignores: ['electron/preload/index.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noElectron, noZod], patterns: [noServer, noRenderer] }],
    },
  },
  {
    files: ['electron/preload/index.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noZod], patterns: [noServer, noRenderer] }] },
  },
  {
    // The renderer uses the shared modules with schemas for their types only (test/e2e/bundle.test.ts
    // checks the built bundle for zod too).
    files: ['renderer/**/*.ts', 'renderer/**/*.vue'],
    rules: {
      'no-restricted-imports': ['error', { paths: rendererPaths, patterns: [noMainProcess, noServer] }],
    },
  },
  {
    // Inside the renderer, imports run one way: views and components → composables → stores → services.
    files: ['renderer/src/stores/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: rendererPaths,
          patterns: [
            noMainProcess,
            noServer,
            rendererLayer('stores', ['composables', 'components', 'views']),
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/src/services/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: rendererPaths,
          patterns: [
            noMainProcess,
            noServer,
            rendererLayer('services', ['stores', 'composables', 'components', 'views']),
          ],
        },
      ],
    },
  },
  {
    // A file a newcomer can read in one sitting (docs/architecture.md); tests and tools are exempt.
    files: [
      'electron/**/*.ts',
      'shared/**/*.ts',
      'server/**/*.ts',
      'renderer/src/**/*.ts',
      'renderer/src/**/*.vue',
    ],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
)
