/** A server-sent event stream a test writes to: the Response the fake API answers GET /events/stream with. */
export function sseStream() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      closed = true;
    },
  });
  return {
    response: new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    /** Raw text, split anywhere (the parser must join chunks). */
    write(text: string) {
      if (!closed) controller.enqueue(encoder.encode(text));
    },
    /** One event as the desk frames it: its id and its envelope. */
    event(id: string, event: string, data: unknown = {}) {
      this.write(`id: ${id}\ndata: ${JSON.stringify({ id, event, createdAt: '2026-03-10T12:00:00.000Z', data })}\n\n`);
    },
    /** The desk ends the stream (it stops or restarts). */
    end() {
      if (!closed) controller.close();
      closed = true;
    },
  };
}

export type SseStream = ReturnType<typeof sseStream>;
