import assert from 'node:assert/strict';
import { copyFile, lstat, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTool, installWhisper } from '../helpers/mcp-client';
import { makeTalkingVideo, probeVideoFile } from '../helpers/dub-video';
import { startTestServer, tempDir, type TestServer } from '../helpers/server';
import { parseSrt } from '../helpers/subtitles';
import { testModel } from '../helpers/test-models';
import { TINY_LLM_NAME, tinyLlmModel } from '../helpers/tiny-llm';

const exists = (file: string): Promise<boolean> =>
  lstat(file).then(
    () => true,
    () => false,
  );

const JFK_SCRIPT =
  'And so, my fellow Americans, ask not what your country can do for you.\nAsk what you can do for your country.\n';

const SOURCE_SRT = `1
00:00:00,500 --> 00:00:03,000
Hello there, how are you?

2
00:00:03,500 --> 00:00:06,500
Fine, thank you. And you?

3
00:00:07,000 --> 00:00:10,000
Very well, thanks for asking.

`;

const MANUSCRIPT = `# One

The first chapter has one short paragraph.

# Two

The second chapter has another.
`;

describe('MCP offers every job kind: align, translate, dub and export a book with files of this machine', () => {
  let t: TestServer;
  let allowed: string;
  let outside: string;
  let client: Client;
  before(async () => {
    allowed = await tempDir();
    outside = await tempDir();
    t = await startTestServer({ allowedFolders: () => [allowed] });
    await installWhisper(t.dataDir);
    await mkdir(path.join(t.dataDir, 'models', 'llm'), { recursive: true });
    await copyFile(await tinyLlmModel(), path.join(t.dataDir, 'models', 'llm', TINY_LLM_NAME));
    client = new Client({ name: 'job-kinds-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`)));
  });
  after(async () => {
    await client.close();
    await t.dispose();
    await rm(allowed, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('lists a tool for each job kind beside narrate and transcribe', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of [
      'narrate',
      'transcribe',
      'align_script',
      'translate_subtitles',
      'dub_video',
      'export_audiobook',
    ])
      assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
    const align = tools.find((tool) => tool.name === 'align_script')!;
    assert.deepEqual(align.inputSchema.required?.sort(), ['mediaPath', 'scriptPath']);
  });

  it('align_script times a script to real speech and writes the subtitles; read_job reads its job', async () => {
    const media = path.join(allowed, 'jfk.wav');
    await copyFile(testModel('audio/jfk.wav'), media);
    const script = path.join(allowed, 'jfk.txt');
    await writeFile(script, JFK_SCRIPT);
    const out = path.join(allowed, 'jfk.srt');
    const answer = await callTool(client, 'align_script', { mediaPath: media, scriptPath: script, outputPath: out });
    assert.equal(answer.isError, undefined, answer.content[0].text);
    const cues = parseSrt(await readFile(out, 'utf8'));
    // Two sentences; the subtitle style may split the long first one into two cues.
    assert.ok(cues.length >= 2, JSON.stringify(cues));
    assert.match(cues.at(-1)!.lines.join(' '), /your country\.$/);
    assert.ok(cues[0].start < 1.5 && cues.at(-1)!.end <= 11.1, JSON.stringify(cues));
    assert.equal(answer.structuredContent.matchedCues, 2);
    assert.equal(answer.structuredContent.outputPath, out);
    assert.equal(answer.content[0].text, await readFile(out, 'utf8'));
    const job = await callTool(client, 'read_job', { id: answer.structuredContent.job.id });
    assert.equal(job.structuredContent.status, 'succeeded');
    assert.equal(job.structuredContent.kind, 'stt');
  });

  it('translate_subtitles writes the translation with every cue at its time, and refuses to replace a file or write outside', async () => {
    const source = path.join(allowed, 'scene.srt');
    await writeFile(source, SOURCE_SRT);
    const out = path.join(allowed, 'scene.de.srt');
    const answer = await callTool(client, 'translate_subtitles', { path: source, to: 'de', outputPath: out });
    assert.equal(answer.isError, undefined, answer.content[0].text);
    assert.equal(answer.structuredContent.cues, 3);
    assert.equal(answer.structuredContent.outputPath, out);
    assert.equal(answer.structuredContent.model, TINY_LLM_NAME);
    const translated = parseSrt(await readFile(out, 'utf8'));
    assert.deepEqual(
      translated.map((cue) => [cue.start, cue.end]),
      parseSrt(SOURCE_SRT).map((cue) => [cue.start, cue.end]),
    );

    const again = await callTool(client, 'translate_subtitles', { path: source, to: 'de', outputPath: out });
    assert.equal(again.isError, true);
    assert.match(again.content[0].text!, /^INVALID_REQUEST: outputPath: .* exists; pass overwrite: true/);
    const overSource = await callTool(client, 'translate_subtitles', {
      path: source,
      to: 'de',
      outputPath: source,
      overwrite: true,
    });
    assert.match(
      overSource.content[0].text!,
      /^INVALID_REQUEST: The outputPath .* is the input .*: writing it would replace the input/,
    );
    assert.equal(await readFile(source, 'utf8'), SOURCE_SRT, 'the source is untouched');
    const outsideOut = path.join(outside, 'scene.de.srt');
    const refused = await callTool(client, 'translate_subtitles', { path: source, to: 'de', outputPath: outsideOut });
    assert.match(refused.content[0].text!, /^INVALID_REQUEST: outputPath: .* is outside the folders/);
    assert.equal(await exists(outsideOut), false);
  });

  it('export_audiobook reads a manuscript into an M4B with its chapters', async () => {
    const manuscript = path.join(allowed, 'book.md');
    await writeFile(manuscript, MANUSCRIPT);
    const out = path.join(allowed, 'book.m4b');
    const answer = await callTool(client, 'export_audiobook', { path: manuscript, outputPath: out });
    assert.equal(answer.isError, undefined, answer.content[0].text);
    assert.deepEqual(
      answer.structuredContent.chapters.map((chapter: { title: string }) => chapter.title),
      ['One', 'Two'],
    );
    assert.ok((await readFile(out)).subarray(4, 8).toString('latin1') === 'ftyp', 'an MP4 container');
    const wrongKind = await callTool(client, 'export_audiobook', {
      path: manuscript,
      outputPath: path.join(allowed, 'book.wav'),
    });
    assert.match(wrongKind.content[0].text!, /^INVALID_REQUEST: outputPath: an audiobook is written as \.m4b/);
  });

  it('dub_video dubs a video from its subtitles into a copy with a German track, and refuses a language no voice speaks', async () => {
    const video = path.join(allowed, 'talk.mp4');
    await makeTalkingVideo(video, 11);
    const subtitles = path.join(allowed, 'talk.srt');
    await writeFile(subtitles, SOURCE_SRT);
    const out = path.join(allowed, 'talk.de.mp4');
    const answer = await callTool(client, 'dub_video', {
      path: video,
      to: 'de',
      subtitlesPath: subtitles,
      outputPath: out,
    });
    assert.equal(answer.isError, undefined, answer.content[0].text);
    assert.equal(answer.structuredContent.cues, 3);
    assert.equal(answer.structuredContent.outputPath, out);
    const probed = await probeVideoFile(out);
    const audio = probed.streams.filter((stream) => stream.codecType === 'audio');
    assert.equal(audio[0].language, 'ger');

    const nobody = await callTool(client, 'dub_video', {
      path: video,
      to: 'tlh',
      subtitlesPath: subtitles,
      outputPath: path.join(allowed, 'talk.tlh.mp4'),
    });
    assert.equal(nobody.isError, true);
    assert.match(nobody.content[0].text!, /^INVALID_REQUEST: No ready voice .* speaks tlh/);
    assert.equal(await exists(path.join(allowed, 'talk.tlh.mp4')), false);
  });
});
