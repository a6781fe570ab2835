// Throttling of failed sign-in attempts: per client (first X-Forwarded-For hop, else X-Real-IP) and
// for the whole process, in rolling one-minute windows. Only failures count, so people (and test
// suites) signing in repeatedly with a good key are never locked out, while guessing keys is slow.
import "server-only";

export type ThrottleOptions = { perClient: number; total: number; windowMs: number; now?: () => number };

export class FailureThrottle {
  private readonly byClient = new Map<string, number[]>();
  private all: number[] = [];
  private readonly now: () => number;

  constructor(private readonly options: ThrottleOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Seconds until `client` may try again, or 0 when it may try now. */
  retryAfter(client: string): number {
    const t = this.now();
    const mine = this.prune(this.byClient.get(client) ?? [], t);
    this.all = this.prune(this.all, t);
    let until = 0;
    if (mine.length >= this.options.perClient) until = Math.max(until, mine[mine.length - this.options.perClient]! + this.options.windowMs);
    if (this.all.length >= this.options.total) until = Math.max(until, this.all[this.all.length - this.options.total]! + this.options.windowMs);
    return until > t ? Math.ceil((until - t) / 1000) : 0;
  }

  recordFailure(client: string): void {
    const t = this.now();
    const mine = this.prune(this.byClient.get(client) ?? [], t);
    mine.push(t);
    this.byClient.set(client, mine);
    this.all.push(t);
    // Bound memory under a spray of spoofed client addresses.
    if (this.byClient.size > 10_000) {
      for (const [k, v] of this.byClient) if (!this.prune(v, t).length) this.byClient.delete(k);
    }
  }

  private prune(times: number[], t: number): number[] {
    const cutoff = t - this.options.windowMs;
    let i = 0;
    while (i < times.length && times[i]! <= cutoff) i++;
    return i ? times.slice(i) : times;
  }
}

export function clientIdOf(req: Request): string {
  const forwarded = req.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || req.headers.get("x-real-ip")?.trim() || "unknown";
}

const g = globalThis as typeof globalThis & { __waSignInThrottle?: FailureThrottle };
export const signInThrottle = (g.__waSignInThrottle ??= new FailureThrottle({ perClient: 10, total: 100, windowMs: 60_000 }));
