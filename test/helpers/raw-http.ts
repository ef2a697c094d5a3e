/** Raw HTTP exchanges for requests no client library sends (CONNECT, empty headers, odd Expect values). */
import assert from 'node:assert/strict';
import net from 'node:net';

/** Sends raw bytes and collects the answer until the server closes, or until the first full answer. */
export function rawExchange(port: number, payload: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(payload));
    const chunks: Buffer[] = [];
    const text = () => Buffer.concat(chunks).toString('utf8');
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer from the server; got ${JSON.stringify(text())}`));
    }, 10_000);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(text());
    };
    socket.on('data', (c) => {
      chunks.push(c);
      const [head, body] = text().split('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(head)?.[1];
      if (body !== undefined && length !== undefined && Buffer.byteLength(body) >= Number(length)) finish();
    });
    socket.on('close', finish);
    socket.on('error', reject);
  });
}

/** The JSON body of a raw answer that declares its length (never chunked). */
export function rawJson(answer: string): any {
  const [head, body] = answer.split('\r\n\r\n');
  assert.match(head, /\r\ncontent-type: application\/json/i, head);
  assert.match(head, /\r\ncontent-length: \d+/i, head);
  assert.doesNotMatch(head, /transfer-encoding/i, head);
  return JSON.parse(body);
}
