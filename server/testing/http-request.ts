import http from 'node:http';

/** What a test reads of an answer: the status, the body as text, the headers as fetch gives them. */
export interface TextAnswer {
  status: number;
  text: string;
  headers: Headers;
}

// One keep-alive pool for every test desk of the process, as fetch keeps one (each desk has its own port).
const agent = new http.Agent({ keepAlive: true });
const utf8 = new TextDecoder();

/**
 * A request to a desk on 127.0.0.1 through node:http, for the test clients that call the API by the
 * thousand (desk.api, the fuzz; ~22,000 requests in a run of the server tests): a request through
 * fetch (undici) cost about three times the CPU of one through node:http, the desk's own work included.
 * No redirect is followed: a test sees the answer the desk gave.
 */
export function httpRequest(url: string, init: { method: string; headers?: Record<string, string>; body?: string }): Promise<TextAnswer> {
  return new Promise((resolve, reject) => {
    // The length always (fetch sends it too): node:http sends a DELETE's body with neither length nor chunks.
    const body = init.body === undefined ? undefined : Buffer.from(init.body, 'utf8');
    const headers = body === undefined ? init.headers : { ...init.headers, 'content-length': String(body.length) };
    const req = http.request(url, { method: init.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const answered = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) answered.append(name, v);
        }
        // TextDecoder drops a leading byte-order mark, as fetch's text() does (the CSV exports begin with one).
        resolve({ status: res.statusCode ?? 0, text: utf8.decode(Buffer.concat(chunks)), headers: answered });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
