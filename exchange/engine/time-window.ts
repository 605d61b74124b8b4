// The spec's time windows (E4, E5, E13, E17): a missing end is start + span, a missing start end - span.
/** The window of a query, both ends in ms; without either end, the span up to now. */
export function timeWindow(
  startTime: number | undefined,
  endTime: number | undefined,
  span: number,
  now: number,
): { start: number; end: number } {
  if (startTime !== undefined && endTime !== undefined) return { start: startTime, end: endTime };
  if (startTime !== undefined) return { start: startTime, end: startTime + span };
  const end = endTime ?? now;
  return { start: end - span, end };
}
