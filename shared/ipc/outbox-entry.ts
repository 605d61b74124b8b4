// One order or TP/SL request as the order outbox records it, shown to the renderer as is.
import type { ProductType } from '../api/enums';

/**
 * pending: written to disk, not yet handed to the network. sent: handed to the network.
 * accepted / rejected: settled by the exchange's answer or by a lookup. unknown: no definite
 * answer yet; resolved by looking the order up by clientOid, never by sending it again.
 */
export const OUTBOX_STATES = ['pending', 'sent', 'accepted', 'rejected', 'unknown'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

export const SETTLED_OUTBOX_STATES: ReadonlySet<OutboxState> = new Set(['accepted', 'rejected']);

export type OutboxEndpointId = 'E1' | 'E2' | 'E8' | 'E9';

/** What the outbox needs to find the request again on the exchange. */
export type OutboxTarget =
  | {
      readonly kind: 'order';
      readonly symbol: string;
      readonly productType: ProductType;
      readonly side: 'buy' | 'sell';
      readonly orderType: 'limit' | 'market';
      readonly size: string;
      readonly price: string | null;
    }
  | {
      readonly kind: 'tpsl';
      readonly symbol: string;
      readonly productType: ProductType;
      /** long/short, or buy/sell for a one-way position (E8). */
      readonly holdSide: 'long' | 'short' | 'buy' | 'sell';
      readonly leg: 'takeProfit' | 'stopLoss' | 'both';
      readonly takeProfit: string | null;
      readonly stopLoss: string | null;
      /** Null: the whole position. */
      readonly size: string | null;
    };

export interface OutboxEntry {
  readonly clientOid: string;
  readonly endpointId: OutboxEndpointId;
  readonly version: 'v2' | 'v3';
  /** Entries sent in one request share it. */
  readonly batchId: string;
  readonly target: OutboxTarget;
  /** The item exactly as sent, for the record. */
  readonly request: unknown;
  readonly state: OutboxState;
  readonly orderId: string | null;
  /** Why it was refused, or why its outcome is not known yet. */
  readonly error: { readonly code: string; readonly message: string } | null;
  /** Lookups made to resolve an unknown outcome. */
  readonly lookups: number;
  /** Set when the outbox stopped looking and a person has to check the exchange. */
  readonly needsReview: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly sentAt: number | null;
}

/** Code of an entry refused because lookups show the exchange never received it. */
export const NOT_RECEIVED_CODE = 'not_received';
