import { Suspense, useState } from 'react'
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { preloadable } from './preloadable.ts'

function Hello({ name }: { name: string }) {
  return <p>Xin chào {name}</p>
}

function Host({ part }: { part: ReturnType<typeof preloadable<typeof Hello>> }) {
  const [Part] = useState(() => part.pick())
  return (
    <Suspense fallback={<p>Đang tải…</p>}>
      <Part name="Lan" />
    </Suspense>
  )
}

afterEach(cleanup)

describe('preloadable', () => {
  it('renders its component in the first commit, without the fallback, once the chunk has been preloaded', async () => {
    const part = preloadable(async () => ({ default: Hello }))
    await part.preload()
    render(<Host part={part} />)
    expect(screen.getByText('Xin chào Lan')).toBeTruthy()
    expect(screen.queryByText('Đang tải…')).toBeNull()
  })

  it('shows the fallback and then the component when the chunk was not asked for before', async () => {
    const part = preloadable(async () => ({ default: Hello }))
    render(<Host part={part} />)
    expect(screen.getByText('Đang tải…')).toBeTruthy()
    expect(await screen.findByText('Xin chào Lan')).toBeTruthy()
  })

  it('loads the chunk once however often it is preloaded and rendered', async () => {
    const load = vi.fn(async () => ({ default: Hello }))
    const part = preloadable(load)
    void part.preload()
    render(<Host part={part} />)
    await part.preload()
    await screen.findByText('Xin chào Lan')
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('asks for a chunk again after it failed to load', async () => {
    const load = vi
      .fn<() => Promise<{ default: typeof Hello }>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue({ default: Hello })
    const part = preloadable(load)
    await expect(part.preload()).rejects.toThrow('offline')
    await act(() => part.preload())
    expect(part.pick()).toBe(Hello)
    expect(load).toHaveBeenCalledTimes(2)
  })
})
