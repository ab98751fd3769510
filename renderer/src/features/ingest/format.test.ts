import { describe, expect, it } from 'vitest';
import { curlExample, maskToken } from './format';

describe('curlExample', () => {
  it('posts a JSON signal to the URL', () => {
    expect(curlExample('http://127.0.0.1:4477/api/webhooks/signals/abc')).toBe(
      `curl -X POST 'http://127.0.0.1:4477/api/webhooks/signals/abc' -H 'content-type: application/json' -d '{"title":"Hello","detail":"from a script"}'`,
    );
  });

  it('keeps a quote in the URL safe for the shell', () => {
    expect(curlExample("https://x.example/a'b")).toContain(`'https://x.example/a'\\''b'`);
  });
});

describe('maskToken', () => {
  it('hides the token but for its last 4 characters', () => {
    expect(maskToken('http://127.0.0.1:4477/api/webhooks/signals/abcdefghijklmnop1234')).toBe('http://127.0.0.1:4477/api/webhooks/signals/••••••••••••1234');
    expect(maskToken('http://h/signals/abcdef')).toBe('http://h/signals/••cdef');
  });

  it('leaves a URL without a token-like tail alone', () => {
    expect(maskToken('http://h/abc')).toBe('http://h/abc');
    expect(maskToken('nothing')).toBe('nothing');
  });
});
