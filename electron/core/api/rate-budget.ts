// Paces requests so the exchange never has to refuse them. The exchange allows each endpoint
// `perSecond` accepted requests per UID (signed) or per IP (public) in any sliding window of
// 1,000 ms, counted at the moment it accepts a request.
//
// Safety margin: rather than holding back a slot (which would cost a third of a 3/s endpoint and
// all of a 1/s one), a slot stays taken from the moment it is granted until its answer arrives
// plus the window. The exchange accepted the request before its answer could arrive, and will
// accept the next one only after it is sent, so the two are at least a window apart on the
// exchange's clock too, however slow or jittery the network. A few ms more cover timer rounding.
// A request whose answer never came (timeout) is the one gap; a 429 then backs the endpoint off.
import type { EndpointDefinition } from '../../../shared/api/endpoint';
import { ERROR_CODES, SUCCESS_CODE } from '../../../shared/api/error-codes';
import type { ServerClock } from './server-clock';

export type Priority = 'user' | 'background';

/** A fixed priority, or one read when a slot frees, so a queued request can be promoted. */
export type PrioritySource = Priority | (() => Priority);

export interface RateBudgetOptions {
  /** Monotonic ms; a wall clock could jump and stall or burst the queue. */
  readonly now?: () => number;
  readonly windowMs?: number;
  /** Added to every slot's window, for timer and clock rounding. */
  readonly guardMs?: number;
  /** Slots of each endpoint left unused for other programs sharing the key; at least one stays usable. */
  readonly reservedSlots?: number;
  /** First pause after a 429, doubled on each further 429 up to `maxBackoffMs`. */
  readonly initialBackoffMs?: number;
  readonly maxBackoffMs?: number;
  /** Clock whose offset `stats()` reports. */
  readonly clock?: ServerClock;
}

/** A granted slot. Release it when the answer arrives (or the attempt ends without one). */
export interface RateLease {
  /**
   * `code` is the envelope's code, or null when no answer came (network error, timeout).
   * A 429 backs the endpoint off; any other answer ends a back-off. Only the first call counts.
   */
  release(code: string | null): void;
}

export interface EndpointBudgetStats {
  readonly endpointId: string;
  readonly key: string;
  readonly perSecond: number;
  /** Slots this budget grants per window (perSecond minus reserved slots). */
  readonly capacity: number;
  /** Slots taken: in flight, or answered less than a window ago. */
  readonly usedInWindow: number;
  readonly headroom: number;
  readonly queued: number;
  readonly queuedUser: number;
  /** Consecutive 429s; 0 once an answer came through again. */
  readonly backoffLevel: number;
  /** How long the endpoint still pauses after a 429. */
  readonly backoffRemainingMs: number;
  /** Wall-clock ms of the last 429, or null. */
  readonly last429At: number | null;
  /** Codes of the latest refused answers, oldest first. */
  readonly recentErrorCodes: readonly string[];
}

export interface RateBudgetStats {
  readonly endpoints: readonly EndpointBudgetStats[];
  /** Exchange time minus local time, or null when unknown. */
  readonly clockOffsetMs: number | null;
}

export class RateBudgetDisposedError extends Error {
  constructor() {
    super('The rate budget was stopped; the request was not sent.');
    this.name = 'RateBudgetDisposedError';
  }
}

type BudgetedEndpoint = Pick<EndpointDefinition, 'id' | 'rateLimit'>;

interface Slot {
  /** Monotonic ms when the slot frees; Infinity while its request is in flight. */
  until: number;
}

interface Waiter {
  readonly priority: PrioritySource;
  readonly grant: (lease: RateLease) => void;
  readonly refuse: (reason: unknown) => void;
}

interface Bucket {
  readonly endpointId: string;
  readonly key: string;
  readonly perSecond: number;
  readonly capacity: number;
  readonly slots: Set<Slot>;
  waiters: Waiter[];
  backoffLevel: number;
  backoffUntil: number;
  last429At: number | null;
  recentErrorCodes: string[];
  timer: NodeJS.Timeout | null;
  timerAt: number;
}

const DEFAULT_WINDOW_MS = 1_000;
const DEFAULT_GUARD_MS = 5;
const DEFAULT_INITIAL_BACKOFF_MS = 250;
const DEFAULT_MAX_BACKOFF_MS = 8_000;
const RECENT_ERRORS_KEPT = 10;

export class RateBudget {
  private readonly now: () => number;
  private readonly windowMs: number;
  private readonly guardMs: number;
  private readonly reservedSlots: number;
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly clock: ServerClock | undefined;
  private readonly buckets = new Map<string, Bucket>();
  private disposed = false;

  constructor(options: RateBudgetOptions = {}) {
    this.now = options.now ?? (() => performance.now());
    this.windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
    this.guardMs = options.guardMs ?? DEFAULT_GUARD_MS;
    this.reservedSlots = options.reservedSlots ?? 0;
    this.initialBackoffMs = options.initialBackoffMs ?? DEFAULT_INITIAL_BACKOFF_MS;
    this.maxBackoffMs = options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS;
    this.clock = options.clock;
  }

