/**
 * SSML through MCP's narrate tool with the MCP SDK client: the markup is spoken (a break measured in the written
 * file), an `<audio>` file inside the declared roots is inserted, one outside them and malformed markup are
 * refused as INVALID_REQUEST naming line and column.
 */
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTool } from '../helpers/mcp-client';
import { request, tempDir, useTestServer } from '../helpers/server';

/** The longest run of samples at or under `quiet` between the first and last louder one, in seconds. */
function longestInnerSilence(samples: Int16Array, rate: number, quiet: number): number {
  let longest = 0;
  let start = -1;
  let heard = false;
  for (let i = 0; i < samples.length; i++) {
    if (Math.abs(samples[i]) <= quiet) {
      if (heard && start < 0) start = i;
    } else {
      if (start >= 0) longest = Math.max(longest, i - start);
      heard = true;
      start = -1;
    }
  }
  return longest / rate;
}

describe('SSML in MCP narrate', () => {
  let roots = '';
  let outside = '';
  const t = useTestServer({ allowedFolders: () => [roots] });
  let client: Client;
  before(async () => {
    roots = await tempDir();
    outside = await tempDir();
    client = new Client({ name: 'ssml-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`)));
    await writeFile(path.join(outside, 'secret.wav'), 'x');
    await writeFile(path.join(roots, 'not-audio.wav'), 'not audio');
  });
  after(async () => {
    await client?.close();
    await rm(roots, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('speaks SSML to a file with its break as exact silence, and reports what it could not use', async () => {
    const outputPath = path.join(roots, 'ssml.wav');
    const text =
      '<speak>Before the pause.<break time="900ms"/>After it. <audio src="not-audio.wav">a chime</audio></speak>';
    const written = await callTool(client, 'narrate', { text, voice: 'English (America)', outputPath });
    assert.equal(written.isError, undefined, written.content[0]?.text);
    const job = (await request(`${t.base}/jobs/${written.structuredContent.job.id}`)).json();
    assert.match(job.result.ignoredOptions['ssml audio'], /not-audio\.wav could not be read/);
    const wav = await readFile(outputPath);
    const rate = wav.readUInt32LE(24);
    const samples = new Int16Array(
      wav.buffer.slice(wav.byteOffset + 44, wav.byteOffset + wav.length - ((wav.length - 44) % 2)),
    );
    const quiet = Math.ceil(100 * 10 ** (job.result.loudness.gainDb / 20));
    const silence = longestInnerSilence(samples, rate, quiet);
    assert.ok(Math.abs(silence - 0.9) <= 0.02, `the 900 ms break measured ${silence} s`);
  });

  it('refuses malformed SSML and audio outside the allowed folders, naming line and column', async () => {
    const malformed = await callTool(client, 'narrate', { text: '<speak>\n<prosody rate="fast">unclosed</speak>' });
    assert.equal(malformed.isError, true);
    assert.match(malformed.content[0].text!, /^INVALID_REQUEST: text: SSML line 2, column \d+: /);
    const escaped = await callTool(client, 'narrate', {
      text: `<speak>Hi <audio src="${path.join(outside, 'secret.wav')}"/></speak>`,
    });
    assert.equal(escaped.isError, true);
    assert.match(
      escaped.content[0].text!,
      /^INVALID_REQUEST: text: SSML line 1, column 11: <audio src=.*outside the folders/,
    );
  });
});
