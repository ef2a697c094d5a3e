/** Media made the way the world makes it for live tests and benches: two different real recordings with a pause between. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { testModel } from './test-models';

const run = promisify(execFile);
const ffmpeg = (): string => process.env.SPEECH_STUDIO_FFMPEG || 'ffmpeg';

/** Seconds of the media `makeTwoRecordings` writes; the second recording starts at SECOND_RECORDING_AT. */
export const TWO_RECORDINGS_SECONDS = 28.5;
export const SECOND_RECORDING_AT = 12.5;

/** jfk.wav (one reader, 11 s), 1.5 s of silence, then the two-speaker clip: 16 kHz mono WAV at `file`. */
export async function makeTwoRecordings(file: string): Promise<void> {
  await run(ffmpeg(), [
    '-v',
    'error',
    '-i',
    testModel('audio/jfk.wav'),
    '-f',
    'lavfi',
    '-t',
    '1.5',
    '-i',
    'anullsrc=r=16000:cl=mono',
    '-i',
    testModel('audio/multispeaker/1-two-speakers-en.wav'),
    '-filter_complex',
    '[0:a]aresample=16000,aformat=channel_layouts=mono[a];[2:a]aresample=16000,aformat=channel_layouts=mono[c];[a][1:a][c]concat=n=3:v=0:a=1',
    file,
  ]);
}
