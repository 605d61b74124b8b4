// One upstream poll per query key, however many windows ask for it. Each key of an endpoint is
// polled as often as a share of that endpoint's limit allows when divided among all its keys
// polled now; the polls go to the rate budget as 'background', so a user's own request
// overtakes them. A key is polled only while some visible window subscribes to it.
//
// The polls of one endpoint are also spaced evenly (one per interval / keys), so keys started
// together do not stay in lockstep and fill the whole limit in bursts; the free slots left for
// the user are then free at every moment, not only on average.
import type { EndpointDefinition } from '../../../shared/api/endpoint';
import type { ApiClient } from '../api/signed-client';
import type { RateBudget } from '../api/rate-budget';
import { backoffIntervalMs, DEFAULT_POLL_SHARE, pollIntervalMs } from './poll-interval';
import { pollFailureOf } from './poll-update';
import type { PollListener, PollUpdate } from './poll-update';
import { canonicalQuery } from './query-key';
import type { QueryKey } from './query-key';

export interface PollHubOptions {
  readonly client: Pick<ApiClient, 'call'>;
  /** The budget `client` draws on; its capacity per endpoint (after reserved slots) sets the pace. */
  readonly budget: Pick<RateBudget, 'stats'>;
  /** Wall clock for `receivedAt` and `lastResultAt`. */
  readonly now?: () => number;
  /** Share of each endpoint's limit polling may use; the rest stays free for user actions. */
  readonly pollShare?: number;
  /** Shortest interval between two polls of one key. */
  readonly minIntervalMs?: number;
  /** Longest wait after repeated failures. */
  readonly maxBackoffMs?: number;
}

export interface PolledKeyStats {
  readonly queryKey: string;
  readonly endpointId: string;
  /** Subscriptions, from visible and hidden windows. */
  readonly subscribers: number;
  /** Subscriptions from visible windows; the key is polled while there is one. */
  readonly visibleSubscribers: number;
  readonly polling: boolean;
  /** Interval between the starts of two polls, before any back-off. */
  readonly intervalMs: number;
  readonly consecutiveFailures: number;
  /** Wall-clock ms of the last answer (data or error), or null. */
  readonly lastResultAt: number | null;
  /** Polls sent upstream for this key since it was first subscribed. */
  readonly upstreamRequests: number;
}

export const DEFAULT_MIN_INTERVAL_MS = 0;
export const DEFAULT_MAX_BACKOFF_MS = 30_000;

interface Subscription {
  readonly windowId: string;
  readonly listener: PollListener;
  readonly key: PolledKey;
}

interface PolledKey {
  readonly id: string;
  readonly endpoint: EndpointDefinition;
  readonly params: unknown;
  readonly subscriptions: Set<Subscription>;
  polling: boolean;
  timer: NodeJS.Timeout | null;
  inFlight: AbortController | null;
  /** Monotonic ms the last poll started, or -Infinity. */
  lastStartedAt: number;
  lastUpdate: PollUpdate | null;
  upstreamRequests: number;
  consecutiveFailures: number;
}

interface WindowState {
  visible: boolean;
  readonly subscriptions: Set<Subscription>;
}

export class PollHub {
  private readonly client: Pick<ApiClient, 'call'>;
  private readonly budget: Pick<RateBudget, 'stats'>;
  private readonly now: () => number;
  private readonly pollShare: number;
  private readonly minIntervalMs: number;
  private readonly maxBackoffMs: number;
  private readonly keys = new Map<string, PolledKey>();
  private readonly windows = new Map<string, WindowState>();
  /** Per endpoint: monotonic ms before which none of its keys starts a poll. */
  private readonly nextPollSlot = new Map<string, number>();
  private disposed = false;

  constructor(options: PollHubOptions) {
    this.client = options.client;
    this.budget = options.budget;
    this.now = options.now ?? Date.now;
    this.pollShare = options.pollShare ?? DEFAULT_POLL_SHARE;
    this.minIntervalMs = options.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS;
    this.maxBackoffMs = options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS;
    if (!(this.pollShare > 0 && this.pollShare <= 1)) throw new RangeError('pollShare must be in (0, 1]');
  }

