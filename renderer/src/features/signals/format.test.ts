import { describe, expect, it } from 'vitest';
import { linkHost, originLabel, priorityTone, publishedText, trimText } from './format';

describe('trimText', () => {
  it('leaves short text alone, folding whitespace', () => {
    expect(trimText('  a  short\n\ntext ', 20)).toEqual({ text: 'a short text', trimmed: false });
    expect(trimText('x'.repeat(20), 20)).toEqual({ text: 'x'.repeat(20), trimmed: false });
  });

  it('cuts at a word boundary and adds an ellipsis', () => {
    expect(trimText('The Widget 2 ships today and costs less.', 20)).toEqual({ text: 'The Widget 2 ships…', trimmed: true });
  });

  it('drops trailing punctuation before the ellipsis', () => {
    expect(trimText('Prices rise, sharply, in April', 13)).toEqual({ text: 'Prices rise…', trimmed: true });
  });

  it('cuts inside a very long word rather than losing most of the text', () => {
    const r = trimText(`ab ${'x'.repeat(50)}`, 20);
    expect(r.trimmed).toBe(true);
    expect(r.text).toBe(`ab ${'x'.repeat(17)}…`);
  });
});

describe('signal labels', () => {
  it('gives each priority a tone', () => {
    expect(priorityTone('urgent')).toBe('danger');
    expect(priorityTone('high')).toBe('warning');
    expect(priorityTone('normal')).toBe('neutral');
    expect(priorityTone('low')).toBe('neutral');
  });

  it('names where a signal came from', () => {
    expect(originLabel({ sourceId: 'src_1', sourceLabel: 'Acme blog', externalId: null })).toBe('Acme blog');
    expect(originLabel({ sourceId: 'src_1', sourceLabel: null, externalId: null })).toBe('Deleted source');
    expect(originLabel({ sourceId: null, sourceLabel: null, externalId: 'ext-1' })).toBe('Inbound webhook');
    expect(originLabel({ sourceId: null, sourceLabel: null, externalId: null })).toBe('Direct');
  });

  it('shortens a link to its host', () => {
    expect(linkHost('https://www.acme.example/news/1')).toBe('acme.example');
    expect(linkHost('http://127.0.0.1:8080/x')).toBe('127.0.0.1:8080');
    expect(linkHost('not a url')).toBe('not a url');
  });

  it("says a feed item's published day, with the year only when it is not this year's", () => {
    const now = new Date('2026-03-10T12:00:00.000Z');
    expect(publishedText('2026-03-03T12:00:00.000Z', now)).toBe('published 3 Mar');
    expect(publishedText('2025-12-24T12:00:00.000Z', now)).toBe('published 24 Dec 2025');
  });
});
