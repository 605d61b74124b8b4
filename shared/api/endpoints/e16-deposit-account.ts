import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { ciEnum, coinField } from '../primitives';
import { DEPOSIT_ACCOUNT_TYPES } from '../enums';

const request = z.object({
  coin: coinField,
  accountType: ciEnum(DEPOSIT_ACCOUNT_TYPES),
});

/** A plain string (live: "success"); there are no response fields. */
const response = z.string();

export const depositAccount = defineEndpoint({
  id: 'E16',
  name: 'Set up deposit account',
  method: 'POST',
  path: '/api/v3/account/deposit-account',
  version: 'v3',
  auth: 'signed',
  permission: 'uta_mgt_write',
  rateLimit: { perSecond: 1, keyedBy: 'uid' },
  request,
  response,
});

export type DepositAccountRequest = z.output<typeof request>;
