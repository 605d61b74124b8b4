import { describe, expect, it } from 'vitest';
import { ServerClock } from './server-clock';

/** A local clock a test sets by hand. */
function manualClock(start: number) {
  const time = { now: start };
  return { time, clock: new ServerClock({ localNow: () => time.now }) };
}

describe('ServerClock', () => {
  it('uses local time until it has heard from the exchange', () => {
    const { clock } = manualClock(1_000_000);
    expect(clock.isSynced).toBe(false);
    expect(clock.now()).toBe(1_000_000);
    expect(clock.state()).toEqual({ offsetMs: null, uncertaintyMs: null, lastSampleAt: null });
  });

  it('puts the server time at the midpoint of the round trip', () => {
    const { time, clock } = manualClock(1_000_000);
    // Sent at 1,000,000, answered at 1,000,100 local; the exchange read 700,050 in between.
    clock.observe(700_050, 1_000_000, 1_000_100);
    expect(clock.state()).toEqual({ offsetMs: -300_000, uncertaintyMs: 50, lastSampleAt: 1_000_100 });
    time.now = 1_005_000;
    expect(clock.now()).toBe(705_000);
  });

  it('keeps the tightest of consistent samples', () => {
    const { clock } = manualClock(0);
    clock.observe(10_020, 0, 40); // offset 10,000 ± 20
    clock.observe(10_105, 100, 110); // offset 10,000 ± 5
    clock.observe(10_230, 200, 260); // offset 10,000 ± 30
    expect(clock.state()).toMatchObject({ offsetMs: 10_000, uncertaintyMs: 5 });
  });

  it('drops samples a newer one proves wrong: the local clock jumped', () => {
    const { clock } = manualClock(0);
    clock.observe(10_002, 0, 4); // offset 10,000 ± 2, very tight
    clock.observe(20_000 - 60_000, 19_900, 20_100); // offset -60,000 ± 100
    expect(clock.state()).toMatchObject({ offsetMs: -60_000, uncertaintyMs: 100 });
  });

  it('ignores a round trip that ends before it starts', () => {
    const { clock } = manualClock(0);
    clock.observe(5_000, 100, 50);
    expect(clock.isSynced).toBe(false);
  });

  it('forgets everything on reset', () => {
    const { clock } = manualClock(0);
    clock.observe(5_000, 0, 10);
    clock.reset();
    expect(clock.isSynced).toBe(false);
    expect(clock.now()).toBe(0);
  });

  it('syncs by timing one read of the server time, shared by concurrent callers', async () => {
    const { time, clock } = manualClock(50_000);
    let reads = 0;
    const read = async () => {
      reads += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      time.now += 20;
      return 80_010;
    };
    await Promise.all([clock.sync(read), clock.sync(read)]);
    expect(reads).toBe(1);
    expect(clock.state()).toMatchObject({ offsetMs: 30_000, uncertaintyMs: 10 });
  });

  it('leaves the clock as it was when the read fails, and can sync again', async () => {
    const { clock } = manualClock(0);
    await expect(clock.sync(() => Promise.reject(new Error('offline')))).rejects.toThrow('offline');
    expect(clock.isSynced).toBe(false);
    await clock.sync(() => Promise.resolve(1_000));
    expect(clock.state().offsetMs).toBe(1_000);
  });
});
