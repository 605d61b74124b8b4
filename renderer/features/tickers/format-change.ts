// The exchange sends the 24h change as a ratio in text ("0.0123"); shown as a percentage, with
// decimal arithmetic so no float rounding creeps in.
import Big from 'big.js';

export function percentChange(ratio: string): string {
  let value: Big;
  try {
    value = new Big(ratio);
  } catch {
    return '—';
  }
  const percent = value.times(100).toFixed(2);
  return `${value.gt(0) ? '+' : ''}${percent}%`;
}

export function changeDirection(ratio: string): 'up' | 'down' | 'flat' {
  try {
    const value = new Big(ratio);
    return value.gt(0) ? 'up' : value.lt(0) ? 'down' : 'flat';
  } catch {
    return 'flat';
  }
}
