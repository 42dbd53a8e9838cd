import js from '@eslint/js'
import boundaries from 'eslint-plugin-boundaries'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

/**
 * Lint for the whole repository (`npm run lint`, a step of `npm test`). Besides typescript-eslint's strict
 * rules and the rules of hooks, it holds the architecture (docs/architecture.md): which part may import
 * which. Import circles and features importing each other both ways are caught by
 * tests/architecture/import-graph.test.ts.
 */
export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      'coverage/**',
      'node_modules/**',
      'public/**',
      'src/routeTree.gen.ts',
      'tests/architecture/fixtures/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.strict,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module' },
    rules: {
      // Unused parameters of callbacks and destructured rests are normal; `_` marks the deliberate ones.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true, caughtErrors: 'none' },
      ],
      // With noUncheckedIndexedAccess, `!` after a check the compiler cannot follow is the codebase's idiom.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // An empty catch says "best effort" (cleanup that may fail); the code comments why where it matters.
      'no-empty': ['error', { allowEmptyCatch: true }],
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true }],
      '@typescript-eslint/no-invalid-void-type': 'off',
      'preserve-caught-error': 'off',
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'tests/**/*.ts', 'server/src/testing/**/*.ts'],
    rules: {
      // Tests reach into loosely typed internals (mocks, raw sockets) on purpose.
      '@typescript-eslint/no-explicit-any': 'off',
      'prefer-const': 'off',
      'no-regex-spaces': 'off',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // What the browser loads uses zod's functional API: the classic one's methods cannot be tree-shaken,
    // and it made up most of the entry's schema chunk (docs/performance.md). The server may use either.
    files: ['core/**/*.ts', 'src/**/*.{ts,tsx}', 'sw/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'zod',
              message: "Use 'zod/mini' (z.optional(…), .check(z.maxLength(…)), …) in code the browser loads.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['core/**/*.ts', 'src/**/*.{ts,tsx}', 'sw/**/*.ts', 'server/**/*.ts'],
    // Tests may compose several parts (a feature's test with the app's API hooks); the rules are for the code they test.
    ignores: ['**/*.test.{ts,tsx}', '**/test-fixtures.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
      'boundaries/include': ['core/**', 'src/**', 'sw/**', 'server/**'],
      'boundaries/elements': [
        { type: 'core', pattern: 'core', mode: 'folder' },
        { type: 'server', pattern: 'server', mode: 'folder' },
        { type: 'sw', pattern: 'sw', mode: 'folder' },
        { type: 'feature', pattern: 'src/features/*', mode: 'folder', capture: ['feature'] },
        { type: 'lib', pattern: 'src/lib', mode: 'folder' },
        { type: 'components', pattern: 'src/components', mode: 'folder' },
        {
          type: 'app',
          pattern: ['src/app/**', 'src/routes/**', 'src/main.tsx', 'src/routeTree.gen.ts', 'src/vite-env.d.ts'],
          mode: 'full',
        },
      ],
    },
    rules: {
      'boundaries/element-types': [
        'error',
        {
          default: 'disallow',
          rules: [
            { from: 'core', allow: ['core'] },
            { from: 'server', allow: ['server', 'core'] },
            { from: 'sw', allow: ['sw', 'core'] },
            { from: 'lib', allow: ['lib', 'core'] },
            { from: 'components', allow: ['components', 'lib', 'core'] },
            { from: 'feature', allow: ['lib', 'components', 'core', ['feature', { feature: '${from.feature}' }]] },
            {
              from: 'feature',
              allow: [['feature', { feature: '!${from.feature}' }]],
              message: 'Another feature only through its index.ts',
            },
            { from: 'app', allow: ['app', 'feature', 'lib', 'components', 'core'] },
          ],
        },
      ],
      // A feature is reached from outside only through its public files, each a chunk boundary: index.ts
      // (its API), shell.ts (what the app shell renders on every screen, in the entry), pages.ts (screens
      // their routes split off) and start.ts (what the app starts once the first screen is up).
      'boundaries/entry-point': [
        'error',
        {
          default: 'allow',
          rules: [
            { target: ['feature'], disallow: ['**'] },
            { target: ['feature'], allow: ['index.ts', 'shell.ts', 'pages.ts', 'start.ts'] },
          ],
        },
      ],
    },
  },
)
