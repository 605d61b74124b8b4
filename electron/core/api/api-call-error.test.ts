import { describe, expect, it } from 'vitest';
import { ApiCallError } from './api-call-error';

const placeOrder = { endpointId: 'E1', endpointName: 'Place batch of futures orders' };

describe('ApiCallError messages', () => {
  it('explains an expired timestamp as a clock problem and says how to fix it', () => {
    const error = new ApiCallError({
      ...placeOrder,
      kind: 'exchange',
      httpStatus: 400,
      code: '40008',
      msg: 'Request timestamp expired',
      outcomeUnknown: false,
    });
    expect(error.message).toBe(
      'Place batch of futures orders (E1): the exchange refused it with code 40008 "Request timestamp expired"; ' +
        "the clock differs from the exchange's by more than 30 s; turn on automatic time sync in the system settings and try again.",
    );
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ApiCallError');
  });

  it('tells the user to look an order up before resending when the outcome is unknown', () => {
    const error = new ApiCallError({
      ...placeOrder,
      kind: 'timeout',
      httpStatus: null,
      code: 'TIMEOUT',
      msg: 'no answer within 10000 ms',
      outcomeUnknown: true,
    });
    expect(error.message).toContain('look the order up by its clientOid before sending it again');
  });

  it("quotes the exchange's own text for codes without advice", () => {
    const error = new ApiCallError({
      ...placeOrder,
      kind: 'exchange',
      httpStatus: 400,
      code: '45110',
      msg: 'less than the minimum amount 5 USDT',
      outcomeUnknown: false,
    });
    expect(error.message).toBe(
      'Place batch of futures orders (E1): the exchange refused it with code 45110 "less than the minimum amount 5 USDT".',
    );
  });

  it('says whether a network failure sent anything', () => {
    const base = {
      ...placeOrder,
      kind: 'network' as const,
      httpStatus: null,
      code: 'NETWORK',
      msg: 'ECONNREFUSED',
    };
    expect(new ApiCallError({ ...base, outcomeUnknown: false }).message).toContain('Nothing was sent');
    expect(new ApiCallError({ ...base, outcomeUnknown: true }).message).toContain('look the order up');
  });
});
