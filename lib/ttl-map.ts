// A bounded in-process map whose entries expire: the memory stores (the response cache, the export
// status registry) are this map behind their own interfaces, so expiry and the bound are written and
// tested once. The clock is injected so tests run on fake time.

export type TtlMapOptions<V> = {
  /** The most entries kept; beyond it the oldest written go first. */
  maxEntries: number;
  now?: () => number;
  /** Entries to give up before the others when full (e.g. finished exports before running ones). */
  evictFirst?: (value: V) => boolean;
};

export class TtlMap<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  private readonly now: () => number;

  constructor(private readonly options: TtlMapOptions<V>) {
    this.now = options.now ?? Date.now;
  }

  /** The live value of a key; an expired one is dropped on the way. */
  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  /** Writes a value for `ttlMs` (nothing for a TTL of zero or less); it becomes the newest entry. */
  set(key: string, value: V, ttlMs: number): void {
    if (ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expires: this.now() + ttlMs });
    if (this.entries.size > this.options.maxEntries) this.evict();
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** The keys written, oldest first (expired ones included until they are read or evicted). */
  keys(): string[] {
    return [...this.entries.keys()];
  }

  get size(): number {
    return this.entries.size;
  }

  /** Expired entries first, then those `evictFirst` names, oldest first, then the oldest of the rest. */
  private evict(): void {
    const t = this.now();
    for (const [key, entry] of this.entries) if (entry.expires <= t) this.entries.delete(key);
    const { maxEntries, evictFirst } = this.options;
    if (evictFirst) {
      for (const [key, entry] of this.entries) {
        if (this.entries.size <= maxEntries) return;
        if (evictFirst(entry.value)) this.entries.delete(key);
      }
    }
    for (const key of this.entries.keys()) {
      if (this.entries.size <= maxEntries) return;
      this.entries.delete(key);
    }
  }
}
