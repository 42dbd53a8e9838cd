import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'
import { repoRoot } from './import-graph.ts'

const eslint = new ESLint({ cwd: repoRoot })

/** The findings of the rules whose id starts with `rules` (the boundary rules by default) for `code` as if it were the file at `path`. */
async function lintErrors(path: string, code: string, rules = 'boundaries/'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(repoRoot, path) })
  return (result?.messages ?? []).filter((m) => m.ruleId?.startsWith(rules)).map((m) => m.message)
}

describe('the lint boundaries', () => {
  it('refuse a lower layer importing a feature, and the server importing the app', async () => {
    expect(
      await lintErrors(
        'src/lib/fixture.ts',
        "import { sessionAtom } from '../features/auth/index.ts'\nexport const s = sessionAtom\n",
      ),
    ).toHaveLength(1)
    expect(
      await lintErrors(
        'server/src/fixture.ts',
        "import { store } from '../../src/lib/store.ts'\nexport const s = store\n",
      ),
    ).toHaveLength(1)
    expect(
      await lintErrors('core/fixture.ts', "import { store } from '../src/lib/store.ts'\nexport const s = store\n"),
    ).toHaveLength(1)
  })

  it("refuse reaching into another feature's files, from a feature or from the app shell", async () => {
    expect(
      await lintErrors(
        'src/features/map/fixture.ts',
        "import { sessionAtom } from '../auth/atoms.ts'\nexport const s = sessionAtom\n",
      ),
    ).toHaveLength(1)
    expect(
      await lintErrors(
        'src/app/fixture.ts',
        "import { sessionAtom } from '../features/auth/atoms.ts'\nexport const s = sessionAtom\n",
      ),
    ).toHaveLength(1)
    expect(
      await lintErrors(
        'src/main.tsx',
        "import { sessionAtom } from './features/auth/atoms.ts'\nexport const s = sessionAtom\n",
      ),
    ).toHaveLength(1)
  })

  it('refuse a feature reaching into the app shell, and the library into the components', async () => {
    expect(
      await lintErrors(
        'src/features/map/fixture.ts',
        "import { AppLayout } from '../../app/AppLayout.tsx'\nexport const a = AppLayout\n",
      ),
    ).toHaveLength(1)
    expect(
      await lintErrors(
        'src/lib/fixture.ts',
        "import { ConfirmDialog } from '../components/ConfirmDialog.tsx'\nexport const c = ConfirmDialog\n",
      ),
    ).toHaveLength(1)
  })

  it('lint a file of each part without printing a word (no deprecated rule or option)', () => {
    // The plugin warns once per process on stderr, so a process of its own shows what `npm run lint` would.
    const files = ['core/messages.ts', 'server/src/app.ts', 'sw/sw.ts', 'src/main.tsx', 'src/features/map/index.ts']
    const run = spawnSync(process.execPath, [join(repoRoot, 'node_modules/eslint/bin/eslint.js'), ...files], {
      cwd: repoRoot,
      encoding: 'utf8',
    })
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
      status: 0,
      stdout: '',
      stderr: '',
    })
  })

  it("let a feature use its own files and another feature's index.ts", async () => {
    expect(
      await lintErrors(
        'src/features/auth/fixture.ts',
        "import { sessionAtom } from './atoms.ts'\nexport const s = sessionAtom\n",
      ),
    ).toEqual([])
    expect(
      await lintErrors(
        'src/features/map/fixture.ts',
        "import { sessionAtom } from '../auth/index.ts'\nexport const s = sessionAtom\n",
      ),
    ).toEqual([])
  })

  it("refuse zod's classic API in what the browser loads, and let the server use it", async () => {
    const classic = "import { z } from 'zod'\nexport const s = z.string()\n"
    expect(await lintErrors('core/fixture.ts', classic, 'no-restricted-imports')).toHaveLength(1)
    expect(await lintErrors('src/lib/fixture.ts', classic, 'no-restricted-imports')).toHaveLength(1)
    expect(await lintErrors('sw/fixture.ts', classic, 'no-restricted-imports')).toHaveLength(1)
    expect(await lintErrors('server/src/fixture.ts', classic, 'no-restricted-imports')).toEqual([])
    expect(
      await lintErrors(
        'src/lib/fixture.ts',
        "import { z } from 'zod/mini'\nexport const s = z.string()\n",
        'no-restricted-imports',
      ),
    ).toEqual([])
  })

  it('let the app shell import a feature and a feature import the core', async () => {
    expect(
      await lintErrors(
        'src/app/fixture.ts',
        "import { sessionAtom } from '../features/auth/index.ts'\nexport const s = sessionAtom\n",
      ),
    ).toEqual([])
    expect(
      await lintErrors(
        'src/features/map/fixture.ts',
        "import { codeMessages } from '#core/messages.ts'\nexport const m = codeMessages\n",
      ),
    ).toEqual([])
  })
})
