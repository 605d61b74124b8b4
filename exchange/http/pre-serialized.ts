// A hot read-only answer (public tickers) can carry its own JSON text, made once while the data
// is unchanged, so the server does not serialise the same document for every request.

const JSON_TEXT = Symbol('jsonText');

type WithJsonText = { [JSON_TEXT]?: string };

/** Attaches the JSON text of `value` to it (once) and returns it. */
export function withJsonText<T extends object>(value: T): T {
  const tagged = value as T & WithJsonText;
  if (tagged[JSON_TEXT] === undefined) {
    Object.defineProperty(tagged, JSON_TEXT, { value: JSON.stringify(value), enumerable: false });
  }
  return value;
}

export function jsonTextOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? (value as WithJsonText)[JSON_TEXT] : undefined;
}
