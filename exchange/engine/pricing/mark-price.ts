// The mark price of a perpetual contract, as the live exchange publishes it
// (https://www.bitget.com/support/articles/12560603824106 "Mark price calculation"):
//   mark = median(price 1, price 2, price 3)
//   price 1 = last price
//   price 2 = index x (1 + latest funding rate x minutes to the next settlement / interval minutes)
//   price 3 = index + 5-minute moving average of the order book basis, (bid1 + ask1) / 2 - index,
//             sampled every 5 seconds
import { RATE_SCALE } from './funding-rate';

export const BASIS_SAMPLE_MS = 5_000;
/** Five minutes of samples. */
export const BASIS_SAMPLES = 60;
const MINUTE_MS = 60_000;

export interface MarkPriceInputs {
  readonly lastTicks: number;
  readonly indexTicks: number;
  /** Latest funding rate, rate units (1e-8). */
  readonly fundingRate: number;
  readonly msToNextFunding: number;
  readonly intervalHours: number;
  /** Moving average of the basis in ticks. */
  readonly averageBasis: number;
}

/** The median of the three prices, rounded to a tick. */
export function markPriceOf(inputs: MarkPriceInputs): number {
  const intervalMinutes = inputs.intervalHours * 60;
  const minutesToNext = Math.ceil(inputs.msToNextFunding / MINUTE_MS);
  // A contract without funding (a dated one) has no funding term: price 2 is the index.
  const price2 =
    intervalMinutes > 0
      ? inputs.indexTicks +
        (inputs.indexTicks * inputs.fundingRate * minutesToNext) / (RATE_SCALE * intervalMinutes)
      : inputs.indexTicks;
  const price3 = inputs.indexTicks + inputs.averageBasis;
  const [, median] = [inputs.lastTicks, price2, price3].sort((a, b) => a - b);
  return Math.max(1, Math.round(median as number));
}

/** The next funding time after `ts`: UTC multiples of the interval (00:00, 08:00, 16:00 for 8 h). */
export function nextFundingTime(ts: number, intervalHours: number): number {
  if (intervalHours <= 0) return ts;
  const interval = intervalHours * 3_600_000;
  return (Math.floor(ts / interval) + 1) * interval;
}

export interface BasisAverageSnapshot {
  /** Twice the basis (bid1 + ask1 - 2 x index), so samples stay integers. */
  samples: number[];
  lastSlot: number;
}

/** The order book basis of the last five minutes. */
export class BasisAverage {
  private constructor(
    private samples: number[],
    private lastSlot: number,
  ) {}

  static empty(): BasisAverage {
    return new BasisAverage([], -1);
  }

  static fromSnapshot(snapshot: BasisAverageSnapshot | undefined): BasisAverage {
    return snapshot === undefined
      ? BasisAverage.empty()
      : new BasisAverage([...snapshot.samples], snapshot.lastSlot);
  }

  toSnapshot(): BasisAverageSnapshot {
    return { samples: [...this.samples], lastSlot: this.lastSlot };
  }

  /** Takes a sample at the first tick of each 5-second slot, when both sides of the book quote. */
  sample(ts: number, bestBid: number | undefined, bestAsk: number | undefined, indexTicks: number): void {
    const slot = Math.floor(ts / BASIS_SAMPLE_MS);
    if (slot <= this.lastSlot || bestBid === undefined || bestAsk === undefined) return;
    this.lastSlot = slot;
    this.samples.push(bestBid + bestAsk - 2 * indexTicks);
    if (this.samples.length > BASIS_SAMPLES) this.samples.shift();
  }

  /** Average basis in ticks; 0 before any sample. */
  get average(): number {
    if (this.samples.length === 0) return 0;
    let sum = 0;
    for (const sample of this.samples) sum += sample;
    return sum / (2 * this.samples.length);
  }

  /** An administrator's price move starts the average afresh at the new price. */
  clear(): void {
    this.samples = [];
  }
}
