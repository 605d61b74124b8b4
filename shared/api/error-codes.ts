// Error codes of the spec and of exchange-facts.md, with the live exchange's message text.
// `{0}` is filled with the detail (a parameter name, a value).

export const SUCCESS_CODE = '00000';

export const ERROR_CODES = {
  accessKeyEmpty: { code: '40001', msg: 'ACCESS_KEY cannot be empty' },
  accessSignEmpty: { code: '40002', msg: 'ACCESS_SIGN cannot be empty' },
  accessPassphraseEmpty: { code: '40011', msg: 'ACCESS_PASSPHRASE cannot be empty' },
  invalidTimestamp: { code: '40005', msg: 'Invalid ACCESS_TIMESTAMP' },
  invalidAccessKey: { code: '40006', msg: 'Invalid ACCESS_KEY' },
  timestampExpired: { code: '40008', msg: 'Request timestamp expired' },
  signatureError: { code: '40009', msg: 'sign signature error' },
  passphraseIncorrect: { code: '40012', msg: 'apikey/password is incorrect' },
  permissionDenied: { code: '40014', msg: 'Incorrect permissions, need {0} permissions' },
  paramVerifyV2: { code: '40017', msg: 'Parameter verification failed {0}' },
  paramVerifyV3: { code: '400172', msg: 'Parameter verification failed {0}' },
  paramEmpty: { code: '40019', msg: 'Parameter {0} cannot be empty' },
  paramError: { code: '40020', msg: 'Parameter {0} error' },
  symbolNotExistV2: { code: '40034', msg: 'Parameter {0} does not exist' },
  symbolNotExistV3: { code: '25100', msg: 'Trading pair {0} does not exist' },
  scaleError: { code: '40808', msg: 'Parameter verification exception {0}' },
  priceTick: { code: '45115', msg: 'The price you enter should be a multiple of {0}' },
  minNotional: { code: '45110', msg: 'less than the minimum amount {0} USDT' },
  minSize: { code: '45111', msg: 'less than the minimum order quantity' },
  maxOpenSize: { code: '40762', msg: 'The order size is greater than the max open size' },
  insufficientMarginV3: { code: '25203', msg: 'Insufficient margin' },
  duplicateClientOidV2: { code: '40786', msg: 'Duplicate clientOid' },
  duplicateClientOidV3: { code: '25212', msg: 'Duplicate clientOid' },
  orderNotExistV2: { code: '40768', msg: 'Order does not exist' },
  orderNotExistV3: { code: '25204', msg: 'Order does not exist' },
  noPositionToClose: { code: '22002', msg: 'No position to close' },
  leverageRange: { code: '43050', msg: 'Leverage exceeds the effective range' },
  leverageMargin: { code: '40893', msg: 'Unable to update the leverage, not enough margin' },
  positionModeMismatch: { code: '40774', msg: 'order type for unilateral position must also be unilateral' },
  triggerWrongSide: { code: '40917', msg: 'stop price must be {0} mark price' },
  wrongEnvironment: { code: '40099', msg: 'exchange environment is incorrect' },
  requestTimedOut: { code: '40010', msg: 'Request timed out' },
  serviceError: { code: '40725', msg: 'service return an error' },
  unknownError: { code: '45001', msg: 'Unknown error' },
  tooManyRequests: { code: '429', msg: 'Too Many Requests' },
  notFound: { code: '40404', msg: 'Request URL NOT FOUND' },
  methodNotAllowed: { code: '40405', msg: 'Method {0} not allowed for {1}' },
  bodyTooLarge: { code: '40413', msg: 'Request body too large, limit {0} bytes' },
  malformedBody: { code: '40017', msg: 'Parameter verification failed: body is not valid JSON' },
  notBroker: { code: '40014', msg: 'Incorrect permissions, need ND broker permissions' },
  orderLimit: { code: '40762', msg: 'The order count has reached the limit of {0} open orders' },
  // Trading-pair states, as the live exchange answers them (ccxt's Bitget exception table, with
  // sampled live answers): not yet open, suspended (a contract in delivery), delivered and gone.
  symbolOpeningSoon: {
    code: '43115',
    msg: 'The current trading pair is opening soon, please refer to the official announcement for the opening time',
  },
  symbolMaintained: { code: '40308', msg: 'The contract is being temporarily maintained' },
  contractRemoved: { code: '40309', msg: 'The contract has been removed' },
  positionModeLocked: {
    code: '40920',
    msg: 'Position or order exists, the position mode cannot be switched',
  },
  marginModeLocked: {
    code: '45117',
    msg: 'Currently holding positions or orders, the margin mode cannot be adjusted',
  },
  leverageLocked: {
    code: '40730',
    msg: 'There is currently a commission or a planned commission, and the leverage cannot be adjusted',
  },
} as const;

export type ErrorName = keyof typeof ERROR_CODES;

/** Fills `{0}`, `{1}`… in a message template. */
export function formatMessage(template: string, ...args: ReadonlyArray<string | number>): string {
  return template.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const value = args[Number(index)];
    return value === undefined ? whole : String(value);
  });
}
