import { describe, expect, it } from 'vitest';
import { readableMessage } from '../app';

describe('readableMessage', () => {
  it('lists the allowed values of an enum', () => {
    const raw = `Could not match the union against any of the items. Issues: [{"body.loopState":{"message":"should be one of the following; ['on']","value":"x"}},{"body.loopState":{"message":"should be one of the following; ['paused']","value":"x"}}]`;
    expect(readableMessage(raw)).toBe('must be one of: on, paused');
  });

  it('says the bound of a nullable number, and that null is allowed', () => {
    const raw = `Could not match the union against any of the items. Issues: [{"body.d":{"message":"min 7","value":6}},{"body.d":{"message":"should be one of the following; [null]","value":6}}]`;
    expect(readableMessage(raw)).toBe('must be at least 7 (or null)');
  });

  it('turns tsoa bounds into sentences and leaves other messages alone', () => {
    expect(readableMessage('max 1440')).toBe('must be at most 1440');
    expect(readableMessage('maxLength 80')).toBe('must be at most 80 characters');
    expect(readableMessage('invalid integer number')).toBe('must be an integer');
    expect(readableMessage('"x" is an excess property and therefore is not allowed')).toContain('excess');
  });
});
