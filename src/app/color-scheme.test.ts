import { beforeEach, describe, expect, it } from 'vitest'
import { storageKeys } from '../lib/storage-keys.ts'
import { colorSchemeManager, forcedSchemeOf, nextColorScheme } from './color-scheme.ts'

beforeEach(() => localStorage.clear())

describe('colour mode', () => {
  it('walks system → light → dark → system', () => {
    expect(nextColorScheme('auto')).toBe('light')
    expect(nextColorScheme('light')).toBe('dark')
    expect(nextColorScheme('dark')).toBe('auto')
  })

  it('is kept in localStorage and follows the system until the user picks one', () => {
    expect(colorSchemeManager.get('auto')).toBe('auto')
    colorSchemeManager.set('dark')
    expect(localStorage.getItem(storageKeys.colorScheme)).toBe('dark')
    expect(colorSchemeManager.get('auto')).toBe('dark')
  })

  it('lets the deepest page that asks force light or dark', () => {
    expect(forcedSchemeOf([{ staticData: {} }, { staticData: {} }])).toBeUndefined()
    expect(forcedSchemeOf([{ staticData: { colorScheme: 'light' } }, { staticData: { colorScheme: 'dark' } }])).toBe(
      'dark',
    )
    expect(forcedSchemeOf([{ staticData: { colorScheme: 'light' } }, {}])).toBe('light')
  })
})
