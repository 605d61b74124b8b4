import type { ProductType } from '../../shared/api/enums';

/** The futures account a deposited coin lands in. */
export function categoryOfCoin(coin: string): ProductType {
  if (coin === 'USDT') return 'USDT-FUTURES';
  if (coin === 'USDC') return 'USDC-FUTURES';
  return 'COIN-FUTURES';
}
