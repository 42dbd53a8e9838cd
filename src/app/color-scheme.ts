import { atom } from 'jotai'
import { localStorageColorSchemeManager, type MantineColorScheme } from '@mantine/core'
import { storageKeys } from '../lib/storage-keys.ts'

/** Colour mode kept in localStorage: 'auto' follows the system. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: storageKeys.colorScheme })

/** The order the header's toggle walks through. */
export function nextColorScheme(current: MantineColorScheme): MantineColorScheme {
  return current === 'auto' ? 'light' : current === 'light' ? 'dark' : 'auto'
}

export const colorSchemeLabels: Record<MantineColorScheme, string> = {
  auto: 'Giao diện: theo hệ thống',
  light: 'Giao diện: sáng',
  dark: 'Giao diện: tối',
}

/** A page may force light or dark (never 'auto') through its route's staticData.colorScheme. */
export const forcedColorSchemeAtom = atom<'light' | 'dark' | undefined>(undefined)

export function forcedSchemeOf(
  matches: readonly { staticData?: { colorScheme?: 'light' | 'dark' } }[],
): 'light' | 'dark' | undefined {
  for (let i = matches.length - 1; i >= 0; i--) {
    const forced = matches[i]?.staticData?.colorScheme
    if (forced) return forced
  }
  return undefined
}

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    colorScheme?: 'light' | 'dark'
  }
}