  /**
   * Pushes every answer for `key` to `listener` while `windowId` is visible. Returns the
   * function that ends this subscription. Throws ApiCallError (kind 'bad_request') when the key
   * cannot be polled: unknown endpoint, a write, or parameters the endpoint refuses.
   */
  subscribe(windowId: string, key: QueryKey, listener: PollListener): () => void {
    if (this.disposed) throw new Error('The poll hub was stopped; nothing can subscribe any more.');
    const query = canonicalQuery(key);
    let polled = this.keys.get(query.id);
    if (polled === undefined) {
      polled = {
        id: query.id,
        endpoint: query.endpoint,
        params: query.params,
        subscriptions: new Set(),
        polling: false,
        timer: null,
        inFlight: null,
        lastStartedAt: -Infinity,
        lastUpdate: null,
        upstreamRequests: 0,
        consecutiveFailures: 0,
      };
      this.keys.set(query.id, polled);
    }
    const window = this.windowState(windowId);
    const subscription: Subscription = { windowId, listener, key: polled };
    polled.subscriptions.add(subscription);
    window.subscriptions.add(subscription);
    // A window joining a key already polled gets the latest answer now, not one interval later.
    const latest = polled.lastUpdate;
    if (window.visible && polled.polling && latest !== null) {
      queueMicrotask(() => {
        if (polled.subscriptions.has(subscription)) deliver(subscription, latest);
      });
    }
    this.refresh(polled);
    return () => this.unsubscribe(subscription);
  }

  /** The window closed: all its subscriptions end. */
  unsubscribeWindow(windowId: string): void {
    const window = this.windows.get(windowId);
    if (window === undefined) return;
    this.windows.delete(windowId);
    const touched = new Set<PolledKey>();
    for (const subscription of window.subscriptions) {
      subscription.key.subscriptions.delete(subscription);
      touched.add(subscription.key);
    }
    for (const key of touched) this.refresh(key);
  }

  /** A hidden window's keys stop being polled unless a visible window needs them too. */
  setWindowVisible(windowId: string, visible: boolean): void {
    if (this.disposed) return;
    const window = this.windowState(windowId);
    if (window.visible === visible) return;
    window.visible = visible;
    const touched = new Set<PolledKey>();
    for (const subscription of window.subscriptions) touched.add(subscription.key);
    for (const key of touched) this.refresh(key);
    if (!visible) return;
    // What arrived while hidden, so the window does not show stale data until the next answer.
    for (const subscription of window.subscriptions) {
      const latest = subscription.key.lastUpdate;
      if (latest !== null) deliver(subscription, latest);
    }
  }

  stats(): PolledKeyStats[] {
    return [...this.keys.values()].map((key) => {
      let visibleSubscribers = 0;
      for (const subscription of key.subscriptions) {
        if (this.windows.get(subscription.windowId)?.visible === true) visibleSubscribers += 1;
      }
      return {
        queryKey: key.id,
        endpointId: key.endpoint.id,
        subscribers: key.subscriptions.size,
        visibleSubscribers,
        polling: key.polling,
        intervalMs: this.intervalOf(key.endpoint),
        consecutiveFailures: key.consecutiveFailures,
        lastResultAt: key.lastUpdate?.receivedAt ?? null,
        upstreamRequests: key.upstreamRequests,
      };
    });
  }

  /** Stops every timer and cancels every poll queued or in flight. */
  dispose(): void {
    this.disposed = true;
    for (const key of this.keys.values()) this.stop(key);
    this.keys.clear();
    this.windows.clear();
  }

  private windowState(windowId: string): WindowState {
    let window = this.windows.get(windowId);
    if (window === undefined) {
      window = { visible: true, subscriptions: new Set() };
      this.windows.set(windowId, window);
    }
    return window;
  }

  private unsubscribe(subscription: Subscription): void {
    const { key } = subscription;
    if (!key.subscriptions.delete(subscription)) return;
    const window = this.windows.get(subscription.windowId);
    window?.subscriptions.delete(subscription);
    if (window !== undefined && window.subscriptions.size === 0 && window.visible) {
      this.windows.delete(subscription.windowId);
    }
    this.refresh(key);
  }

  /** Starts or stops polling `key` to match who wants it, and re-paces its endpoint's keys. */
  private refresh(key: PolledKey): void {
    if (this.disposed) return;
    const wanted = this.hasVisibleSubscriber(key);
    if (wanted === key.polling) return;
    if (wanted) {
      key.polling = true;
      // The interval shrinks or grows for every key of the endpoint; this one included.
      this.repace(key.endpoint.id);
    } else {
      this.stop(key);
      if (key.subscriptions.size === 0) this.keys.delete(key.id);
      this.repace(key.endpoint.id);
    }
  }

  private hasVisibleSubscriber(key: PolledKey): boolean {
    for (const subscription of key.subscriptions) {
      if (this.windows.get(subscription.windowId)?.visible === true) return true;
    }
    return false;
  }

