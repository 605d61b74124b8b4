// Seeded randomness for the simulated market. The engine stores the generator's state in its own
// state and journal, so a replay after a restart draws the very same numbers: the state is four
// plain uint32 words, and every operation is integer arithmetic or IEEE-exact float math.

/** xoshiro128** state: four uint32 words, not all zero. */
export type RngState = [number, number, number, number];

const TWO_POW_32 = 4_294_967_296;

function rotateLeft(value: number, bits: number): number {
  return (value << bits) | (value >>> (32 - bits));
}

/** cyrb128: spreads a text over 128 bits, so nearby seeds and symbols give unrelated streams. */
function hash128(text: string): RngState {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = h2 ^ Math.imul(h1 ^ code, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ code, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ code, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ code, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

function isUint32(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < TWO_POW_32;
}

/** xoshiro128** (Blackman and Vigna): small, fast, and good enough for a simulated market. */
export class Rng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  private constructor(state: RngState) {
    [this.s0, this.s1, this.s2, this.s3] = state;
  }

  /** A generator continuing exactly where the one that produced `state` stood. */
  static fromState(state: readonly unknown[]): Rng {
    const [w0, w1, w2, w3] = state;
    if (state.length !== 4 || !isUint32(w0) || !isUint32(w1) || !isUint32(w2) || !isUint32(w3)) {
      throw new RangeError('generator state must be four uint32 words');
    }
    const words: RngState = [w0, w1, w2, w3];
    if (words.every((word) => word === 0)) throw new RangeError('generator state must not be all zero');
    return new Rng(words);
  }

  /** The stream of one symbol under one exchange seed; each symbol gets its own stream. */
  static forSymbol(seed: number, symbol: string): Rng {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
    const words = hash128(`${seed}\u0000${symbol}`);
    if (words.every((word) => word === 0)) words[0] = 1;
    return new Rng(words);
  }

  /** A copy of the state, safe to store as JSON. */
  get state(): RngState {
    return [this.s0, this.s1, this.s2, this.s3];
  }

  nextUint32(): number {
    const result = Math.imul(rotateLeft(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const shifted = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= shifted;
    this.s3 = rotateLeft(this.s3, 11);
    this.s0 >>>= 0;
    this.s1 >>>= 0;
    this.s2 >>>= 0;
    this.s3 >>>= 0;
    return result;
  }

  /** Uniform in [0, 1), in steps of 2^-32. */
  nextFloat(): number {
    return this.nextUint32() / TWO_POW_32;
  }

  /** Uniform integer in [0, maxExclusive), without modulo bias. */
  nextInt(maxExclusive: number): number {
    if (!Number.isInteger(maxExclusive) || maxExclusive < 1 || maxExclusive > TWO_POW_32) {
      throw new RangeError(`maxExclusive must be an integer in [1, 2^32], got ${maxExclusive}`);
    }
    const acceptBelow = TWO_POW_32 - (TWO_POW_32 % maxExclusive);
    for (;;) {
      const draw = this.nextUint32();
      if (draw < acceptBelow) return draw % maxExclusive;
    }
  }

  /**
   * Standard normal (mean 0, deviation 1), by Marsaglia's polar method: it needs only log and
   * sqrt, which give the same bits on every machine, unlike sin and cos in Box-Muller.
   */
  nextNormal(): number {
    for (;;) {
      const u = 2 * this.nextFloat() - 1;
      const v = 2 * this.nextFloat() - 1;
      const radiusSquared = u * u + v * v;
      if (radiusSquared > 0 && radiusSquared < 1) {
        return u * Math.sqrt((-2 * Math.log(radiusSquared)) / radiusSquared);
      }
    }
  }
}

export function forSymbol(seed: number, symbol: string): Rng {
  return Rng.forSymbol(seed, symbol);
}

export function fromState(state: readonly unknown[]): Rng {
  return Rng.fromState(state);
}
