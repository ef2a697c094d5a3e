/**
 * Outside probe of `cli.js audiobook`: careless manuscripts and outputs the earlier probes did not try
 * (empty, whitespace only, UTF-16, NUL bytes, a link to /dev/zero, the output naming the input itself, a
 * folder, a dangling link, an unknown format, flags of the wrong type). Each run ends within its deadline
 * with a refusal of one readable sentence (no stack trace, exit code not 0) or a book, and nothing outside
 * the work folder and the data directory changes; the input is never overwritten.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { CLI } from '../helpers/server';
import { baitPaths, probeEnds, useProbeSandbox } from './probe-kit';

interface Run {
  code: number | string;
  stdout: string;
  stderr: string;
}

/** Runs the CLI; the deadline kills it (SIGKILL) and counts a hang. */
function runCli(args: string[]): { done: Promise<Run>; kill(): void } {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return {
    done: new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve({ code: code ?? signal ?? -1, stdout, stderr })),
    ),
    kill: () => child.kill('SIGKILL'),
  };
}

describe('outside probe: cli.js audiobook', () => {
  const probe = useProbeSandbox('audiobook');
  const { tally } = probe;

  async function audiobook(what: string, args: string[]): Promise<Run> {
    const run = runCli(['audiobook', ...args, '--data-dir', probe.box.data]);
    try {
      // A CLI run is one request: a 0 exit is 200, a refusal 400, a crash (signal, stack trace) 500.
      return await tally.probe(
        `audiobook: ${what}`,
        () => run.done,
        (r) => (typeof r.code === 'string' || /\n\s+at .*:\d+:\d+/.test(r.stderr) ? 500 : r.code === 0 ? 200 : 400),
        60_000,
      );
    } finally {
      run.kill();
    }
  }

  const refused = async (what: string, args: string[], message: RegExp): Promise<void> => {
    const run = await audiobook(what, args);
    assert.notEqual(run.code, 0, `${what}: exit 0\n${run.stdout}`);
    assert.match(run.stderr, message, what);
    // A usage error may print the usage after its sentence; the sentence comes first, and no stack trace.
    assert.match(run.stderr.trimStart().split('\n')[0], /\w.*[.:)]$|\w/, `${what}: ${run.stderr.slice(0, 300)}`);
    assert.doesNotMatch(run.stderr, /\n\s+at .*:\d+:\d+/, `${what}: a stack trace`);
  };

  it('refuses careless manuscripts before any synthesis, each with one sentence', async () => {
    const w = (name: string) => path.join(probe.box.work, name);
    await writeFile(w('empty.md'), '');
    await writeFile(w('blank.md'), ' \n\n\t\n   \n');
    await writeFile(w('front-only.md'), '---\ntitle: Nothing\n---\n');
    await writeFile(
      w('utf16.md'),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('# Title\n\nText.\n', 'utf16le')]),
    );
    await writeFile(w('nul.md'), `# One\n\nText\u0000with NUL.\n`);
    await symlink('/dev/zero', w('zero.md'));
    await mkdir(w('empty-folder'));
    const out = w('book.m4b');
    await refused('empty file', [w('empty.md'), '--out', out], /\S/);
    await refused('whitespace only', [w('blank.md'), '--out', out], /\S/);
    await refused('a link to /dev/zero', [w('zero.md'), '--out', out], /\S/);
    await refused('an empty folder', [w('empty-folder'), '--out', out], /\S/);
    await refused('a file that does not exist', [w('missing.md'), '--out', out], /\S/);
    await refused('output is the input', [w('nul.md'), '--out', w('nul.md')], /\S/);
    await refused('output is a folder', [w('nul.md'), '--out', probe.box.work], /\S/);
    await refused('output an unknown format', [w('nul.md'), '--out', w('book.exe'), '--format', 'exe'], /\S/);
    await refused('chapter-level a word', [w('nul.md'), '--out', out, '--chapter-level', 'two'], /chapter-level/);
    await refused('chapters a garbage range', [w('nul.md'), '--out', out, '--chapters', '9-1,x'], /\S/);
    await refused('voice a path', [w('nul.md'), '--out', out, '--voice', '../../etc/passwd'], /\S/);
    await refused('no input', ['--out', out], /\S/);
    assert.match(await readFile(w('nul.md'), 'utf8'), /^# One/, 'the input was not overwritten');
    // UTF-16 with its byte-order mark: a book or a sentence, never a crash (--list-chapters: no synthesis).
    await audiobook('UTF-16 manuscript', [w('utf16.md'), '--list-chapters']);
  });

  it('never writes an output through a link or outside its folder', async () => {
    const bait = baitPaths(probe.box);
    const manuscript = path.join(probe.box.work, 'short.md');
    await writeFile(manuscript, '# One\n\nShort.\n');
    // A folder link the user names is followed, as by any command-line tool: that case is not probed here.
    for (const [what, out] of [
      ['a link to the secret', bait.workSecretLink],
      ['a dangling link', path.join(probe.box.work, 'dangling-link.srt')],
    ]) {
      const run = await audiobook(`output ${what}`, [manuscript, '--out', out, '--format', 'mp3']);
      assert.ok(run.code !== 0 || run.stdout.includes('Wrote'), `${what}: ${run.stderr}`);
    }
    assert.equal(await readFile(bait.secret, 'utf8'), 'do not touch\n');
  });

  probeEnds(probe, 'ran every command to an end, and wrote nothing outside the work folder and the data directory');
});
