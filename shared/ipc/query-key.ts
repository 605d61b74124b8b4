// A poll's query key: the endpoint and its parameters, written one canonical way so two windows
// asking for the same data share one upstream poll.
import { z } from 'zod';

export const queryParamsSchema = z.record(
  z.string().max(64),
  z.union([z.string().max(256), z.number(), z.boolean()]),
);

export const queryKeySchema = z.object({
  endpointId: z.string().regex(/^[EC]\d{1,2}$/, 'must be an endpoint id such as E11'),
  params: queryParamsSchema.default({}),
});

export type QueryKey = z.output<typeof queryKeySchema>;

/** `E11?productType=USDT-FUTURES&symbol=BTCUSDT`: parameters sorted, values as text. */
export function queryKeyText(key: QueryKey): string {
  const params = Object.keys(key.params)
    .sort()
    .map((name) => `${encodeURIComponent(name)}=${encodeURIComponent(String(key.params[name]))}`);
  return params.length === 0 ? key.endpointId : `${key.endpointId}?${params.join('&')}`;
}
