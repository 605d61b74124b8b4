// Exact sliding-window limits: a client gets at most `limit` accepted requests in any window of
// `windowMs`, so a client that paces itself by the same rule is never refused. Each client keeps
// the times of its last `limit` accepted requests in a ring; a request is accepted when the oldest
// of them has left the window. Refused requests are not recorded, so a client recovers by itself.

export interface RateLimitCounters {
  readonly accepted: number;
  readonly rejected: number;
  readonly trackedClients: number;
}

export interface RateLimiterOptions {
  /** Monotonic milliseconds; a wall clock could jump back and refuse clients for the jump. */
  readonly now?: () => number;
  readonly windowMs?: number;
}

/** Windows idle this many windows long are forgotten, which bounds memory to recent clients. */
const SWEEP_EVERY_WINDOWS = 5;

interface ClientWindow {
  readonly acceptedAt: Float64Array;
  /** Slot of the oldest accepted time, overwritten by the next accepted one. */
  next: number;
  lastAcceptedAt: number;
}

export class RateLimitBucket {
  readonly name: string;
  readonly limit: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly clients = new Map<string, ClientWindow>();
  private lastSweepAt: number;
  private acceptedCount = 0;
  private rejectedCount = 0;

  constructor(name: string, limit: number, windowMs: number, now: () => number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`rate limit of ${name} must be a positive integer`);
    this.name = name;
    this.limit = limit;
    this.windowMs = windowMs;
    this.now = now;
    this.lastSweepAt = now();
  }

  /** Counts the request of `client` and says whether it is within the limit. */
  tryAcquire(client: string): boolean {
    const now = this.now();
    if (now - this.lastSweepAt >= this.windowMs * SWEEP_EVERY_WINDOWS) this.forgetIdleClients(now);
    let window = this.clients.get(client);
    if (window === undefined) {
      window = { acceptedAt: new Float64Array(this.limit).fill(-Infinity), next: 0, lastAcceptedAt: now };
      this.clients.set(client, window);
    }
    const oldest = window.acceptedAt[window.next] ?? -Infinity;
    if (now - oldest < this.windowMs) {
      this.rejectedCount += 1;
      return false;
    }
    window.acceptedAt[window.next] = now;
    window.next = window.next + 1 === this.limit ? 0 : window.next + 1;
    window.lastAcceptedAt = now;
    this.acceptedCount += 1;
    return true;
  }

  counters(): RateLimitCounters {
    return { accepted: this.acceptedCount, rejected: this.rejectedCount, trackedClients: this.clients.size };
  }

  private forgetIdleClients(now: number): void {
    for (const [client, window] of this.clients) {
      if (now - window.lastAcceptedAt >= this.windowMs) this.clients.delete(client);
    }
    this.lastSweepAt = now;
  }
}

/** One bucket per endpoint, each with its own limit. */
export class SlidingWindowRateLimiter {
  readonly windowMs: number;
  private readonly now: () => number;
  private readonly buckets = new Map<string, RateLimitBucket>();

  constructor(options: RateLimiterOptions = {}) {
    this.now = options.now ?? (() => performance.now());
    this.windowMs = options.windowMs ?? 1_000;
  }

  /** The bucket named `name`, created on first use. */
  bucket(name: string, limit: number): RateLimitBucket {
    const existing = this.buckets.get(name);
    if (existing !== undefined) {
      if (existing.limit !== limit) {
        throw new Error(
          `rate limit bucket ${name} already exists with ${existing.limit} per window, not ${limit}`,
        );
      }
      return existing;
    }
    const created = new RateLimitBucket(name, limit, this.windowMs, this.now);
    this.buckets.set(name, created);
    return created;
  }

  counters(name: string): RateLimitCounters | undefined {
    return this.buckets.get(name)?.counters();
  }
}
