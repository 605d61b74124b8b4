import { describe, expect, it } from 'vitest';
import { RequestCoalescer } from './request-coalescer';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('RequestCoalescer', () => {
  it('starts one request for callers of the same key and gives each the answer', async () => {
    const coalescer = new RequestCoalescer();
    const answer = deferred<string>();
    let starts = 0;
    const start = () => {
      starts += 1;
      return { result: answer.promise, context: { id: starts } };
    };
    const first = coalescer.join('k', start);
    const second = coalescer.join('k', start);
    const other = coalescer.join('other', () => ({ result: Promise.resolve('x'), context: { id: 0 } }));
    expect([first.joined, second.joined, other.joined]).toEqual([false, true, false]);
    expect(second.context).toBe(first.context);
    answer.resolve('tickers');
    expect(await Promise.all([first.result, second.result, other.result])).toEqual([
      'tickers',
      'tickers',
      'x',
    ]);
    expect(starts).toBe(1);
    expect(coalescer.size).toBe(0);
  });

  it('starts afresh once the previous request has settled, even after a failure', async () => {
    const coalescer = new RequestCoalescer();
    const failed = coalescer.join('k', () => ({ result: Promise.reject(new Error('down')), context: null }));
    await expect(failed.result).rejects.toThrow('down');
    const next = coalescer.join('k', () => ({ result: Promise.resolve('up'), context: null }));
    expect(next.joined).toBe(false);
    expect(await next.result).toBe('up');
  });

  it('lets one caller give up without cancelling the request for the others', async () => {
    const coalescer = new RequestCoalescer();
    const answer = deferred<string>();
    let sharedSignal: AbortSignal | undefined;
    const start = (signal: AbortSignal) => {
      sharedSignal = signal;
      return { result: answer.promise, context: null };
    };
    const leaving = new AbortController();
    const first = coalescer.join('k', start, leaving.signal);
    const second = coalescer.join('k', start);
    leaving.abort(new Error('window closed'));
    await expect(first.result).rejects.toThrow('window closed');
    expect(sharedSignal?.aborted).toBe(false);
    answer.resolve('still wanted');
    expect(await second.result).toBe('still wanted');
  });

  it('cancels the request when every caller has given up', async () => {
    const coalescer = new RequestCoalescer();
    let sharedSignal: AbortSignal | undefined;
    const start = (signal: AbortSignal) => {
      sharedSignal = signal;
      return {
        result: new Promise<string>((_, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason)),
        ),
        context: null,
      };
    };
    const a = new AbortController();
    const b = new AbortController();
    const first = coalescer.join('k', start, a.signal);
    const second = coalescer.join('k', start, b.signal);
    a.abort('a left');
    expect(sharedSignal?.aborted).toBe(false);
    b.abort('b left');
    expect(sharedSignal?.aborted).toBe(true);
    await expect(first.result).rejects.toBe('a left');
    await expect(second.result).rejects.toBe('b left');
  });
});
