import { describe, expect, it } from 'vitest';
import { changeDirection, percentChange } from './format-change';

describe('24h change', () => {
  it('shows the ratio as a signed percentage without float noise', () => {
    expect(percentChange('0.0123')).toBe('+1.23%');
    expect(percentChange('-0.00505')).toBe('-0.51%');
    expect(percentChange('0.1')).toBe('+10.00%');
    expect(percentChange('0')).toBe('0.00%');
  });

  it('shows a dash for text that is not a number, and calls it flat', () => {
    expect(percentChange('')).toBe('—');
    expect(changeDirection('abc')).toBe('flat');
    expect(changeDirection('-0.2')).toBe('down');
    expect(changeDirection('0.2')).toBe('up');
  });
});
