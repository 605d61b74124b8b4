import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { RECORD_CATEGORIES } from '../enums';
import { ciEnum, coinField, limitField, optionalField, textField, timestampField } from '../primitives';
import { checkTimeWindow, DAY_MS } from './parameter-rules';
import { listOrEmpty } from './response-fields';

export const FINANCIAL_RECORDS_MAX_SPAN_MS = 30 * DAY_MS;

// Record types are upper-case names (TRANSFER_IN, ORDER_DEALT_IN); the full list is not published.
const recordTypeField = textField(64).pipe(
  z
    .string()
    .transform((raw) => raw.toUpperCase())
    .pipe(z.string().regex(/^[A-Z0-9_]{1,64}$/, 'must be a record type such as TRANSFER_IN')),
);

const request = z
  .object({
    category: ciEnum(RECORD_CATEGORIES),
    coin: optionalField(coinField),
    type: optionalField(recordTypeField),
    startTime: optionalField(timestampField),
    endTime: optionalField(timestampField),
    limit: limitField(100, 100),
    cursor: optionalField(textField(64)),
  })
  .superRefine((query, ctx) =>
    checkTimeWindow(ctx, 'v3', query, { maxSpanMs: FINANCIAL_RECORDS_MAX_SPAN_MS, label: '30 days' }),
  );

export const financialRecordSchema = z.object({
  category: z.enum(RECORD_CATEGORIES),
  id: z.string(),
  symbol: z.string(),
  coin: z.string(),
  type: z.string(),
  amount: z.string(),
  fee: z.string(),
  balance: z.string(),
  ts: z.string(),
});

const response = z.object({
  list: listOrEmpty(financialRecordSchema),
  cursor: z.string().nullish(),
});

export const financialRecords = defineEndpoint({
  id: 'E5',
  name: 'Get financial records',
  method: 'GET',
  path: '/api/v3/account/financial-records',
  version: 'v3',
  auth: 'signed',
  permission: 'uta_mgt_read',
  rateLimit: { perSecond: 20, keyedBy: 'uid' },
  request,
  response,
});

export type FinancialRecordsRequest = z.output<typeof request>;
export type FinancialRecord = z.output<typeof financialRecordSchema>;
export type FinancialRecordsPage = z.output<typeof response>;
