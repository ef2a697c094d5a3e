/** A dub's report as lines for people (the CLI prints them, the editor logs them): voices, fit, stage times. */
import type { DubResult } from './dub-types';

/** The dub's report as lines for people: who speaks with which voice, what did not fit, how long each stage took. */
export function dubReportLines(result: DubResult): string[] {
  const lines = result.speakers.map(
    (speaker) =>
      `${speaker.label}: ${speaker.voice} (${speaker.engine}, ${speaker.source === 'cloned' ? 'cloned' : `library, ${speaker.gender}${speaker.medianPitchHz === null ? '' : ` voice at ${speaker.medianPitchHz} Hz`}`})`,
  );
  if (result.spedUp.length) lines.push(`Sped up to fit: cues ${result.spedUp.join(', ')}.`);
  for (const overrun of result.overruns)
    lines.push(
      `Cue ${overrun.index} does not fit: it runs ${overrun.overrunSeconds} s past its time${overrun.speaker ? ` (${overrun.speaker})` : ''}.`,
    );
  if (result.overruns.length === 0) lines.push('Every cue fits its time.');
  for (const flagged of result.translation.flagged)
    lines.push(`Cue ${flagged.index}'s translation reads too fast: ${flagged.charsPerSecond} characters per second.`);
  const stages = result.stageSeconds;
  lines.push(
    `Stages: transcribe ${stages.transcribe} s, translate ${stages.translate} s, voices ${stages.voices} s, narrate ${stages.narrate} s, mix ${stages.mix} s.`,
  );
  return lines;
}
