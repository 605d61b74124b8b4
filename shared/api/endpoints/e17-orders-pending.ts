import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import {
  ORDER_TYPES,
  PENDING_STATUSES,
  POS_MODES,
  SIDES,
  TIME_IN_FORCE,
  TRIGGER_TYPES,
  YES_NO,
} from '../enums';
import {
  ciEnum,
  idField,
  limitField,
  optionalField,
  productTypeField,
  symbolField,
  v2ClientOidField,
} from '../primitives';
import { pagedWindowFields, pagedWindowQuery } from './paged-window-query';
import { DAY_MS } from './parameter-rules';
import { enumOrEmpty, listOrEmpty, marginModeText } from './response-fields';

/** "3 months", as 90 days. */
export const ORDERS_PENDING_MAX_SPAN_MS = 90 * DAY_MS;

const request = pagedWindowQuery(
  {
    productType: productTypeField,
    /** Prevails over clientOid when both are given. */
    orderId: optionalField(idField),
    clientOid: optionalField(v2ClientOidField),
    symbol: optionalField(symbolField),
    /** Left out: orders with status `live` only. */
    status: optionalField(ciEnum(PENDING_STATUSES)),
    ...pagedWindowFields,
    limit: limitField(100, 100),
  },
  { maxSpanMs: ORDERS_PENDING_MAX_SPAN_MS, label: '3 months' },
);

export const pendingOrderSchema = z.object({
  symbol: z.string(),
  size: z.string(),
  orderId: z.string(),
  clientOid: z.string(),
  baseVolume: z.string(),
  fee: z.string(),
  price: z.string(),
  /** Empty while the status is live. */
  priceAvg: z.string(),
  status: z.enum(PENDING_STATUSES),
  side: z.enum(SIDES),
  force: enumOrEmpty(TIME_IN_FORCE),
  /** Empty while the status is live. */
  totalProfits: z.string(),
  posSide: z.enum(['long', 'short', 'net']),
  marginCoin: z.string(),
  quoteVolume: z.string(),
  leverage: z.string(),
  marginMode: marginModeText,
  reduceOnly: z.enum(YES_NO),
  /** WEB, API, SYS, ANDROID, IOS. */
  enterPointSource: z.string(),
  /** One of ReportedTradeSide (enums.ts); kept open so a new value does not break reading. */
  tradeSide: z.string(),
  posMode: z.enum(POS_MODES),
  orderType: z.enum(ORDER_TYPES),
  /** One of OrderSource (enums.ts); kept open for the same reason. */
  orderSource: z.string(),
  cTime: z.string(),
  uTime: z.string(),
  presetStopSurplusPrice: z.string(),
  presetStopSurplusType: enumOrEmpty(TRIGGER_TYPES),
  /** 0 or empty: market execution; above 0: limit execution. */
  presetStopSurplusExecutePrice: z.string(),
  presetStopLossPrice: z.string(),
  presetStopLossType: enumOrEmpty(TRIGGER_TYPES),
  presetStopLossExecutePrice: z.string(),
});

const response = z.object({
  // Live sends null for an empty page.
  entrustedList: listOrEmpty(pendingOrderSchema),
  endId: z.string().nullish(),
});

export const ordersPending = defineEndpoint({
  id: 'E17',
  name: 'Get pending orders',
  method: 'GET',
  path: '/api/v2/mix/order/orders-pending',
  version: 'v2',
  auth: 'signed',
  permission: 'read',
  rateLimit: { perSecond: 10, keyedBy: 'uid' },
  request,
  response,
});

export type OrdersPendingRequest = z.output<typeof request>;
export type PendingOrder = z.output<typeof pendingOrderSchema>;
export type OrdersPendingPage = z.output<typeof response>;
