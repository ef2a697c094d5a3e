/** Reading Server-Sent Events in tests: a parser over a fetch body that yields each event as it arrives. */

export interface ReceivedEvent {
  id?: string;
  event?: string;
  data: string;
  /** performance.now() when the event was complete. */
  at: number;
}

/** Every event of an SSE body, in order, as it arrives; ends when the server ends the stream. */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<ReceivedEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event: ReceivedEvent = { data: '', at: performance.now() };
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith(':') || line === '') continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'data') data.push(value);
          else if (field === 'id') event.id = value;
          else if (field === 'event') event.event = value;
        }
        if (data.length === 0 && event.id === undefined && event.event === undefined) continue;
        event.data = data.join('\n');
        yield event;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
