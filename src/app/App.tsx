import { Provider as JotaiProvider, useAtomValue } from 'jotai'
import { MantineProvider } from '@mantine/core'
import { RouterProvider } from '@tanstack/react-router'
import { store } from '../lib/store.ts'
import { colorSchemeManager, forcedColorSchemeAtom } from './color-scheme.ts'
import { router } from './router.ts'
import { theme } from './theme.ts'

function ThemedRouter() {
  const forced = useAtomValue(forcedColorSchemeAtom)
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
      forceColorScheme={forced}
    >
      <RouterProvider router={router} />
    </MantineProvider>
  )
}

export function App() {
  return (
    <JotaiProvider store={store}>
      <ThemedRouter />
    </JotaiProvider>
  )
}
