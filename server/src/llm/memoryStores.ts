// In-memory CallLog and ResponseCacheStore, for tests and throwaway runs.
import type { CallLog, LlmCallRecord, ResponseCacheStore } from './types';

export class ArrayCallLog implements CallLog {
  readonly rows: LlmCallRecord[] = [];
  record(call: LlmCallRecord): void {
    this.rows.push(call);
  }
}

export class MapResponseCache implements ResponseCacheStore {
  readonly map = new Map<string, string>();
  get(key: string): string | undefined {
    return this.map.get(key);
  }
  put(key: string, value: string): void {
    this.map.set(key, value);
  }
  delete(key: string): void {
    this.map.delete(key);
  }
  entries(): Iterable<[string, string]> {
    return [...this.map.entries()];
  }
}
