// The exchange refuses a signed request whose ACCESS-TIMESTAMP is more than 30 s away from its
// own clock (40008). Computers' clocks drift and jump, so the timestamp is taken from the
// exchange's clock as estimated from the answers: each answer's server time lies somewhere inside
// the round trip that fetched it, which bounds the offset to within half that round trip.

/** Reads the exchange's time in ms (GET /api/v2/public/time). */
export type ServerTimeReader = () => Promise<number>;

export interface ServerClockOptions {
  /** The computer's wall clock in ms; `Date.now` unless a test moves it. */
  readonly localNow?: () => number;
  /** How many consistent samples are kept to pick the tightest from. */
  readonly maxSamples?: number;
}

interface OffsetSample {
  /** Server time minus the local midpoint of the round trip. */
  readonly offsetMs: number;
  /** Half the round trip: the true offset lies within offsetMs ± this. */
  readonly uncertaintyMs: number;
  readonly observedAt: number;
}

export interface ClockState {
  /** Exchange time minus local time, or null before the first answer. */
  readonly offsetMs: number | null;
  /** Half the round trip of the sample the offset comes from. */
  readonly uncertaintyMs: number | null;
  /** Local time of the newest sample. */
  readonly lastSampleAt: number | null;
}

const DEFAULT_MAX_SAMPLES = 8;
/** Both clocks count whole milliseconds, so two honest samples may disagree by that much. */
const ROUNDING_SLACK_MS = 2;

export class ServerClock {
  readonly localNow: () => number;
  private readonly maxSamples: number;
  private samples: OffsetSample[] = [];
  private best: OffsetSample | null = null;
  private pendingSync: Promise<void> | null = null;

  constructor(options: ServerClockOptions = {}) {
    this.localNow = options.localNow ?? Date.now;
    this.maxSamples = options.maxSamples ?? DEFAULT_MAX_SAMPLES;
  }

  /** The exchange's time as best known: the value for ACCESS-TIMESTAMP. */
  now(): number {
    return Math.round(this.localNow() + (this.best?.offsetMs ?? 0));
  }

  get isSynced(): boolean {
    return this.best !== null;
  }

  state(): ClockState {
    return {
      offsetMs: this.best === null ? null : Math.round(this.best.offsetMs),
      uncertaintyMs: this.best === null ? null : this.best.uncertaintyMs,
      lastSampleAt: this.samples.at(-1)?.observedAt ?? null,
    };
  }

  /**
   * Learns from one answer: `serverTime` was read by the exchange after `sentAt` and before
   * `receivedAt` (both local times).
   */
  observe(serverTime: number, sentAt: number, receivedAt: number): void {
    const roundTrip = receivedAt - sentAt;
    if (!Number.isFinite(serverTime) || !Number.isFinite(roundTrip) || roundTrip < 0) return;
    const sample: OffsetSample = {
      offsetMs: serverTime - (sentAt + receivedAt) / 2,
      uncertaintyMs: roundTrip / 2,
      observedAt: receivedAt,
    };
    // A sample that cannot be true together with the new one means a clock jumped since.
    const consistent = this.samples.filter(
      (old) =>
        Math.abs(old.offsetMs - sample.offsetMs) <=
        old.uncertaintyMs + sample.uncertaintyMs + ROUNDING_SLACK_MS,
    );
    consistent.push(sample);
    this.samples = consistent.slice(-this.maxSamples);
    this.best = this.samples.reduce((tightest, candidate) =>
      candidate.uncertaintyMs < tightest.uncertaintyMs ? candidate : tightest,
    );
  }

  /** Forgets every sample: the next timestamp is local time until an answer arrives. */
  reset(): void {
    this.samples = [];
    this.best = null;
  }

  /**
   * Reads the exchange's time once and learns from it. Concurrent callers share one read.
   * A failed read leaves the clock as it was and rejects.
   */
  sync(readServerTime: ServerTimeReader): Promise<void> {
    if (this.pendingSync !== null) return this.pendingSync;
    const run = this.readOnce(readServerTime);
    this.pendingSync = run;
    const settle = () => {
      if (this.pendingSync === run) this.pendingSync = null;
    };
    run.then(settle, settle);
    return run;
  }

  private async readOnce(readServerTime: ServerTimeReader): Promise<void> {
    const sentAt = this.localNow();
    const serverTime = await readServerTime();
    this.observe(serverTime, sentAt, this.localNow());
  }
}
