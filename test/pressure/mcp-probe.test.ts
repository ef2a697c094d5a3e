/**
 * Outside probe of MCP over Streamable HTTP and over stdio, with the MCP SDK's client: unknown tools,
 * arguments of the wrong shape, paths that leave the declared folder through links, dots, devices and
 * FIFOs, and (over HTTP) raw JSON-RPC the SDK would never send. Every call answers — a tool error or a
 * JSON-RPC error, never a 5xx or silence — and nothing outside the work folder and data directory changes.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { declareRoots, installWhisper } from '../helpers/mcp-client';
import { CLI, request } from '../helpers/server';
import { baitPaths, probeEnds, ProbeTally, useProbeServer, type Sandbox } from './probe-kit';

type Outcome = 'tool-error' | 'protocol-error' | 'ok';

/** Calls a tool under the deadline; a tool error and a JSON-RPC error both count as answers. */
async function callOutcome(
  tally: ProbeTally,
  client: Client,
  what: string,
  name: string,
  args: unknown,
): Promise<{ outcome: Outcome; text: string }> {
  return tally.probe(
    what,
    async () => {
      try {
        const result = (await client.callTool({ name, arguments: args as Record<string, unknown> })) as {
          isError?: boolean;
          content: Array<{ text?: string }>;
        };
        return {
          outcome: result.isError ? ('tool-error' as const) : ('ok' as const),
          text: result.content[0]?.text ?? '',
        };
      } catch (error) {
        return { outcome: 'protocol-error' as const, text: (error as Error).message };
      }
      // A tool error that is neither a registry code nor a schema refusal is an unexplained internal failure.
    },
    (r) =>
      r.outcome === 'tool-error' && !/^([A-Z_]+: |MCP error -32602)/.test(r.text)
        ? 500
        : /INTERNAL_ERROR/.test(r.text)
          ? 500
          : 200,
  );
}

/** The hostile calls both transports get; none may succeed, none may write outside `work`. */
async function hostileCalls(tally: ProbeTally, client: Client, box: Sandbox, transport: string): Promise<void> {
  const bait = baitPaths(box);
  const fifo = path.join(box.work, `${transport}.fifo`);
  execFileSync('mkfifo', [fifo]);
  const cases: Array<[string, string, unknown]> = [
    ['unknown tool', 'delete_everything', {}],
    ['tool name with a path', '../narrate', { text: 'x' }],
    ['narrate without text', 'narrate', {}],
    ['narrate text a number', 'narrate', { text: 42 }],
    ['narrate text an object', 'narrate', { text: { toString: 'x' } }],
    ['narrate text empty', 'narrate', { text: '' }],
    ['narrate text only NULs', 'narrate', { text: '\u0000\u0000' }],
    ['narrate voice an array', 'narrate', { text: 'Hi.', voice: ['alloy'] }],
    ['narrate unknown voice', 'narrate', { text: 'Hi.', voice: '../../etc/passwd' }],
    ['narrate format exe', 'narrate', { text: 'Hi.', format: 'exe' }],
    ['narrate speed a word', 'narrate', { text: 'Hi.', speed: 'fast' }],
    [
      'narrate overwrite a string',
      'narrate',
      { text: 'Hi.', outputPath: path.join(box.work, 'x.mp3'), overwrite: 'yes' },
    ],
    ['narrate outputPath relative', 'narrate', { text: 'Hi.', outputPath: 'relative.mp3' }],
    ['narrate outputPath outside', 'narrate', { text: 'Hi.', outputPath: path.join(box.outside, 'new.mp3') }],
    [
      'narrate outputPath a link to the secret',
      'narrate',
      { text: 'Hi.', outputPath: bait.workSecretLink, overwrite: true },
    ],
    ['narrate outputPath a dangling link', 'narrate', { text: 'Hi.', outputPath: bait.workDanglingLink }],
    ['narrate outputPath through a folder link', 'narrate', { text: 'Hi.', outputPath: bait.throughFolderLink }],
    ['narrate outputPath escaping by dots', 'narrate', { text: 'Hi.', outputPath: bait.escapeByDots }],
    ['narrate outputPath a FIFO', 'narrate', { text: 'Hi.', outputPath: fifo, overwrite: true }],
    ['narrate outputPath a folder', 'narrate', { text: 'Hi.', outputPath: box.work, overwrite: true }],
    ['narrate outputPath /dev/null', 'narrate', { text: 'Hi.', outputPath: '/dev/null', overwrite: true }],
    ['narrate outputPath with NUL', 'narrate', { text: 'Hi.', outputPath: `${box.work}/a\u0000.mp3` }],
    ['transcribe path a number', 'transcribe', { path: 7 }],
    ['transcribe /dev/zero', 'transcribe', { path: '/dev/zero' }],
    ['transcribe /proc/self/environ', 'transcribe', { path: '/proc/self/environ' }],
    ['transcribe a FIFO', 'transcribe', { path: fifo }],
    ['transcribe a folder', 'transcribe', { path: box.work }],
    ['transcribe the secret through a link', 'transcribe', { path: bait.workSecretLink }],
    ['transcribe format exe', 'transcribe', { path: bait.workSecretLink, format: 'exe' }],
    ['read_job id an object', 'read_job', { id: { $ne: null } }],
    ['read_job id a path', 'read_job', { id: '../../jobs.json' }],
    ['list_voices search a number', 'list_voices', { search: 5 }],
  ];
  for (const [what, name, args] of cases) {
    const { outcome, text } = await callOutcome(tally, client, `${transport}: ${what}`, name, args);
    assert.notEqual(outcome, 'ok', `${transport}: ${what} succeeded: ${text.slice(0, 200)}`);
    assert.doesNotMatch(
      text,
      /ENOENT|EACCES|ELOOP|EISDIR|at .*\.js:\d+/,
      `${transport}: ${what} leaked an internal error: ${text.slice(0, 200)}`,
    );
  }
  // Careless: a huge search is refused by the schema; fullwidth and NUL searches answer normally.
  assert.equal(
    (
      await callOutcome(tally, client, `${transport}: list_voices search of 100 000 characters`, 'list_voices', {
        search: 'x'.repeat(100_000),
      })
    ).outcome,
    'tool-error',
  );
  for (const search of ['Ｆｒｅｎｃｈ', '\u0000']) {
    const { outcome } = await callOutcome(
      tally,
      client,
      `${transport}: list_voices search ${JSON.stringify(search)}`,
      'list_voices',
      { search },
    );
    assert.equal(outcome, 'ok');
  }
}

