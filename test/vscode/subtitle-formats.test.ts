import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { SUBTITLE_CHECK_SOURCE } from '../../src/editor/subtitles/diagnostics';
import { EMBED_SUBTITLES_COMMAND } from '../../src/editor/subtitles/embed-subtitles';
import type { EmbedSubtitlesResult } from '../../src/engine-api/protocol';
import { teardown, test } from './harness';
import { updateSetting, waitFor, workspaceFile } from './helpers';

// An ASS script as Aegisub writes it (BOM, CRLF): cue 1 has a line too long (behind an override tag), cue 2 is too short.
const ASS =
  '\uFEFF' +
  [
    '[Script Info]',
    'ScriptType: v4.00+',
    'PlayResX: 1920',
    'PlayResY: 1080',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    'Style: Default,Arial,48,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1',
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    'Dialogue: 0,0:00:01.00,0:00:05.00,Default,,0,0,0,,{\\an8}A line that is much longer than forty-two characters\\Nand more',
    'Dialogue: 0,0:00:06.00,0:00:06.50,Default,,0,0,0,,{\\i1}Too short.{\\i0}',
    'Dialogue: 0,0:00:09.00,0:00:11.00,Default,,0,0,0,,Fine.',
    '',
  ].join('\r\n');

// TTML with frames at 25 fps: cue 2 is too short, cue 3 overlaps it.
const TTML = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" ttp:frameRate="25" xml:lang="en">',
  '  <body>',
  '    <div>',
  '      <p xml:id="c1" begin="00:00:01:00" end="00:00:03:00">Hello there.</p>',
  '      <p xml:id="c2" begin="00:00:04:00" end="00:00:04:10">Short.</p>',
  '      <p xml:id="c3" begin="00:00:04:05" end="00:00:06:00">I start early.</p>',
  '    </div>',
  '  </body>',
  '</tt>',
  '',
].join('\n');

const problems = (uri: vscode.Uri): string =>
  vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.source === SUBTITLE_CHECK_SOURCE)
    .map((d) => `${d.range.start.line}:${d.code as string}`)
    .sort()
    .join(' ');

async function actionsAt(uri: vscode.Uri, line: number): Promise<vscode.CodeAction[]> {
  const found = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
    'vscode.executeCodeActionProvider',
    uri,
    new vscode.Range(line, 0, line, 1),
    vscode.CodeActionKind.QuickFix.value,
    10,
  );
  return found.filter((a): a is vscode.CodeAction => 'edit' in a && a.edit !== undefined);
}

const made: string[] = [];
function writeInWorkspace(name: string, text: string | Buffer): vscode.Uri {
  const uri = workspaceFile('subtitles', 'formats', name);
  mkdirSync(path.dirname(uri.fsPath), { recursive: true });
  writeFileSync(uri.fsPath, text);
  made.push(uri.fsPath);
  return uri;
}

teardown(async () => {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await updateSetting('subtitles.style', undefined);
  await updateSetting('subtitles.check', false);
  rmSync(workspaceFile('subtitles', 'formats').fsPath, { recursive: true, force: true });
});

/** Opens the file, waits for the checker's problems, applies the fix titled `title` on `line`, and returns the text. */
async function fix(uri: vscode.Uri, expectedProblems: string, line: number, title: string): Promise<string> {
  const editor = await vscode.window.showTextDocument(uri);
  assert.equal(editor.document.languageId, path.extname(uri.fsPath) === '.ass' ? 'ass' : 'ttml');
  await waitFor(`the problems of ${path.basename(uri.fsPath)}`, () =>
    problems(uri) === expectedProblems ? true : undefined,
  );
  const actions = await actionsAt(uri, line);
  // A title goes on with what the fix changes, before → after (and what it would create).
  const action = actions.find((a) => a.title.startsWith(`${title} (`));
  assert.ok(action, `"${title}" on line ${line} among: ${actions.map((a) => a.title).join(' | ')}`);
  assert.ok(await vscode.workspace.applyEdit(action.edit!));
  return editor.document.getText();
}

