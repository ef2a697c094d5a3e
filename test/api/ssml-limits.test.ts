/**
 * What SSML may ask of a request, through every door that takes it (the OpenAI door's input, MCP narrate's
 * text) and, for the long number, the Local API's plain text: SSML with nothing to say is refused as plain
 * text is; pauses and `<audio>` files that would make hours of audio are refused before any synthesis; a
 * number of 80 digits in `<say-as interpret-as="cardinal">` or 400 digits in plain text is spoken, not a 500.
 */
import assert from 'node:assert/strict';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { callTool } from '../helpers/mcp-client';
import { isTerminal, postJson, useTestServer, waitForJob } from '../helpers/server';
import { englishVoiceId } from '../helpers/voices';

const SILENT_SSML = [
  '<speak/>',
  '<speak><break time="2s"/></speak>',
  '<speak>😀🎉 <break strength="strong"/> …</speak>',
  '<!-- a note --><speak><p><s> </s></p></speak>',
];

/** A mono 16-bit WAV of this many seconds of silence at 16 kHz. */
function silentWav(seconds: number): Buffer {
  const data = seconds * 16_000 * 2;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data, 40);
  return Buffer.concat([header, Buffer.alloc(data)]);
}

describe('SSML limits in every door', () => {
  const t = useTestServer();
  let openai: OpenAI;
  let mcp: Client;
  const speech = (input: string) =>
    openai.audio.speech.create({ model: 'tts-1', voice: 'alloy', input, response_format: 'wav' });
  const refusedByOpenAi = async (input: string, message: RegExp) =>
    assert.rejects(speech(input), (error: any) => {
      assert.equal(error.status, 422, `${input.slice(0, 60)}: ${error.message}`);
      assert.equal(error.error?.param ?? error.param, 'input');
      assert.match(error.message, message);
      return true;
    });
  const refusedByMcp = async (text: string, message: RegExp) => {
    const answer = await callTool(mcp, 'narrate', { text });
    assert.equal(answer.isError, true, text.slice(0, 60));
    assert.match(answer.content[0].text!, message);
  };

  before(async () => {
    openai = new OpenAI({ baseURL: t.base, apiKey: 'unused', maxRetries: 0 });
    mcp = new Client({ name: 'ssml-limits-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`)));
    await mkdir(path.join(t.dataDir, 'audio'), { recursive: true });
    await writeFile(path.join(t.dataDir, 'audio', 'minute.wav'), silentWav(60));
    await writeFile(path.join(t.dataDir, 'audio', 'jingle.mp3'), Buffer.alloc(1_000_000, 0xff));
  });
  after(async () => {
    await mcp?.close();
  });

  it('refuses SSML with nothing to speak as plain text is refused: 422 INVALID_REQUEST, and no job', async () => {
    for (const ssml of SILENT_SSML) {
      await refusedByOpenAi(ssml, /input: has nothing to speak/);
      await refusedByMcp(ssml, /^INVALID_REQUEST: text: has nothing to speak/);
    }
    assert.deepEqual(await readdir(path.join(t.dataDir, 'jobs')).catch(() => []), []);
  });

  it('refuses breaks past ten minutes and <audio> repeats past the 10-hour narration before synthesis', async () => {
    const breaks = `<speak>Wait. ${'<break time="30s"/>'.repeat(120)} Done.</speak>`;
    await refusedByOpenAi(
      breaks,
      /input: SSML line 1, column \d+: the breaks of a document add up to at most 10 minutes/,
    );
    await refusedByMcp(breaks, /^INVALID_REQUEST: text: SSML line 1, .*at most 10 minutes/);
    // 601 minutes of a WAV by its header; a file of another kind as long as it would last at 32 kbit/s (250 s).
    const wavs = `<speak>Hear this. ${'<audio src="minute.wav"/>'.repeat(601)}</speak>`;
    await refusedByOpenAi(wavs, /input: SSML asks for 10\.0 hours of pauses and <audio> files; .* at most 10 hours/);
    await refusedByMcp(wavs, /^INVALID_REQUEST: text: SSML asks for 10\.0 hours/);
    const jingles = `<speak>Hear this. ${'<audio src="jingle.mp3"/>'.repeat(150)}</speak>`;
    await refusedByOpenAi(jingles, /input: SSML asks for 10\.4 hours/);
    assert.deepEqual(await readdir(path.join(t.dataDir, 'jobs')).catch(() => []), []);
  });

  it('speaks an 80-digit <say-as cardinal> and a 400-digit plain text instead of failing', async () => {
    const digits = '12345678'.repeat(10);
    const ssml = `<speak>The number <say-as interpret-as="cardinal">${digits}</say-as>.</speak>`;
    const wav = Buffer.from(await (await speech(ssml)).arrayBuffer());
    assert.equal(wav.toString('ascii', 0, 4), 'RIFF');
    assert.ok(wav.length > 44 + 16_000, `${wav.length} bytes of WAV`);
    const narrated = await callTool(mcp, 'narrate', { text: ssml });
    assert.equal(narrated.isError, undefined, narrated.content[0]?.text);
    const voiceId = await englishVoiceId(t.base);
    const created = await postJson(`${t.base}/tts/jobs`, { voiceId, text: `Call ${'9'.repeat(400)} now.` });
    assert.equal(created.status, 200, created.body.toString());
    const job = await waitForJob(t.base, created.json().id, isTerminal, 120_000);
    assert.equal(job.status, 'succeeded', job.error?.message);
  });
});
