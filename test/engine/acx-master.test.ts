/**
 * ACX mastering of a chapter on real read speech (a HiFi-TTS clip, quiet and loud), checked by measuring
 * the files independently of the report: ffprobe for the encoding, ffmpeg's astats and ebur128 for levels.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ACX_RULES, masterChapterForAcx } from '../../src/engine/book/acx';
import { configureTestEngine } from '../helpers/engine-config';
import { tempDir } from '../helpers/temp';
import { testModel } from '../helpers/test-models';

// Engine code runs in this process too: configured from the environment, as the host configures its engine processes.
configureTestEngine({});

/** Overall RMS and peak of a file (or a span of it), measured here with ffmpeg, not by the code under test. */
function levels(file: string, span?: { start: number; end: number }): { rmsDb: number; peakDb: number } {
  const trim = span ? `atrim=start=${span.start}:end=${span.end},` : '';
  const run = spawnSync(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostats',
      '-i',
      file,
      '-af',
      `${trim}astats=measure_overall=RMS_level+Peak_level:measure_perchannel=none`,
      '-f',
      'null',
      '-',
    ],
    { encoding: 'utf8' },
  );
  assert.equal(run.status, 0, run.stderr);
  return levelsFrom(run.stderr);
}

function levelsFrom(stderr: string): { rmsDb: number; peakDb: number } {
  const number = (pattern: RegExp): number => {
    const match = pattern.exec(stderr);
    assert.ok(match, `ffmpeg printed no ${pattern}`);
    return match[1] === '-inf' ? -Infinity : Number(match[1]);
  };
  return { rmsDb: number(/RMS level dB: (-?inf|-?[\d.]+)/), peakDb: number(/Peak level dB: (-?inf|-?[\d.]+)/) };
}

function probe(file: string): { codec: string; sampleRate: number; bitRate: number; seconds: number } {
  const json = JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file], {
      encoding: 'utf8',
    }),
  );
  const stream = json.streams[0];
  return {
    codec: stream.codec_name,
    sampleRate: Number(stream.sample_rate),
    bitRate: Number(stream.bit_rate),
    seconds: Number(json.format.duration),
  };
}

describe('ACX mastering of a chapter', () => {
  let scratch: string;
  const speech = testModel('audio', 'align-dev', 'dev-a.wav');
  before(async () => {
    scratch = await tempDir('speech-acx-');
  });
  after(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  const cases = [
    ['quiet', -22, 'ffmpeg', 20],
    ['loud', 8, 'ffmpeg', 20],
    ['quiet', -22, 'wasm', 20],
    // A title card: so short that the room tone around it weighs on the whole file's RMS.
    ['short title', 0, 'ffmpeg', 3.5],
  ] as const;
  for (const [name, gainDb, toolchain, seconds] of cases) {
    it(`masters ${name} speech into a file that complies, and the report says what ffmpeg measures (${toolchain === 'wasm' ? 'WebAssembly ffmpeg' : 'system ffmpeg'})`, async (t) => {
      const restore = configureTestEngine({ ffmpeg: toolchain });
      t.after(restore);
      const source = path.join(scratch, `${name.replace(' ', '-')}-${toolchain}.wav`);
      execFileSync('ffmpeg', [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-i',
        speech,
        '-t',
        String(seconds),
        '-af',
        `volume=${gainDb}dB,alimiter=limit=0.99:level=0`,
        source,
      ]);
      const mp3 = path.join(scratch, `${name.replace(' ', '-')}-${toolchain}.mp3`);
      const report = await masterChapterForAcx(source, mp3, scratch);
      assert.deepEqual(report.problems, [], JSON.stringify(report.measured));
      assert.equal(report.complies, true);

      const probed = probe(mp3);
      assert.equal(probed.codec, 'mp3');
      assert.equal(probed.sampleRate, ACX_RULES.sampleRate);
      assert.equal(probed.bitRate, ACX_RULES.bitrateKbps * 1000);
      const sourceSeconds = probe(source).seconds;
      assert.ok(
        probed.seconds > sourceSeconds + 0.5 + 1 - 0.1 && probed.seconds < sourceSeconds + 1 + 5,
        `${probed.seconds} s for ${sourceSeconds} s of speech`,
      );

      const whole = levels(mp3);
      assert.ok(
        Math.abs(whole.rmsDb - report.measured.rmsDb) < 0.05,
        `report RMS ${report.measured.rmsDb}, measured ${whole.rmsDb}`,
      );
      assert.ok(whole.rmsDb >= ACX_RULES.rmsMinDb && whole.rmsDb <= ACX_RULES.rmsMaxDb, `RMS ${whole.rmsDb} dB`);
      assert.ok(whole.peakDb <= ACX_RULES.truePeakMaxDb, `peak ${whole.peakDb} dB`);
      // Room tone at the head: quiet under the noise floor rule, yet not digital silence.
      const head = levels(mp3, { start: 0.1, end: 0.5 });
      assert.ok(
        head.peakDb <= ACX_RULES.noiseFloorMaxDb && Number.isFinite(head.rmsDb),
        `head room tone ${JSON.stringify(head)}`,
      );
      const tail = levels(mp3, { start: probed.seconds - 0.9, end: probed.seconds - 0.1 });
      assert.ok(
        tail.peakDb <= ACX_RULES.noiseFloorMaxDb && Number.isFinite(tail.rmsDb),
        `tail room tone ${JSON.stringify(tail)}`,
      );
    });
  }

  it('says a silent chapter cannot comply instead of amplifying it', async () => {
    const silent = path.join(scratch, 'silent.wav');
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=24000:cl=mono',
      '-t',
      '2',
      silent,
    ]);
    const report = await masterChapterForAcx(silent, path.join(scratch, 'silent.mp3'), scratch);
    assert.equal(report.complies, false);
    assert.match(report.problems[0] ?? '', /silent/);
  });
});