test('an .ass file: the checker points at its Dialogue lines, and a quick fix rewrites only the text or time it fixes', async () => {
  await updateSetting('subtitles.style', 'default');
  await updateSetting('subtitles.limits', undefined);
  await updateSetting('subtitles.check', true);
  const uri = writeInWorkspace('episode.ass', ASS);
  // document.getText() has no BOM; the rest is the file as written.
  const original = ASS.slice(1);
  const rebalanced = await fix(
    uri,
    '11:line-too-long 12:reading-speed 12:too-short',
    11,
    'Rebalance the lines of cue 1',
  );
  assert.equal(
    rebalanced,
    original.replace(
      '{\\an8}A line that is much longer than forty-two characters\\Nand more',
      '{\\an8}A line that is much longer than\\Nforty-two characters and more',
    ),
  );
  await vscode.commands.executeCommand('workbench.action.files.revert');
  const extended = await fix(
    uri,
    '11:line-too-long 12:reading-speed 12:too-short',
    12,
    'Extend cue 2 into the following gap',
  );
  assert.equal(extended, original.replace('0:00:06.00,0:00:06.50,', '0:00:06.00,0:00:06.83,'));
  await vscode.commands.executeCommand('workbench.action.files.revert');
});

test('a .ttml file: the checker reads frame times, and pulling back an overlap rewrites one end attribute', async () => {
  await updateSetting('subtitles.style', 'default');
  await updateSetting('subtitles.check', true);
  const uri = writeInWorkspace('episode.ttml', TTML);
  const pulled = await fix(uri, '5:too-short 6:overlap', 6, 'End cue 2 before cue 3 starts');
  // Cue 3 starts at frame 5 (0.2 s); the default style's gap of 2 frames at 24 fps (83 ms) before it is 0.117 s = frame 3.
  assert.equal(pulled, TTML.replace('begin="00:00:04:00" end="00:00:04:10"', 'begin="00:00:04:00" end="00:00:04:03"'));
  await vscode.commands.executeCommand('workbench.action.files.revert');
});

test('Embed Subtitles in Video… puts the open file into a copy of a generated video as a track ffprobe reads', async () => {
  const video = writeInWorkspace('clip.mp4', '');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=160x120:rate=25:duration=12',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=12',
    '-shortest',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    video.fsPath,
  ]);
  const subtitles = writeInWorkspace('clip.en.ass', ASS);
  await vscode.window.showTextDocument(subtitles);
  const output = path.join(path.dirname(video.fsPath), 'clip.subtitled.mp4');
  made.push(output);
  const result = await vscode.commands.executeCommand<EmbedSubtitlesResult | undefined>(EMBED_SUBTITLES_COMMAND, {
    video: video.fsPath,
    output,
  });
  assert.ok(result, 'the command gave a result');
  assert.ok(existsSync(output));
  assert.deepEqual([result.subtitleCodec, result.subtitleCues, result.language], ['mov_text', 3, 'eng']);
  const probe = JSON.parse(
    execFileSync('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_type,codec_name:stream_tags=language',
      '-of',
      'json',
      output,
    ]).toString(),
  ) as {
    streams: { codec_type: string; codec_name: string; tags?: { language?: string } }[];
  };
  assert.deepEqual(
    probe.streams.map((s) => `${s.codec_type}:${s.codec_name}:${s.tags?.language ?? ''}`),
    ['video:h264:und', 'audio:aac:und', 'subtitle:mov_text:eng'],
  );
  const hash = (file: string): string =>
    execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:v', '-c', 'copy', '-f', 'md5', '-'])
      .toString()
      .trim();
  assert.equal(hash(output), hash(video.fsPath), 'the video packets are copied bit for bit');
}, 120_000);
