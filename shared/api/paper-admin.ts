// The paper exchange's admin interface: accounts, keys, prices and injected faults. JSON in
// and out, in the same envelope as the API, allowed only with the admin header.
import { z } from 'zod';
import { ERROR_CODES, formatMessage } from './error-codes';
import { DEPOSIT_ACCOUNT_TYPES, PERMISSIONS, POS_MODES } from './enums';
import {
  coinField,
  decimalField,
  idField,
  nonNegativeDecimalField,
  optionalField,
  productTypeField,
  symbolField,
} from './primitives';

export const PAPER_ADMIN_HEADER = 'X-Paper-Admin';

export type PaperAdminMethod = 'GET' | 'POST' | 'DELETE';

export const ACCOUNT_KINDS = ['standard', 'broker', 'sub'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

export const FAULT_KINDS = ['drop', '40010', '40725', '45001', 'delay'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const DEFAULT_BALANCES: Readonly<Record<string, string>> = {
  USDT: '100000',
  USDC: '100000',
  BTC: '2',
};

function missing(ctx: z.RefinementCtx, name: string): void {
  ctx.addIssue({
    code: 'custom',
    message: `${name} cannot be empty`,
    path: [name],
    params: {
      errorCode: ERROR_CODES.paramEmpty.code,
      errorMsg: formatMessage(ERROR_CODES.paramEmpty.msg, name),
    },
  });
}

// A key's permissions, each named once, in the order of PERMISSIONS.
const permissionList = z
  .array(z.enum(PERMISSIONS))
  .transform((list) => PERMISSIONS.filter((permission) => list.includes(permission)));

const createAccountRequest = z
  .object({
    kind: z.enum(ACCOUNT_KINDS).default('standard'),
    /** The broker main account a sub-account belongs to. */
    brokerUid: optionalField(idField),
    balances: z.record(coinField, nonNegativeDecimalField).default({ ...DEFAULT_BALANCES }),
    posMode: z.enum(POS_MODES).default('one_way_mode'),
    permissions: permissionList.default([...PERMISSIONS]),
    label: z.string().max(64).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.kind === 'sub' && body.brokerUid === undefined) missing(ctx, 'brokerUid');
  });

const newKey = z.object({
  apiKey: z.string(),
  secretKey: z.string(),
  passphrase: z.string(),
  permissions: z.array(z.enum(PERMISSIONS)),
});

const createAccountResponse = newKey.extend({ uid: z.string(), kind: z.enum(ACCOUNT_KINDS) });

const coinMovement = z.object({ uid: idField, coin: coinField, amount: decimalField });

export const paperAccountSchema = z.object({
  uid: z.string(),
  kind: z.enum(ACCOUNT_KINDS),
  brokerUid: z.string().nullable(),
  label: z.string().nullable(),
  apiKeys: z.array(z.object({ apiKey: z.string(), permissions: z.array(z.enum(PERMISSIONS)) })),
  balances: z.record(z.string(), z.string()),
  /** Balances of the funding and OTC accounts, outside the unified account. */
  fundingBalances: z.record(z.string(), z.string()),
  otcBalances: z.record(z.string(), z.string()),
  posMode: z.enum(POS_MODES),
});

const faultRequest = z
  .object({
    /** The API path the fault applies to, such as /api/v2/mix/order/batch-place-order. */
    path: z.string().regex(/^\/api\/[A-Za-z0-9/_-]+$/, 'must be an /api/... path'),
    /** How many matching requests it hits before it is used up. */
    count: z.number().int().min(1).max(1000).default(1),
    kind: z.enum(FAULT_KINDS),
    delayMs: z.number().int().min(1).max(60_000).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.kind === 'delay' && body.delayMs === undefined) missing(ctx, 'delayMs');
  });

export const faultSchema = z.object({
  id: z.string(),
  path: z.string(),
  remaining: z.number(),
  kind: z.enum(FAULT_KINDS),
  delayMs: z.number().nullable(),
});

const noBody = z.object({});

/** A time in ms since the epoch, as a JSON number or a string of digits. */
const msTime = z.union([
  z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  z
    .string()
    .regex(/^\d{1,16}$/)
    .transform(Number),
]);

