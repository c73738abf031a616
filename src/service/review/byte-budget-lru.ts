/**
 * A map that forgets its least recently used entries once their sizes pass a byte budget. An
 * entry larger than the whole budget is not kept at all. `get` counts as a use; `take` removes
 * the entry and hands it over.
 */
export class ByteBudgetLru<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private used = 0;

  constructor(private readonly budgetBytes: number) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  take(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.used -= entry.bytes;
    return entry.value;
  }

  set(key: string, value: V, bytes: number): void {
    this.take(key);
    if (bytes > this.budgetBytes) return;
    this.entries.set(key, { value, bytes });
    this.used += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.used <= this.budgetBytes) break;
      this.entries.delete(oldest);
      this.used -= entry.bytes;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
