import { afterEach, describe, expect, it } from 'vitest'
import { pageScheme, watchPageScheme, type ColorScheme } from './page-scheme.ts'

const setScheme = async (value: string) => {
  document.documentElement.setAttribute('data-mantine-color-scheme', value)
  // MutationObserver callbacks run as a microtask.
  await Promise.resolve()
}

afterEach(() => document.documentElement.removeAttribute('data-mantine-color-scheme'))

describe('the page’s colour scheme', () => {
  it('reads the scheme Mantine writes on the page, light until it says dark', async () => {
    expect(pageScheme()).toBe('light')
    await setScheme('dark')
    expect(pageScheme()).toBe('dark')
  })

  it('tells each change once, and nothing after the watch is stopped', async () => {
    const heard: ColorScheme[] = []
    const stop = watchPageScheme((s) => heard.push(s))
    await setScheme('dark')
    await setScheme('dark')
    await setScheme('light')
    stop()
    await setScheme('dark')
    expect(heard).toEqual(['dark', 'light'])
  })
})
