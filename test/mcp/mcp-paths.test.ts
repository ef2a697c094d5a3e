import assert from 'node:assert/strict';
import { lstat, mkdir, readdir, readFile, readlink, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTool, declareRoots, installWhisper } from '../helpers/mcp-client';
import { CLI, startTestServer, tempDir, type TestServer } from '../helpers/server';
import { testModel } from '../helpers/test-models';
import { listeningSockets } from '../helpers/processes';

const exists = (file: string): Promise<boolean> =>
  lstat(file).then(
    () => true,
    () => false,
  );

/** The job folders of a data directory: an input copied for a job shows here. */
const jobFolders = async (dataDir: string): Promise<string[]> => readdir(path.join(dataDir, 'jobs')).catch(() => []);

async function httpClient(t: TestServer): Promise<Client> {
  const client = new Client({ name: 'paths-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`)));
  return client;
}

describe('MCP file paths over HTTP: only the configured folders, never through links', () => {
  let t: TestServer;
  let allowed: string;
  let outside: string;
  let client: Client;
  before(async () => {
    allowed = await tempDir();
    outside = await tempDir();
    t = await startTestServer({ allowedFolders: () => [allowed] });
    await installWhisper(t.dataDir);
    client = await httpClient(t);
  });
  after(async () => {
    await client.close();
    await t.dispose();
    await rm(allowed, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('refuses an outputPath at a dangling symbolic link and creates nothing at its target', async () => {
    const target = path.join(outside, 'created-through-the-link.wav');
    const link = path.join(allowed, 'dangling.wav');
    await symlink(target, link);
    const answer = await callTool(client, 'narrate', { text: 'Through a link.', outputPath: link });
    assert.equal(answer.isError, true);
    assert.match(answer.content[0].text!, /^INVALID_REQUEST: outputPath: .*symbolic link/);
    const overwriting = await callTool(client, 'narrate', {
      text: 'Through a link.',
      outputPath: link,
      overwrite: true,
    });
    assert.equal(overwriting.isError, true);
    assert.equal(await exists(target), false);
    assert.equal(await readlink(link), target);
  });

  it('refuses paths outside the folders, to write and to read, even through a link inside them', async () => {
    const written = await callTool(client, 'narrate', { text: 'Outside.', outputPath: path.join(outside, 'out.wav') });
    assert.equal(written.isError, true);
    assert.match(written.content[0].text!, /^INVALID_REQUEST: outputPath: .* is outside the folders/);
    assert.equal(await exists(path.join(outside, 'out.wav')), false);

    const secret = path.join(outside, 'secret.wav');
    await writeFile(secret, 'RIFF....WAVE');
    const read = await callTool(client, 'transcribe', { path: secret });
    assert.match(read.content[0].text!, /^INVALID_REQUEST: path: .* is outside the folders/);
    const linked = path.join(allowed, 'looks-inside.wav');
    await symlink(secret, linked);
    const throughLink = await callTool(client, 'transcribe', { path: linked });
    assert.match(throughLink.content[0].text!, /^INVALID_REQUEST: path: .* is outside the folders/);
    const climbing = await callTool(client, 'narrate', {
      text: 'Up.',
      outputPath: `${allowed}/../${path.basename(outside)}/up.wav`,
    });
    assert.match(climbing.content[0].text!, /^INVALID_REQUEST: outputPath: .* is outside the folders/);
  });

  it('refuses a missing parent folder in a sentence, before any job starts', async () => {
    const before = await jobFolders(t.dataDir);
    const answer = await callTool(client, 'narrate', {
      text: 'Nowhere to go.',
      outputPath: path.join(allowed, 'no-such-folder', 'a.wav'),
    });
    assert.equal(answer.isError, true);
    assert.match(
      answer.content[0].text!,
      /^INVALID_REQUEST: outputPath: the folder .*no-such-folder does not exist; create it first$/,
    );
    assert.deepEqual(await jobFolders(t.dataDir), before);
  });

  it('replaces an existing file only with overwrite, and then writes a real file, not through a link', async () => {
    const output = path.join(allowed, 'replace-me.wav');
    await writeFile(output, 'old');
    const refused = await callTool(client, 'narrate', { text: 'Keep it.', outputPath: output });
    assert.match(refused.content[0].text!, /^INVALID_REQUEST: outputPath: .* exists; pass overwrite: true/);
    assert.equal(await readFile(output, 'utf8'), 'old');
    const replaced = await callTool(client, 'narrate', { text: 'Replace it.', outputPath: output, overwrite: true });
    assert.equal(replaced.isError, undefined, replaced.content[0]?.text);
    assert.equal((await readFile(output)).toString('latin1', 0, 4), 'RIFF');
  });

  it('refuses a 1 GiB sparse file by its size without copying it, and a non-media file by its first bytes', async () => {
    const huge = path.join(allowed, 'huge.wav');
    await writeFile(huge, 'RIFF\0\0\0\0WAVE');
    await truncate(huge, 1024 ** 3);
    const before = await jobFolders(t.dataDir);
    const tooLarge = await callTool(client, 'transcribe', { path: huge });
    assert.equal(tooLarge.isError, true);
    assert.match(tooLarge.content[0].text!, /^FILE_TOO_LARGE: .*512 MB/);
    const notes = path.join(allowed, 'notes.mp3');
    await writeFile(notes, 'not audio at all '.repeat(100));
    const notMedia = await callTool(client, 'transcribe', { path: notes });
    assert.match(notMedia.content[0].text!, /^INVALID_REQUEST: path: .* is not a media file/);
    assert.deepEqual(await jobFolders(t.dataDir), before);
  });

  it('refuses every path when no folder is configured and the client declares no roots', async () => {
    const open = await startTestServer();
    const bare = await httpClient(open);
    try {
      const answer = await callTool(bare, 'narrate', {
        text: 'Anywhere?',
        outputPath: path.join(allowed, 'anywhere.wav'),
      });
      assert.match(answer.content[0].text!, /^INVALID_REQUEST: outputPath: no folder is open to file tools/);
      const job = await callTool(bare, 'narrate', { text: 'A job needs no path.' });
      assert.equal(job.isError, undefined, job.content[0]?.text);
    } finally {
      await bare.close();
      await open.dispose();
    }
  });
});

describe("MCP over stdio: the client's roots, and no network listener", () => {
  let dataDir: string;
  let root: string;
  let outside: string;
  before(async () => {
    dataDir = await tempDir();
    root = await tempDir();
    outside = await tempDir();
    await installWhisper(dataDir);
    await mkdir(path.join(root, 'audio'));
  });
  after(async () => {
    for (const folder of [dataDir, root, outside]) await rm(folder, { recursive: true, force: true });
  });

  it('writes inside a declared root, refuses outside it, says so on stderr and listens on no port', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--data-dir', dataDir],
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'rooted', version: '1.0.0' }, { capabilities: { roots: {} } });
    declareRoots(client, [root]);
    await client.connect(transport);
    try {
      const inside = path.join(root, 'audio', 'inside.wav');
      const written = await callTool(client, 'narrate', { text: 'Inside the root.', outputPath: inside });
      assert.equal(written.isError, undefined, `${written.content[0]?.text}\n${stderr}`);
      assert.ok((await stat(inside)).size > 44);
      const refused = await callTool(client, 'narrate', { text: 'Outside.', outputPath: path.join(outside, 'x.wav') });
      assert.match(refused.content[0].text!, /^INVALID_REQUEST: outputPath: .* is outside the folders/);
      const media = await callTool(client, 'transcribe', { path: testModel('audio/jfk.wav') });
      assert.match(media.content[0].text!, /^INVALID_REQUEST: path: .* is outside the folders/);

      assert.match(stderr, /no network listener/);
      assert.ok(transport.pid, 'the server process runs');
      assert.deepEqual(await listeningSockets(transport.pid), []);
    } finally {
      await client.close();
    }
  });
});