// A dated contract on a perpetual; left-out times take their defaults: listTime now,
// deliveryStartTime = deliveryTime, limitOpenTime 10 minutes before deliveryStartTime.
const listContractRequest = z.object({
  /** The perpetual it is listed on (BTCUSDT, BTCPERP, BTCUSD ...). */
  baseSymbol: symbolField,
  /** Defaults to the perpetual's product type. */
  productType: optionalField(productTypeField),
  listTime: msTime.optional(),
  limitOpenTime: msTime.optional(),
  deliveryStartTime: msTime.optional(),
  deliveryTime: msTime,
});

const listedContract = z.object({
  symbol: z.string(),
  productType: z.string(),
  baseSymbol: z.string(),
  launchTime: z.string(),
  limitOpenTime: z.string(),
  deliveryStartTime: z.string(),
  deliveryTime: z.string(),
});

/** Routes of the admin interface; `params` names the path's `:placeholders`. */
export const paperAdmin = {
  createAccount: {
    method: 'POST',
    path: '/paper/v1/accounts',
    request: createAccountRequest,
    response: createAccountResponse,
  },
  listAccounts: {
    method: 'GET',
    path: '/paper/v1/accounts',
    request: noBody,
    response: z.object({ accounts: z.array(paperAccountSchema) }),
  },
  createKey: {
    method: 'POST',
    path: '/paper/v1/accounts/:uid/keys',
    params: z.object({ uid: idField }),
    request: z.object({ permissions: permissionList }),
    response: newKey,
  },
  setPrice: {
    method: 'POST',
    path: '/paper/v1/price',
    request: z.object({ productType: productTypeField, symbol: symbolField, price: decimalField }),
    response: z.object({ symbol: z.string(), price: z.string() }),
  },
  setMarket: {
    method: 'POST',
    path: '/paper/v1/market',
    request: z.object({ paused: z.boolean() }),
    response: z.object({ paused: z.boolean() }),
  },
  deposit: {
    method: 'POST',
    path: '/paper/v1/deposits',
    request: coinMovement,
    response: z.object({
      uid: z.string(),
      coin: z.string(),
      amount: z.string(),
      accountType: z.enum(DEPOSIT_ACCOUNT_TYPES),
      balance: z.string(),
    }),
  },
  attachLoan: {
    method: 'POST',
    path: '/paper/v1/loans',
    request: coinMovement,
    response: z.object({ uid: z.string(), coin: z.string(), amount: z.string(), transfered: z.string() }),
  },
  settleFunding: {
    method: 'POST',
    path: '/paper/v1/funding/settle',
    /** Without a symbol, every perpetual symbol settles. */
    request: z.object({ symbol: optionalField(symbolField) }),
    response: z.object({
      settled: z.array(z.object({ symbol: z.string(), fundingRate: z.string(), positions: z.number() })),
    }),
  },
  listContract: {
    method: 'POST',
    path: '/paper/v1/contracts',
    request: listContractRequest,
    response: listedContract,
  },
  addFault: {
    method: 'POST',
    path: '/paper/v1/faults',
    request: faultRequest,
    response: faultSchema,
  },
  listFaults: {
    method: 'GET',
    path: '/paper/v1/faults',
    request: noBody,
    response: z.object({ faults: z.array(faultSchema) }),
  },
  clearFaults: {
    method: 'DELETE',
    path: '/paper/v1/faults',
    request: noBody,
    response: z.object({ cleared: z.number() }),
  },
} as const satisfies Record<
  string,
  { method: PaperAdminMethod; path: string; params?: z.ZodType; request: z.ZodType; response: z.ZodType }
>;

export type CreateAccountRequest = z.output<typeof createAccountRequest>;
export type CreateAccountResult = z.output<typeof createAccountResponse>;
export type NewApiKey = z.output<typeof newKey>;
export type PaperAccount = z.output<typeof paperAccountSchema>;
export type FaultRequest = z.output<typeof faultRequest>;
export type Fault = z.output<typeof faultSchema>;
export type ListContractRequest = z.input<typeof listContractRequest>;
export type ListedContract = z.output<typeof listedContract>;
