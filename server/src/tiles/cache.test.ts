import { describe, expect, it } from 'vitest'
import { ByteLru } from './cache.ts'

describe('byte-bounded LRU', () => {
  it('evicts the least recently used entries once the byte budget is exceeded', () => {
    const lru = new ByteLru<string>(100)
    lru.set('a', 'A', 40)
    lru.set('b', 'B', 40)
    expect(lru.get('a')).toBe('A')
    lru.set('c', 'C', 40)
    expect(lru.get('b')).toBeUndefined()
    expect(lru.get('a')).toBe('A')
    expect(lru.get('c')).toBe('C')
    expect(lru.bytes).toBe(80)
  })

  it('replaces an entry without counting its old size twice', () => {
    const lru = new ByteLru<string>(100)
    lru.set('a', 'A', 60)
    lru.set('a', 'A2', 70)
    expect(lru.bytes).toBe(70)
    expect(lru.size).toBe(1)
    expect(lru.get('a')).toBe('A2')
  })

  it('does not keep a value larger than the whole budget', () => {
    const lru = new ByteLru<string>(100)
    lru.set('a', 'A', 50)
    lru.set('big', 'B', 101)
    expect(lru.get('big')).toBeUndefined()
    expect(lru.get('a')).toBe('A')
  })

  it('keeps null values apart from misses and empties on clear', () => {
    const lru = new ByteLru<string | null>(100)
    lru.set('empty', null, 10)
    expect(lru.get('empty')).toBeNull()
    expect(lru.get('missing')).toBeUndefined()
    lru.clear()
    expect(lru.get('empty')).toBeUndefined()
    expect(lru.bytes).toBe(0)
  })
})
