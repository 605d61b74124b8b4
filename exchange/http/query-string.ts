/**
 * Query parameters of a request, all values strings; a repeated name keeps its last value.
 * The object has no prototype, so a parameter named `__proto__` stays an ordinary key.
 */
export function parseQueryString(query: string): Record<string, string> {
  const params = Object.create(null) as Record<string, string>;
  if (query.length === 0) return params;
  for (const [name, value] of new URLSearchParams(query)) params[name] = value;
  return params;
}
