import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { EmbedSubtitlesTask } from '../../src/engine-api/protocol';
import { EngineHost } from '../../src/jobs/engine-host';
import { silentLogger } from '../../src/util/log';
import { tempDir } from '../helpers/temp';
import { engineConfigFromEnvironment } from '../../src/config/engine-environment';

/** A 2-second test pattern with a sine tone, made by ffmpeg in the given codecs. */
function makeVideo(file: string, video: string[], audio: string[]): string {
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=160x120:rate=25:duration=2',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=2',
    '-shortest',
    ...video,
    ...audio,
    file,
  ]);
  return file;
}

/** The MD5 of the video stream's packets, as ffmpeg hashes them when it copies them. */
const videoHash = (file: string): string =>
  execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:v', '-c', 'copy', '-f', 'md5', '-']).toString().trim();

/** The one subtitle track as ffprobe sees it; its cues are the packets with text (MP4's 2-byte empty samples are gaps). */
function subtitleStream(file: string): { codec: string; cues: number; language: string } {
  const out = JSON.parse(
    execFileSync('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      's',
      '-show_entries',
      'stream=codec_name:stream_tags=language:packet=size',
      '-of',
      'json',
      file,
    ]).toString(),
  ) as {
    streams: { codec_name: string; tags?: { language?: string } }[];
    packets: { size: string }[];
  };
  assert.equal(out.streams.length, 1, 'one subtitle track');
  const cues = out.packets.filter((packet) => Number(packet.size) > 2).length;
  return { codec: out.streams[0].codec_name, cues, language: out.streams[0].tags?.language ?? '' };
}

describe('Embed Subtitles in Video (the engine task, through EngineHost and a real engine process)', () => {
  let dir: string;
  let host: EngineHost;
  let mp4: string;
  let mkv: string;
  let webm: string;
  const files: Record<string, string> = {
    'talk.en.srt': '1\n00:00:00,200 --> 00:00:00,900\nHello.\n\n2\n00:00:01,000 --> 00:00:01,800\n<i>World.</i>\n',
    'talk.ass':
      '[Script Info]\nScriptType: v4.00+\n\n[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\nStyle: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:00.20,0:00:00.90,Default,,0,0,0,,{\\an8}Hello.\nDialogue: 0,0:00:01.00,0:00:01.50,Default,,0,0,0,,Two\\Nlines.\nDialogue: 0,0:00:01.60,0:00:01.90,Default,,0,0,0,,Three.\n',
    'talk.fr.ttml':
      '<?xml version="1.0" encoding="UTF-8"?>\n<tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" ttp:frameRate="25"><body><div>\n<p begin="00:00:00:05" end="00:00:00:20">Bonjour<br/>à tous.</p>\n<p begin="1s" dur="0.5s">Fin.</p>\n</div></body></tt>\n',
    'talk.sbv': '0:00:00.200,0:00:00.900\nHello.\n\n0:00:01.000,0:00:01.800\nWorld.\n',
  };

  before(async () => {
    const worker = path.join(__dirname, '..', '..', 'dist', 'engine-worker.js');
    assert.ok(existsSync(worker), 'run `npm run build` first');
    dir = await tempDir('embed-subtitles-');
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text, 'utf8');
    mp4 = makeVideo(
      path.join(dir, 'talk.mp4'),
      ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
      ['-c:a', 'aac'],
    );
    mkv = makeVideo(
      path.join(dir, 'talk.mkv'),
      ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
      ['-c:a', 'aac'],
    );
    webm = makeVideo(
      path.join(dir, 'talk.webm'),
      ['-c:v', 'libvpx', '-deadline', 'realtime', '-b:v', '200k'],
      ['-c:a', 'libopus'],
    );
    host = new EngineHost({ workerPath: worker, log: silentLogger, config: () => engineConfigFromEnvironment() });
  });
  after(async () => {
    await host?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const embed = (task: Omit<EmbedSubtitlesTask, 'kind'>) =>
    host.run(
      `embed-${path.basename(task.outputPath)}`,
      { kind: 'embed-subtitles', ...task },
      { signal: new AbortController().signal, onProgress: () => undefined },
    );

  const cases: [string, () => string, string, string, string, number][] = [
    ['SRT into MP4 as mov_text', () => mp4, 'talk.en.srt', 'out-srt.mp4', 'mov_text', 2],
    ['SBV into MOV as mov_text', () => mp4, 'talk.sbv', 'out-sbv.mov', 'mov_text', 2],
    ['ASS into MKV as ass, styles kept', () => mkv, 'talk.ass', 'out-ass.mkv', 'ass', 3],
    ['TTML into WebM as webvtt', () => webm, 'talk.fr.ttml', 'out-ttml.webm', 'webvtt', 2],
  ];
  for (const [name, video, subtitles, output, codec, cues] of cases) {
    it(`${name}: the video packets are bit-identical, the track has its codec, cues and language`, async () => {
      const outputPath = path.join(dir, output);
      const language = subtitles.includes('.fr.') ? 'fre' : 'eng';
      const outcome = await embed({
        videoPath: video(),
        subtitlesPath: path.join(dir, subtitles),
        outputPath,
        language,
      });
      assert.equal(outcome.result.subtitleCodec, codec);
      assert.equal(outcome.result.subtitleCues, cues);
      assert.equal(videoHash(outputPath), videoHash(video()));
      const stream = subtitleStream(outputPath);
      assert.deepEqual([stream.codec, stream.cues, stream.language], [codec, cues, language]);
    });
  }

  it("the ASS track in Matroska keeps the script's style and override tags", () => {
    const extracted = execFileSync('ffmpeg', [
      '-v',
      'error',
      '-i',
      path.join(dir, 'out-ass.mkv'),
      '-map',
      '0:s',
      '-c',
      'copy',
      '-f',
      'ass',
      '-',
    ]).toString();
    assert.match(extracted, /Style: Default,Arial,20,/);
    assert.match(extracted, /\{\\an8\}Hello\./);
  });

  it('refuses what it cannot do with a sentence, and leaves no partial file', async () => {
    const source = path.join(dir, 'talk.en.srt');
    await assert.rejects(
      embed({ videoPath: mp4, subtitlesPath: source, outputPath: path.join(dir, 'out.avi'), language: 'eng' }),
      /can be embedded in \.mp4, \.m4v, \.mov, \.webm, \.mkv files, not \.avi/,
    );
    await assert.rejects(
      embed({ videoPath: mp4, subtitlesPath: source, outputPath: mp4, language: 'eng' }),
      /new file, not over the video/,
    );
    await assert.rejects(
      embed({ videoPath: mp4, subtitlesPath: source, outputPath: path.join(dir, 'x.mp4'), language: 'english' }),
      /ISO 639-2/,
    );
    // H.264 cannot go into WebM without re-encoding: ffmpeg says so, and nothing is left behind.
    await assert.rejects(
      embed({ videoPath: mp4, subtitlesPath: source, outputPath: path.join(dir, 'bad.webm'), language: 'eng' }),
      /ffmpeg could not embed the subtitles/,
    );
    assert.deepEqual(
      readdirSync(dir).filter((name) => name.startsWith('.') || name.startsWith('bad')),
      [],
    );
  });
});
