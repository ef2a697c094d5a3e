/**
 * The dependency check CI runs (scripts/depcheck.mjs with .dependency-cruiser.cjs), run as a real process on
 * planted projects: each rule it promises fails on a planted breach and stays quiet on the allowed imports.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { PROJECT_ROOT, tempDir } from '../helpers/server';

const run = promisify(execFile);
const DEPCHECK = path.join(PROJECT_ROOT, 'scripts', 'depcheck.mjs');

/** A project folder holding `files` (paths under it), resolving packages from this repository's node_modules. */
async function plantProject(files: Record<string, string>): Promise<string> {
  const root = await tempDir('speech-studio-depcheck-');
  await symlink(path.join(PROJECT_ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), text);
  }
  return root;
}

async function depcheck(root: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [DEPCHECK, root], { timeout: 120_000 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : -1,
      output: `${failed.stdout ?? ''}${failed.stderr ?? ''}`,
    };
  }
}

// The layering the real src/ follows: the engine reads voices and speaks the messages of src/engine-api/, the job
// core drives the engine with those messages, a door (the Local API) translates onto the core, the host composes
// the doors, and the editor starts the host.
const ALLOWED = {
  'src/voices/library.ts': `export const voices = ['en'];\n`,
  'src/engine-api/protocol.ts': `export interface SpeakTask { kind: 'speak'; voice: string }\n`,
  'src/engine/worker.ts': `import { voices } from '../voices/library';\nimport type { SpeakTask } from '../engine-api/protocol';\nexport const ready = (task: SpeakTask) => voices.includes(task.voice);\n`,
  'src/jobs/job-service.ts': `import type { SpeakTask } from '../engine-api/protocol';\nexport type Ready = SpeakTask;\n`,
  'src/local-api/routes.ts': `import Koa from 'koa';\nimport http from 'node:http';\nimport type { Ready } from '../jobs/job-service';\nexport const routes = (r: Ready) => [new Koa(), http, r];\n`,
  'src/host/app.ts': `import { routes } from '../local-api/routes';\nexport const app = routes;\n`,
  'src/editor/commands.ts': `import * as vscode from 'vscode';\nimport { app } from '../host/app';\nexport const c = () => [vscode.window, app];\n`,
  'src/extension.ts': `import type * as vscode from 'vscode';\nimport { c } from './editor/commands';\nexport const activate = (x: vscode.ExtensionContext) => [x, c];\n`,
};

