import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { EmbedSubtitlesTask } from '../../src/engine-api/protocol';
import { EngineHost } from '../../src/jobs/engine-host';
import { silentLogger } from '../../src/util/log';
import { tempDir } from '../helpers/temp';
import { engineConfigFromEnvironment } from '../../src/config/engine-environment';

interface Track {
  codec: string;
  language: string;
  title: string;
  cues: number;
}

/** Every subtitle track of a file, in order, as ffprobe reads it (MP4's 2-byte empty samples are gaps, not cues). */
function subtitleTracks(file: string): Track[] {
  const probe = (
    args: string[],
  ): {
    streams: {
      index: number;
      codec_name: string;
      tags?: { language?: string; title?: string; handler_name?: string };
    }[];
    packets?: { stream_index: number; size: string }[];
  } => JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-of', 'json', ...args, file]).toString());
  const { streams } = probe([
    '-select_streams',
    's',
    '-show_entries',
    'stream=index,codec_name:stream_tags=language,title,handler_name',
  ]);
  const { packets = [] } = probe(['-show_entries', 'packet=stream_index,size']);
  return streams.map((stream) => ({
    codec: stream.codec_name,
    language: stream.tags?.language ?? '',
    // MP4 keeps a title as the handler name (ffmpeg calls an untitled one SubtitleHandler).
    title:
      stream.tags?.title ?? (stream.tags?.handler_name === 'SubtitleHandler' ? '' : (stream.tags?.handler_name ?? '')),
    cues: packets.filter((packet) => packet.stream_index === stream.index && Number(packet.size) > 2).length,
  }));
}

/** The MD5 of the video and audio packets, as ffmpeg hashes them when it copies them. */
const avHash = (file: string): string =>
  execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:v', '-map', '0:a', '-c', 'copy', '-f', 'md5', '-'])
    .toString()
    .trim();

describe('Embed Subtitles in Video keeps the subtitle tracks the video already has (real engine process, ffprobe-checked)', () => {
  let dir: string;
  let host: EngineHost;
  let mp4: string;
  let mkv: string;
  let subtitles: string;

  before(async () => {
    const worker = path.join(__dirname, '..', '..', 'dist', 'engine-worker.js');
    assert.ok(existsSync(worker), 'run `npm run build` first');
    dir = await tempDir('embed-tracks-');
    const english = path.join(dir, 'old.en.srt');
    const french = path.join(dir, 'old.fr.srt');
    await writeFile(
      english,
      '1\n00:00:00,100 --> 00:00:00,600\nOld English one.\n\n2\n00:00:01,000 --> 00:00:01,500\nOld English two.\n',
    );
    await writeFile(
      french,
      '1\n00:00:00,200 --> 00:00:00,800\nAncien un.\n\n2\n00:00:00,900 --> 00:00:01,300\nAncien deux.\n\n3\n00:00:01,400 --> 00:00:01,800\nAncien trois.\n',
    );
    subtitles = path.join(dir, 'talk.en.srt');
    await writeFile(
      subtitles,
      '1\n00:00:00,300 --> 00:00:00,900\nNew one.\n\n2\n00:00:01,000 --> 00:00:01,200\nNew two.\n\n3\n00:00:01,300 --> 00:00:01,600\nNew three.\n\n4\n00:00:01,700 --> 00:00:01,900\nNew four.\n',
    );
    // A video that already carries two subtitle tracks, English (titled) and French, in each container.
    const source = [
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=160x120:rate=25:duration=2',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=2',
      '-i',
      english,
      '-i',
      french,
    ];
    const maps = [
      '-map',
      '0:v',
      '-map',
      '1:a',
      '-map',
      '2:0',
      '-map',
      '3:0',
      '-metadata:s:s:0',
      'language=eng',
      '-metadata:s:s:0',
      'title=English SDH',
      '-metadata:s:s:1',
      'language=fre',
      '-shortest',
    ];
    const av = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'];
    mp4 = path.join(dir, 'talk.mp4');
    mkv = path.join(dir, 'talk.mkv');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      ...source,
      ...maps,
      '-metadata:s:s:0',
      'handler_name=English SDH',
      ...av,
      '-c:s',
      'mov_text',
      mp4,
    ]);
    execFileSync('ffmpeg', ['-v', 'error', '-y', ...source, ...maps, ...av, '-c:s', 'subrip', mkv]);
    host = new EngineHost({ workerPath: worker, log: silentLogger, config: () => engineConfigFromEnvironment() });
  });
  after(async () => {
    await host?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const embed = (task: Omit<EmbedSubtitlesTask, 'kind' | 'subtitlesPath' | 'language'>) =>
    host.run(
      `embed-${path.basename(task.outputPath)}`,
      { kind: 'embed-subtitles', subtitlesPath: subtitles, language: 'eng', ...task },
      { signal: new AbortController().signal, onProgress: () => undefined },
    );

  it('MP4: both tracks are kept as they were, the new one comes after them with its language and title', async () => {
    assert.equal(subtitleTracks(mp4).length, 2, 'the test video carries two tracks');
    const outputPath = path.join(dir, 'added.mp4');
    const { result } = await embed({ videoPath: mp4, outputPath });
    assert.deepEqual(subtitleTracks(outputPath), [
      { codec: 'mov_text', language: 'eng', title: 'English SDH', cues: 2 },
      { codec: 'mov_text', language: 'fre', title: '', cues: 3 },
      { codec: 'mov_text', language: 'eng', title: 'English', cues: 4 },
    ]);
    assert.equal(result.subtitleTrack, 2);
    assert.deepEqual(
      result.keptTracks.map((track) => track.language),
      ['eng', 'fre'],
    );
    assert.deepEqual(result.replacedTracks, []);
    assert.equal(avHash(outputPath), avHash(mp4), 'video and audio copied, not re-encoded');
  });

  it('MP4, replacing the same language: the English track goes, the French stays, the title is the one asked for', async () => {
    const outputPath = path.join(dir, 'replaced.mp4');
    const { result } = await embed({
      videoPath: mp4,
      outputPath,
      replaceSameLanguage: true,
      title: 'English (aligned)',
    });
    assert.deepEqual(subtitleTracks(outputPath), [
      { codec: 'mov_text', language: 'fre', title: '', cues: 3 },
      { codec: 'mov_text', language: 'eng', title: 'English (aligned)', cues: 4 },
    ]);
    assert.deepEqual(result.replacedTracks, [{ codec: 'mov_text', language: 'eng', title: 'English SDH' }]);
    assert.equal(result.subtitleTrack, 1);
  });

  it('MKV into an MP4 copy: SubRip tracks become mov_text (what MP4 holds), none is lost', async () => {
    const outputPath = path.join(dir, 'from-mkv.mp4');
    await embed({ videoPath: mkv, outputPath });
    assert.deepEqual(
      subtitleTracks(outputPath).map((track) => [track.codec, track.language, track.cues]),
      [
        ['mov_text', 'eng', 2],
        ['mov_text', 'fre', 3],
        ['mov_text', 'eng', 4],
      ],
    );
  });

  it('MKV into an MKV copy: the SubRip tracks are copied packet for packet', async () => {
    const outputPath = path.join(dir, 'added.mkv');
    await embed({ videoPath: mkv, outputPath, title: '' });
    assert.deepEqual(subtitleTracks(outputPath), [
      { codec: 'subrip', language: 'eng', title: 'English SDH', cues: 2 },
      { codec: 'subrip', language: 'fre', title: '', cues: 3 },
      { codec: 'subrip', language: 'eng', title: '', cues: 4 },
    ]);
  });
});