describe('outside probe: MCP', () => {
  const probe = useProbeServer(
    'mcp',
    (box) => ({ allowedFolders: () => [box.work] }),
    (t) => installWhisper(t.dataDir),
  );
  const { tally } = probe;

  it('answers hostile tool calls over Streamable HTTP with errors, never a write outside', async () => {
    const client = new Client({ name: 'probe', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${probe.t.base}/mcp`)));
    try {
      await hostileCalls(tally, client, probe.box, 'http');
    } finally {
      await client.close();
    }
  });

  it('answers raw JSON-RPC the SDK would never send with 4xx or a JSON-RPC error', async () => {
    const post = (what: string, body: string, headers: Record<string, string> = {}) =>
      tally.probe(
        `http raw: ${what}`,
        () =>
          request(`${probe.t.base}/mcp`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
            body,
          }),
        (r) => r.status,
      );
    const cases: Array<[string, string, Record<string, string>?]> = [
      ['not JSON', '{"jsonrpc":"2.0",'],
      ['empty batch', '[]'],
      ['batch of garbage', '[1,2,3]'],
      ['jsonrpc 1.0', '{"jsonrpc":"1.0","id":1,"method":"tools/list"}'],
      ['unknown method', '{"jsonrpc":"2.0","id":1,"method":"shell/exec","params":{}}'],
      ['id an object', '{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}'],
      ['params a string', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"narrate"}'],
      [
        'tools/call without initialize',
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"narrate","arguments":{"text":5}}}',
      ],
      ['text/plain', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', { 'Content-Type': 'text/plain' }],
      ['no Accept', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', { Accept: '' }],
      [
        'a session id that never existed',
        '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        { 'Mcp-Session-Id': '../../x' },
      ],
    ];
    for (const [what, body, headers] of cases) {
      const res = await post(what, body, headers);
      const text = res.body.toString();
      assert.ok(res.status < 500, `${what}: ${res.status} ${text.slice(0, 200)}`);
      if (res.status === 200) assert.match(text, /"error"|"result"/, what);
    }
    for (const method of ['DELETE', 'PUT']) {
      const res = await tally.probe(
        `http raw: ${method}`,
        () => request(`${probe.t.base}/mcp`, { method }),
        (r) => r.status,
      );
      assert.ok(res.status >= 400 && res.status < 500, `${method}: ${res.status}`);
    }
  });

  it('answers hostile tool calls over stdio with errors, never a write outside, and exits when the client leaves', async () => {
    const stdioData = path.join(probe.box.data, 'stdio');
    await mkdir(stdioData);
    await installWhisper(stdioData);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--data-dir', stdioData],
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'probe', version: '1.0.0' }, { capabilities: { roots: {} } });
    declareRoots(client, [probe.box.work]);
    await client.connect(transport);
    try {
      await hostileCalls(tally, client, probe.box, 'stdio');
    } catch (error) {
      throw new Error(`${(error as Error).message}\nstderr of the MCP server:\n${stderr.slice(-2000)}`, {
        cause: error,
      });
    } finally {
      await client.close();
    }
  });

  probeEnds(probe, 'answered everything, and wrote nothing outside the work folder and the data directory');
});