describe('npm run depcheck (scripts/depcheck.mjs)', () => {
  const roots: string[] = [];
  after(async () => {
    for (const root of roots) await rm(root, { recursive: true, force: true });
  });
  const check = async (files: Record<string, string>) => {
    const root = await plantProject(files);
    roots.push(root);
    return depcheck(root);
  };

  it('passes a project whose imports follow the rules', async () => {
    const { code, output } = await check(ALLOWED);
    assert.equal(code, 0, output);
    assert.match(output, /8 modules in src\/, no import cycle/);
  });

  it('fails on a module cycle made of a type-only import', async () => {
    const { code, output } = await check({
      ...ALLOWED,
      'src/jobs/store.ts': `import type { Service } from './service';\nexport class Store { s?: Service; }\n`,
      'src/jobs/service.ts': `import { Store } from './store';\nexport class Service { store = new Store(); }\n`,
    });
    assert.equal(code, 1, output);
    assert.match(output, /no-module-cycle: src\/jobs\/(store|service)\.ts → src\/jobs\/(service|store)\.ts → /);
    assert.doesNotMatch(output, /no-folder-cycle/);
  });

  it('fails when two top-level folders import each other, though no module cycle exists', async () => {
    const { code, output } = await check({
      ...ALLOWED,
      // voices reaches back into a module of engine/ that does not import voices: a folder cycle only.
      'src/engine/tts/language.ts': `export const fallback = 'en';\n`,
      'src/voices/default-voice.ts': `import { fallback } from '../engine/tts/language';\nexport const defaultVoice = fallback;\n`,
    });
    assert.equal(code, 1, output);
    assert.doesNotMatch(output, /no-module-cycle/);
    assert.match(output, /no-folder-cycle: src\/engine, src\/voices import each other/);
    assert.match(output, /src\/engine → src\/voices \(e\.g\. src\/engine\/worker\.ts → src\/voices\/library\.ts\)/);
    assert.match(
      output,
      /src\/voices → src\/engine \(e\.g\. src\/voices\/default-voice\.ts → src\/engine\/tts\/language\.ts\)/,
    );
  });

  it('fails on vscode outside the editor and on HTTP or Koa in the engine or the job core, type-only imports included', async () => {
    const { code, output } = await check({
      ...ALLOWED,
      'src/http/notify.ts': `import type { window } from 'vscode';\nexport type W = typeof window;\n`,
      'src/engine/fetch-model.ts': `import https from 'node:https';\nexport const get = https.get;\n`,
      'src/jobs/routes.ts': `import Router from '@koa/router';\nexport const router = new Router();\n`,
      'src/jobs/body.ts': `import { koaBody } from 'koa-body';\nexport const body = koaBody();\n`,
      'src/engine/socket.ts': `import { WebSocket } from 'ws';\nexport const Socket = WebSocket;\n`,
      'src/jobs/upload.ts': `import type busboy from 'busboy';\nexport type Busboy = typeof busboy;\n`,
    });
    assert.equal(code, 1, output);
    assert.match(output, /vscode-only-in-editor: src\/http\/notify\.ts → /);
    assert.doesNotMatch(output, /vscode-only-in-editor: src\/(editor|extension)/);
    for (const file of [
      'src/engine/fetch-model.ts',
      'src/jobs/routes.ts',
      'src/jobs/body.ts',
      'src/engine/socket.ts',
      'src/jobs/upload.ts',
    ]) {
      assert.match(output, new RegExp(`no-http-in-core: ${file.replace(/[./]/g, '\\$&')} → `), file);
    }
    assert.doesNotMatch(output, /no-http-in-core: src\/(http|local-api)/, 'the doors may use HTTP');
    assert.doesNotMatch(output, /cycle/);
  });

  it('fails when a door imports another door, or the core or a shared mechanism imports a door or the host', async () => {
    const { code, output } = await check({
      ...ALLOWED,
      'src/openai/voice-map.ts': `export const alloy = 'en';\n`,
      'src/mcp/tools.ts': `import { alloy } from '../openai/voice-map';\nexport const voice = alloy;\n`,
      'src/editor/lookup.ts': `import type { routes } from '../local-api/routes';\nexport type R = typeof routes;\n`,
      'src/jobs/door-rule.ts': `import { routes } from '../local-api/routes';\nexport const r = routes;\n`,
      'src/voices/host-voice.ts': `import type { app } from '../host/app';\nexport type A = typeof app;\n`,
      'src/cli.ts': `import { voice } from './mcp/tools';\nexport const v = voice;\n`,
    });
    assert.equal(code, 1, output);
    assert.match(output, /no-door-to-door: src\/mcp\/tools\.ts → src\/openai\/voice-map\.ts/);
    assert.match(output, /no-door-to-door: src\/editor\/lookup\.ts → src\/local-api\/routes\.ts/);
    assert.match(output, /no-door-in-core: src\/jobs\/door-rule\.ts → src\/local-api\/routes\.ts/);
    assert.match(output, /no-door-in-core: src\/voices\/host-voice\.ts → src\/host\/app\.ts/);
    assert.match(output, /cli-entry-is-a-door: src\/cli\.ts → src\/mcp\/tools\.ts/);
    assert.doesNotMatch(
      output,
      /no-door-to-door: src\/(editor\/commands|host)/,
      'a door may start the host, and the host composes doors',
    );
  });

  it('fails when anything outside src/engine/ imports the engine, by type, value or dynamic import, neutral folders included', async () => {
    const { code, output } = await check({
      ...ALLOWED,
      'src/engine/audio/wav-reader.ts': `export const readWav = (bytes: Uint8Array) => bytes.length;\n`,
      'src/jobs/engine-rule.ts': `import type { ready } from '../engine/worker';\nexport type Ready = typeof ready;\n`,
      'src/editor/take-check.ts': `import { readWav } from '../engine/audio/wav-reader';\nexport const check = readWav;\n`,
      'src/engine-api/reach-in.ts': `import { readWav } from '../engine/audio/wav-reader';\nexport const read = readWav;\n`,
      'src/host/engine-loader.ts': `export const load = () => import('../engine/worker');\n`,
    });
    assert.equal(code, 1, output);
    for (const [from, to] of [
      ['src/jobs/engine-rule.ts', 'src/engine/worker.ts'],
      ['src/editor/take-check.ts', 'src/engine/audio/wav-reader.ts'],
      ['src/engine-api/reach-in.ts', 'src/engine/audio/wav-reader.ts'],
      ['src/host/engine-loader.ts', 'src/engine/worker.ts'],
    ]) {
      assert.match(
        output,
        new RegExp(`engine-is-a-process: ${from.replace(/[./]/g, '\\$&')} → ${to.replace(/[./]/g, '\\$&')}`),
        from,
      );
    }
    assert.doesNotMatch(
      output,
      /engine-is-a-process: src\/engine\//,
      'the engine imports its own modules and the neutral folders',
    );
    assert.doesNotMatch(
      output,
      /engine-is-a-process: src\/jobs\/job-service/,
      'the job core may import the engine messages of src/engine-api/',
    );
  });

  it('fails when src/http or src/link imports the job core, while the doors may', async () => {
    const { code, output } = await check({
      ...ALLOWED,
      'src/jobs/admission.ts': `export const hasSttModel = (models: string[]) => models.length > 0;\n`,
      'src/http/client-gone.ts': `import type { Ready } from '../jobs/job-service';\nexport type Gone = Ready;\n`,
      'src/link/capabilities.ts': `import { hasSttModel } from '../jobs/admission';\nexport const hasAnyStt = hasSttModel;\n`,
    });
    assert.equal(code, 1, output);
    assert.match(output, /no-core-in-plumbing: src\/http\/client-gone\.ts → src\/jobs\/job-service\.ts/);
    assert.match(output, /no-core-in-plumbing: src\/link\/capabilities\.ts → src\/jobs\/admission\.ts/);
    assert.doesNotMatch(output, /no-core-in-plumbing: src\/local-api/, 'a door calls the core');
    assert.doesNotMatch(output, /cycle/);
  });
});
