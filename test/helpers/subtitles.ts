/** Strict little SRT and WebVTT readers for tests: they throw on anything a player might misread. */
export interface ParsedCue {
  start: number;
  end: number;
  lines: string[];
}

const SRT_TIMING = /^(\d{2,}):([0-5]\d):([0-5]\d),(\d{3}) --> (\d{2,}):([0-5]\d):([0-5]\d),(\d{3})$/;
const VTT_TIMING = /^(\d{2,}):([0-5]\d):([0-5]\d)\.(\d{3}) --> (\d{2,}):([0-5]\d):([0-5]\d)\.(\d{3})$/;

export function parseSrt(body: string): ParsedCue[] {
  if (body === '') return [];
  if (!body.endsWith('\n\n')) throw new Error('SRT must end with a blank line');
  return body
    .slice(0, -2)
    .split('\n\n')
    .map((block, i) => {
      const [index, timing, ...lines] = block.split('\n');
      if (index !== String(i + 1)) throw new Error(`cue ${i + 1}: bad number ${JSON.stringify(index)}`);
      return cueOf(timing, lines, SRT_TIMING, i);
    });
}

export function parseVtt(body: string): ParsedCue[] {
  if (!body.startsWith('WEBVTT\n\n')) throw new Error('WebVTT must start with the WEBVTT header and a blank line');
  const rest = body.slice('WEBVTT\n\n'.length);
  if (rest === '') return [];
  if (!rest.endsWith('\n\n')) throw new Error('WebVTT must end with a blank line');
  return rest
    .slice(0, -2)
    .split('\n\n')
    .map((block, i) => {
      const [timing, ...lines] = block.split('\n');
      return cueOf(timing, lines, VTT_TIMING, i);
    });
}

function cueOf(timing: string | undefined, lines: string[], pattern: RegExp, i: number): ParsedCue {
  const match = pattern.exec(timing ?? '');
  if (!match) throw new Error(`cue ${i + 1}: bad timing ${JSON.stringify(timing)}`);
  if (lines.length === 0 || lines.some((line) => line.trim() === '')) throw new Error(`cue ${i + 1}: empty text`);
  const n = match.slice(1).map(Number);
  return {
    start: n[0] * 3600 + n[1] * 60 + n[2] + n[3] / 1000,
    end: n[4] * 3600 + n[5] * 60 + n[6] + n[7] / 1000,
    lines,
  };
}

/** Throws unless every cue has start < end and no cue starts before the previous one ends. */
export function assertMonotonicCues(cues: readonly ParsedCue[]): void {
  cues.forEach((cue, i) => {
    if (!(cue.start < cue.end)) throw new Error(`cue ${i + 1}: start ${cue.start} is not before end ${cue.end}`);
    const previous = cues[i - 1];
    if (previous && cue.start < previous.end) throw new Error(`cue ${i + 1} starts before cue ${i} ends`);
  });
}
