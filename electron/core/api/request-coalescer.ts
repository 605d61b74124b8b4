// Identical reads in flight at the same moment (several windows polling the same tickers) share
// one request: one slot of the rate budget, one answer for all. The shared request is cancelled
// only when every caller has given up on it.

export interface SharedRequest<T, C> {
  readonly result: Promise<T>;
  /** State the first caller attached, so later callers can act on it (raise its priority). */
  readonly context: C;
  /** True when the caller joined a request already in flight. */
  readonly joined: boolean;
}

interface InFlight {
  readonly result: Promise<unknown>;
  readonly context: unknown;
  readonly controller: AbortController;
  followers: number;
}

export class RequestCoalescer {
  private readonly inFlight = new Map<string, InFlight>();

  /** Requests in flight now. */
  get size(): number {
    return this.inFlight.size;
  }

  /**
   * Joins the request in flight under `key`, or starts it with `start`, which gets a signal
   * that aborts once no caller waits any more. A caller whose own `signal` aborts is rejected
   * with the signal's reason at once, without waiting for the shared request.
   */
  join<T, C>(
    key: string,
    start: (signal: AbortSignal) => { readonly result: Promise<T>; readonly context: C },
    signal?: AbortSignal,
  ): SharedRequest<T, C> {
    let entry = this.inFlight.get(key);
    const joined = entry !== undefined;
    if (entry === undefined) {
      const controller = new AbortController();
      const started = start(controller.signal);
      const created: InFlight = {
        result: started.result,
        context: started.context,
        controller,
        followers: 0,
      };
      const forget = () => {
        if (this.inFlight.get(key) === created) this.inFlight.delete(key);
      };
      started.result.then(forget, forget);
      this.inFlight.set(key, created);
      entry = created;
    }
    return {
      // The entry holds what `start` returned for this key; T and C are that call's.
      result: this.follow(entry, signal) as Promise<T>,
      context: entry.context as C,
      joined,
    };
  }

  private follow(entry: InFlight, signal: AbortSignal | undefined): Promise<unknown> {
    entry.followers += 1;
    const leave = () => {
      entry.followers -= 1;
      if (entry.followers === 0) entry.controller.abort(new Error('every caller gave up the request'));
    };
    if (signal === undefined) return entry.result;
    if (signal.aborted) {
      leave();
      return Promise.reject(signal.reason);
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        leave();
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      entry.result.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }
}
