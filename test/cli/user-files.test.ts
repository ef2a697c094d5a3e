/**
 * The one check of the user's files (src/local-files/user-files.ts) as every writing command meets it: an
 * output that is one of the inputs (the same name, a link to it, a hard link) is refused before any work and
 * the input stays as it was; a FIFO given as an input is refused at once instead of holding the command
 * forever; an output folder that does not exist is named before the work, and an unknown language at once.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { link, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { CLI } from '../helpers/server';
import { useWorkDirs } from '../helpers/temp';
import { testModel } from '../helpers/test-models';
import { installSyntheticZipVoice } from '../helpers/zipvoice-model';

interface Run {
  code: number | string;
  stdout: string;
  stderr: string;
}

/** Runs the CLI; a run that has not ended after `deadlineMs` is killed, and its code is then the signal's name. */
function cli(args: string[], deadlineMs = 120_000): Promise<Run> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal ?? -1, stdout, stderr });
    }),
  );
}

const MANUSCRIPT = '# One\n\nA short chapter to read.\n';
const SUBTITLES = '1\n00:00:01,000 --> 00:00:02,000\nHello there.\n\n';

const newDir = useWorkDirs('speech-user-files-');

/** Asserts a refusal: exit 1, one sentence on stderr matching `message`, no stack trace. */
function assertRefused(run: Run, message: RegExp, what: string): void {
  assert.equal(run.code, 1, `${what}: ${run.stdout}${run.stderr}`);
  assert.match(run.stderr, message, what);
  assert.doesNotMatch(run.stderr, /\n\s+at .*:\d+:\d+/, `${what}: a stack trace`);
}

describe('an output that is an input is refused before any work, the input untouched', () => {
  it('audiobook: --out naming the manuscript, a link to it, a hard link to it, or a file of its folder', async () => {
    const dir = await newDir();
    const data = path.join(dir, 'data');
    const book = path.join(dir, 'book.md');
    await writeFile(book, MANUSCRIPT);
    await symlink(book, path.join(dir, 'linked.md'));
    await link(book, path.join(dir, 'hard.md'));
    await mkdir(path.join(dir, 'chapters'));
    await writeFile(path.join(dir, 'chapters', '01.md'), MANUSCRIPT);
    for (const [what, input, out] of [
      ['the same name', book, book],
      ['another spelling', book, path.join(dir, '.', 'chapters', '..', 'book.md')],
      ['a link to it', book, path.join(dir, 'linked.md')],
      ['a hard link to it', book, path.join(dir, 'hard.md')],
      ['a file of the manuscript folder', path.join(dir, 'chapters'), path.join(dir, 'chapters', '01.md')],
    ]) {
      const run = await cli(['audiobook', input, '--out', out, '--format', 'm4b', '--data-dir', data]);
      assertRefused(run, /is the input .*would replace the input/, what);
    }
    assert.equal(await readFile(book, 'utf8'), MANUSCRIPT);
    assert.equal(await readFile(path.join(dir, 'chapters', '01.md'), 'utf8'), MANUSCRIPT);
  });

  it('translate, align, dub and embed-subtitles: an output that is a hard link or a link to an input', async () => {
    const dir = await newDir();
    const data = path.join(dir, 'data');
    const srt = path.join(dir, 'talk.srt');
    const video = path.join(dir, 'talk.mp4');
    await writeFile(srt, SUBTITLES);
    await writeFile(video, 'not really a video, never read');
    await link(srt, path.join(dir, 'talk.de.srt'));
    await symlink(video, path.join(dir, 'talk.de.mp4'));
    await link(video, path.join(dir, 'copy.mp4'));
    await link(srt, path.join(dir, 'aligned.srt'));
    const runs: Array<[string, string[]]> = [
      ['translate into a hard link of its source', ['translate', srt, '--to', 'de']],
      ['dub into a link to its video', ['dub', video, '--to', 'de', '--subtitles', srt]],
      ['embed into a hard link of its video', ['embed-subtitles', video, srt, '--out', path.join(dir, 'copy.mp4')]],
      ['align into a hard link of its script', ['align', video, srt, '--out', path.join(dir, 'aligned.srt')]],
    ];
    for (const [what, args] of runs)
      assertRefused(await cli([...args, '--data-dir', data]), /would replace the input/, what);
    assert.equal(await readFile(srt, 'utf8'), SUBTITLES);
    assert.equal(await readFile(video, 'utf8'), 'not really a video, never read');
  });
});

describe('a FIFO given as an input is refused at once, not waited on', () => {
  it('translate, align, dub, voices clone and speakers add each name the pipe', async () => {
    const dir = await newDir();
    const data = path.join(dir, 'data');
    installSyntheticZipVoice(data);
    const fifo = (name: string): string => {
      const file = path.join(dir, name);
      execFileSync('mkfifo', [file]);
      return file;
    };
    const srt = path.join(dir, 'talk.srt');
    await writeFile(srt, SUBTITLES);
    const runs: Array<[string, string[]]> = [
      ['translate a pipe', ['translate', fifo('pipe.srt'), '--to', 'de']],
      [
        'align a pipe script',
        ['align', testModel('audio/jfk.wav'), fifo('script.srt'), '--out', path.join(dir, 'a.srt')],
      ],
      ['align a pipe media', ['align', fifo('media.wav'), srt, '--out', path.join(dir, 'b.srt')]],
      ['dub a pipe video', ['dub', fifo('video.mp4'), '--to', 'de', '--subtitles', srt]],
      ['clone a pipe', ['voices', 'clone', fifo('clip.wav'), '--name', 'Pipe', '--text', 'Hello.', '--yes-consent']],
      ['enroll a pipe', ['speakers', 'add', 'Pipe', fifo('speaker.wav')]],
    ];
    // Each would wait for a writer forever; 60 s is far beyond what a refusal takes, even on a loaded machine.
    for (const [what, args] of runs)
      assertRefused(await cli([...args, '--data-dir', data], 60_000), /is not a regular file \(a pipe/, what);
  });
});

describe('the output folder and the language are checked before the work', () => {
  it('translate, align and dub name a missing output folder; translate and dub refuse an unknown language', async () => {
    const dir = await newDir();
    const data = path.join(dir, 'data');
    const srt = path.join(dir, 'talk.srt');
    const video = path.join(dir, 'talk.mp4');
    await writeFile(srt, SUBTITLES);
    await writeFile(video, 'not really a video, never read');
    const missing = path.join(dir, 'missing');
    const runs: Array<[string, string[], RegExp]> = [
      [
        'translate into a missing folder',
        ['translate', srt, '--to', 'de', '--out', path.join(missing, 'talk.de.srt')],
        /folder .*missing does not exist/,
      ],
      [
        'align into a missing folder',
        ['align', testModel('audio/jfk.wav'), srt, '--out', path.join(missing, 'talk.srt')],
        /folder .*missing does not exist/,
      ],
      [
        'dub into a missing folder',
        ['dub', video, '--to', 'de', '--subtitles', srt, '--out', path.join(missing, 'talk.de.mp4')],
        /folder .*missing does not exist/,
      ],
      ['translate into xx', ['translate', srt, '--to', 'xx'], /known language tag such as de.*"xx"/],
      ['translate from qq', ['translate', srt, '--to', 'de', '--from', 'qq'], /known language tag such as en.*"qq"/],
      ['dub into xx', ['dub', video, '--to', 'xx', '--subtitles', srt], /known language tag such as de.*"xx"/],
    ];
    for (const [what, args, message] of runs) assertRefused(await cli([...args, '--data-dir', data]), message, what);
  });
});
