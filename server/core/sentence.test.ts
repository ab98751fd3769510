import { describe, expect, it } from 'vitest';
import { sentence } from './sentence';

describe('sentence', () => {
  it('capitalises a fragment and closes it with a period', () => {
    expect(sentence('must be at most 80 characters')).toBe('Must be at most 80 characters.');
    expect(sentence('model is required for the openai engine (e.g. gpt-4o-mini)')).toBe('Model is required for the openai engine (e.g. gpt-4o-mini).');
  });

  it('leaves a finished sentence, and text that cannot be capitalised, as it is', () => {
    expect(sentence('Desk is not reachable. Is it still running?')).toBe('Desk is not reachable. Is it still running?');
    expect(sentence('Loading…')).toBe('Loading…');
    expect(sentence('  élan vital ')).toBe('Élan vital.');
    expect(sentence('127.0.0.1 refused')).toBe('127.0.0.1 refused.');
    expect(sentence('')).toBe('');
  });
});