  private stop(key: PolledKey): void {
    key.polling = false;
    if (key.timer !== null) clearTimeout(key.timer);
    key.timer = null;
    key.inFlight?.abort(new Error('no visible window needs this poll any more'));
    key.inFlight = null;
  }

  /** Re-times the waiting polls of an endpoint after its number of polled keys changed. */
  private repace(endpointId: string): void {
    for (const key of this.keys.values()) {
      if (key.endpoint.id === endpointId && key.polling && key.inFlight === null) this.schedule(key);
    }
  }

  /**
   * Arms the timer for the next poll: one interval (backed off after failures) after the last
   * start, and not before the endpoint's next free slot.
   */
  private schedule(key: PolledKey): void {
    if (key.timer !== null) clearTimeout(key.timer);
    const wait = backoffIntervalMs(this.intervalOf(key.endpoint), key.consecutiveFailures, this.maxBackoffMs);
    const due = Math.max(key.lastStartedAt + wait, this.nextPollSlot.get(key.endpoint.id) ?? -Infinity);
    const delay = Math.max(0, due - performance.now());
    key.timer = setTimeout(() => {
      key.timer = null;
      this.poll(key);
    }, delay);
    key.timer.unref();
  }

  private poll(key: PolledKey): void {
    if (this.disposed || !key.polling || key.inFlight !== null) return;
    const startedAt = performance.now();
    const slot = this.nextPollSlot.get(key.endpoint.id) ?? -Infinity;
    // Another key of the endpoint took the slot first (timers round to whole ms).
    if (startedAt + 1 < slot) {
      this.schedule(key);
      return;
    }
    this.nextPollSlot.set(key.endpoint.id, startedAt + this.spacingOf(key.endpoint));
    const controller = new AbortController();
    key.inFlight = controller;
    key.lastStartedAt = startedAt;
    key.upstreamRequests += 1;
    this.client
      .call(key.endpoint, key.params, { priority: 'background', signal: controller.signal })
      .then(
        (data: unknown) => {
          if (controller.signal.aborted) return;
          key.consecutiveFailures = 0;
          this.publish(key, {
            queryKey: key.id,
            endpointId: key.endpoint.id,
            receivedAt: this.now(),
            ok: true,
            data,
          });
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          key.consecutiveFailures += 1;
          const retryInMs = backoffIntervalMs(
            this.intervalOf(key.endpoint),
            key.consecutiveFailures,
            this.maxBackoffMs,
          );
          this.publish(key, {
            queryKey: key.id,
            endpointId: key.endpoint.id,
            receivedAt: this.now(),
            ok: false,
            error: pollFailureOf(error, retryInMs),
          });
        },
      )
      .finally(() => {
        if (key.inFlight !== controller) return;
        key.inFlight = null;
        // Scheduled only once the answer is in, so a poll never overlaps itself.
        if (key.polling && !this.disposed) this.schedule(key);
      });
  }

  private publish(key: PolledKey, update: PollUpdate): void {
    key.lastUpdate = update;
    for (const subscription of [...key.subscriptions]) {
      if (this.windows.get(subscription.windowId)?.visible === true) deliver(subscription, update);
    }
  }

  private intervalOf(endpoint: EndpointDefinition): number {
    let keys = 0;
    for (const key of this.keys.values()) if (key.endpoint.id === endpoint.id && key.polling) keys += 1;
    return this.pollInterval(endpoint, keys);
  }

  /** Least time between two polls of the endpoint, whichever keys they are for. */
  private spacingOf(endpoint: EndpointDefinition): number {
    return this.pollInterval(endpoint, 1);
  }

  private pollInterval(endpoint: EndpointDefinition, keys: number): number {
    return pollIntervalMs({
      perSecond: this.capacityOf(endpoint),
      keys,
      share: this.pollShare,
      minIntervalMs: this.minIntervalMs,
    });
  }

  /** What the budget grants per window (its reserved slots taken off), once it has seen the endpoint. */
  private capacityOf(endpoint: EndpointDefinition): number {
    let capacity = endpoint.rateLimit.perSecond;
    for (const entry of this.budget.stats().endpoints) {
      if (entry.endpointId === endpoint.id) capacity = Math.min(capacity, entry.capacity);
    }
    return capacity;
  }
}

/** One window's listener failing must not keep the answer from the others. */
function deliver(subscription: Subscription, update: PollUpdate): void {
  try {
    subscription.listener(update);
  } catch {
    // Deliberately ignored, as above.
  }
}
