import js from '@eslint/js'
import boundaries from 'eslint-plugin-boundaries'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

/** The architecture's parts in boundaries selectors: the files of the given element types. */
const element = (...types) => ({ element: { type: types } })
const to = (...types) => ({ to: element(...types) })
/**
 * A feature is reached from outside only through its public files, each a chunk boundary: index.ts (its API),
 * shell.ts (what the app shell renders on every screen, in the entry), pages.ts (screens their routes split off)
 * and start.ts (what the app starts once the first screen is up).
 */
const featurePublicFiles = {
  element: { type: 'feature', fileInternalPath: ['index.ts', 'shell.ts', 'pages.ts', 'start.ts'] },
}

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
      // Each pattern is a folder from the repository's root; a file belongs to the first that holds it, so the
      // app (its shell in src/app, the pages in src/routes, main.tsx and the generated route tree) is what is
      // left of src/.
      'boundaries/elements': [
        { type: 'core', pattern: 'core', partialMatch: false },
        { type: 'server', pattern: 'server', partialMatch: false },
        { type: 'sw', pattern: 'sw', partialMatch: false },
        { type: 'feature', pattern: 'src/features/*', capture: ['feature'], partialMatch: false },
        { type: 'lib', pattern: 'src/lib', partialMatch: false },
        { type: 'components', pattern: 'src/components', partialMatch: false },
        { type: 'app', pattern: 'src', partialMatch: false },
      ],
    },
    rules: {
      // What no policy allows is refused: a feature reaches its own files, and another feature or the app reaches
      // a feature only through its public files.
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            { from: element('core'), allow: to('core') },
            { from: element('server'), allow: to('server', 'core') },
            { from: element('sw'), allow: to('sw', 'core') },
            { from: element('lib'), allow: to('lib', 'core') },
            { from: element('components'), allow: to('components', 'lib', 'core') },
            {
              from: element('feature'),
              allow: [
                to('lib', 'components', 'core'),
                { to: { element: { type: 'feature', captured: { feature: '{{ from.element.captured.feature }}' } } } },
                { to: featurePublicFiles },
              ],
            },
            { from: element('app'), allow: [to('app', 'lib', 'components', 'core'), { to: featurePublicFiles }] },
          ],
        },
      ],
    },
  },
)
