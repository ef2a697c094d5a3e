/**
 * GET /voices keeps the library in memory, and still follows the voice folders: a voice another process
 * puts into `<data-dir>/models/tts/` shows up, and one it removes disappears, without a restart.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { request, useTestServer } from '../helpers/server';
import { testModel } from '../helpers/test-models';

const run = promisify(execFile);
const NAME = 'Outside Piper';
const DEADLINE_MS = 30_000;

/** Another process writes or removes the voice folder, as a user or an installer script would. */
async function inAnotherProcess(script: string, ...args: string[]): Promise<void> {
  await run(process.execPath, ['-e', script, ...args]);
}

const ADD_VOICE = `
const fs = require('node:fs'); const path = require('node:path');
const [dir, model, tokens] = process.argv.slice(1);
fs.mkdirSync(dir, { recursive: true });
fs.copyFileSync(model, path.join(dir, 'model.onnx'));
fs.copyFileSync(tokens, path.join(dir, 'tokens.txt'));
fs.writeFileSync(path.join(dir, 'voice.json'), JSON.stringify({
  name: ${JSON.stringify(NAME)}, engine: 'vits', languageCode: 'en-US',
  files: { model: 'model.onnx', tokens: 'tokens.txt' },
}));`;
const REMOVE_VOICE = `require('node:fs').rmSync(process.argv[1], { recursive: true, force: true });`;

async function listed(base: string): Promise<boolean> {
  const page = (await request(`${base}/voices?search=${encodeURIComponent(NAME)}&limit=100`)).json();
  return page.items.some((voice: { name: string }) => voice.name === NAME);
}

async function until(base: string, wanted: boolean): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  while ((await listed(base)) !== wanted) {
    if (Date.now() > deadline) throw new Error(`${NAME} was ${wanted ? 'never listed' : 'still listed'}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('GET /voices follows the voice folders', () => {
  const t = useTestServer();

  it('lists a voice another process writes into models/tts, and drops it when that process removes it', async () => {
    assert.equal(await listed(t.base), false);
    assert.equal(await listed(t.base), false); // read from memory now
    const dir = path.join(t.dataDir, 'models', 'tts', 'outside-piper');
    const synthetic = (file: string): string => testModel(path.join('sherpa-synthetic', 'vits-piper', file));
    await inAnotherProcess(ADD_VOICE, dir, synthetic('model.onnx'), synthetic('tokens.txt'));
    await until(t.base, true);
    assert.equal(await listed(t.base), true);
    await inAnotherProcess(REMOVE_VOICE, dir);
    await until(t.base, false);
  });
});
