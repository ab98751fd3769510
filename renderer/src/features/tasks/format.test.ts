import { describe, expect, it } from 'vitest';
import { parseTags, shareUrl, statusLabel, statusTone } from './format';

describe('tasks format', () => {
  it('parses a typed tag list', () => {
    expect(parseTags(' Launch, q3-plan  launch,, ')).toEqual(['launch', 'q3-plan']);
    expect(parseTags('')).toEqual([]);
  });
  it('labels statuses and urls', () => {
    expect(statusLabel('needs_input')).toBe('needs input');
    expect(statusTone('done')).toBe('success');
    expect(shareUrl('http://127.0.0.1:4000/', '/share/timeline/abc')).toBe('http://127.0.0.1:4000/share/timeline/abc');
  });
});
