// The bounded cache (core/boundedCache.ts) behind the grammar's word caches: it never holds more than its cap, and
// drops the least recently used entry first. The control is a plain Map, which grows with every new word.
import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../server/src/core/boundedCache';

describe('BoundedCache', () => {
  it('holds at most its cap however many words come', () => {
    const cache = new BoundedCache<string, number>(100);
    const control = new Map<string, number>();
    for (let i = 0; i < 10_000; i++) {
      cache.set(`word${i}`, i);
      control.set(`word${i}`, i);
    }
    expect(cache.size).toBe(100);
    expect(control.size).toBe(10_000);
    expect(cache.get('word9999')).toBe(9999);
    expect(cache.get('word0')).toBeUndefined();
  });

  it('drops the least recently used first: a word read again stays', () => {
    const cache = new BoundedCache<string, string>(2);
    cache.set('a', 'A');
    cache.set('b', 'B');
    expect(cache.get('a')).toBe('A');
    cache.set('c', 'C');
    expect(cache.get('a')).toBe('A');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')).toBe('C');
  });
});