  /**
   * Resolves with a lease when `endpoint` has a free slot for `key` (a UID, or the exchange's
   * address for public endpoints). 'user' requests are granted before queued 'background' ones;
   * within a priority, first come first served. Rejects with the signal's reason on abort.
   */
  acquire(
    endpoint: BudgetedEndpoint,
    key: string,
    priority: PrioritySource,
    signal?: AbortSignal,
  ): Promise<RateLease> {
    if (this.disposed) return Promise.reject(new RateBudgetDisposedError());
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    const bucket = this.bucketFor(endpoint, key);
    return new Promise<RateLease>((resolve, reject) => {
      const onAbort = () => {
        bucket.waiters = bucket.waiters.filter((waiter) => waiter !== entry);
        reject(signal?.reason);
      };
      const entry: Waiter = {
        priority,
        grant: (lease) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(lease);
        },
        refuse: (reason) => {
          signal?.removeEventListener('abort', onAbort);
          reject(reason);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      bucket.waiters.push(entry);
      this.pump(bucket);
    });
  }

  stats(): RateBudgetStats {
    const now = this.now();
    const endpoints = [...this.buckets.values()].map((bucket): EndpointBudgetStats => {
      this.freeExpired(bucket, now);
      const used = bucket.slots.size;
      return {
        endpointId: bucket.endpointId,
        key: bucket.key,
        perSecond: bucket.perSecond,
        capacity: bucket.capacity,
        usedInWindow: used,
        headroom: Math.max(0, bucket.capacity - used),
        queued: bucket.waiters.length,
        queuedUser: bucket.waiters.filter((waiter) => priorityOf(waiter) === 'user').length,
        backoffLevel: bucket.backoffLevel,
        backoffRemainingMs: Math.max(0, Math.ceil(bucket.backoffUntil - now)),
        last429At: bucket.last429At,
        recentErrorCodes: [...bucket.recentErrorCodes],
      };
    });
    return { endpoints, clockOffsetMs: this.clock?.state().offsetMs ?? null };
  }

  /** Stops every timer and refuses every queued request; later acquires are refused too. */
  dispose(): void {
    this.disposed = true;
    for (const bucket of this.buckets.values()) {
      if (bucket.timer !== null) clearTimeout(bucket.timer);
      bucket.timer = null;
      const waiters = bucket.waiters;
      bucket.waiters = [];
      for (const waiter of waiters) waiter.refuse(new RateBudgetDisposedError());
    }
  }

  private bucketFor(endpoint: BudgetedEndpoint, key: string): Bucket {
    const name = `${endpoint.id}\u0000${key}`;
    let bucket = this.buckets.get(name);
    if (bucket === undefined) {
      const perSecond = endpoint.rateLimit.perSecond;
      bucket = {
        endpointId: endpoint.id,
        key,
        perSecond,
        capacity: Math.max(1, perSecond - this.reservedSlots),
        slots: new Set(),
        waiters: [],
        backoffLevel: 0,
        backoffUntil: -Infinity,
        last429At: null,
        recentErrorCodes: [],
        timer: null,
        timerAt: Infinity,
      };
      this.buckets.set(name, bucket);
    }
    return bucket;
  }

  /** Grants every slot that is free now, and wakes up when the next one frees. */
  private pump(bucket: Bucket): void {
    if (this.disposed) return;
    const now = this.now();
    this.freeExpired(bucket, now);
    if (bucket.waiters.length === 0) return;
    if (now < bucket.backoffUntil) {
      this.wakeAt(bucket, bucket.backoffUntil);
      return;
    }
    while (bucket.waiters.length > 0 && bucket.slots.size < bucket.capacity) {
      const waiter = this.takeNext(bucket);
      const slot: Slot = { until: Infinity };
      bucket.slots.add(slot);
      waiter.grant(this.leaseFor(bucket, slot));
    }
    if (bucket.waiters.length === 0) return;
    let nextFree = Infinity;
    for (const slot of bucket.slots) nextFree = Math.min(nextFree, slot.until);
    // All slots in flight: the next release pumps.
    if (nextFree !== Infinity) this.wakeAt(bucket, nextFree);
  }

  private takeNext(bucket: Bucket): Waiter {
    const index = bucket.waiters.findIndex((waiter) => priorityOf(waiter) === 'user');
    const [waiter] = bucket.waiters.splice(index === -1 ? 0 : index, 1);
    if (waiter === undefined) throw new Error('takeNext called on an empty queue');
    return waiter;
  }

  private leaseFor(bucket: Bucket, slot: Slot): RateLease {
    let released = false;
    return {
      release: (code) => {
        if (released) return;
        released = true;
        const now = this.now();
        slot.until = now + this.windowMs + this.guardMs;
        if (code !== null) this.recordAnswer(bucket, code, now);
        this.pump(bucket);
      },
    };
  }

  private recordAnswer(bucket: Bucket, code: string, now: number): void {
    if (code !== SUCCESS_CODE) {
      bucket.recentErrorCodes.push(code);
      if (bucket.recentErrorCodes.length > RECENT_ERRORS_KEPT) bucket.recentErrorCodes.shift();
    }
    if (code === ERROR_CODES.tooManyRequests.code) {
      bucket.backoffLevel += 1;
      const pause = Math.min(this.maxBackoffMs, this.initialBackoffMs * 2 ** (bucket.backoffLevel - 1));
      bucket.backoffUntil = Math.max(bucket.backoffUntil, now + pause);
      bucket.last429At = Date.now();
    } else {
      bucket.backoffLevel = 0;
    }
  }

  private freeExpired(bucket: Bucket, now: number): void {
    for (const slot of bucket.slots) if (slot.until <= now) bucket.slots.delete(slot);
  }

  private wakeAt(bucket: Bucket, at: number): void {
    if (bucket.timer !== null) {
      if (bucket.timerAt <= at) return;
      clearTimeout(bucket.timer);
    }
    bucket.timerAt = at;
    bucket.timer = setTimeout(
      () => {
        bucket.timer = null;
        bucket.timerAt = Infinity;
        this.pump(bucket);
      },
      Math.max(1, Math.ceil(at - this.now())),
    );
    bucket.timer.unref();
  }
}

function priorityOf(waiter: Waiter): Priority {
  return typeof waiter.priority === 'function' ? waiter.priority() : waiter.priority;
}
