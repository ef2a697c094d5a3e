/**
 * `node dist/cli.js speakers add <name> <clip> | remove <name> | list`: the speakers remembered across
 * files, whom every diarized transcript names where their voice matches. Results to stdout, errors to
 * stderr; exit code 0 on success, 1 on failure, 2 for a usage error.
 */
import type { EngineConfig } from '../engine-api/engine-config';
import { EngineHost } from '../jobs/engine-host';
import { enrollSpeaker, listSpeakers, removeSpeaker } from '../jobs/speaker-enrollment';
import { silentLogger } from '../util/log';
import { failureText } from './failure-text';

export const SPEAKERS_USAGE = `Usage:
  node dist/cli.js speakers add <name> <clip> [--data-dir D]   enroll a voice (at least 2 s of speech)
  node dist/cli.js speakers remove <name> [--data-dir D]
  node dist/cli.js speakers list [--data-dir D]`;

export interface SpeakersCommandOptions {
  /** The bundled engine worker (dist/engine-worker.js). */
  engineWorkerPath: string;
  /** The engine configuration the entry built (src/config/engine-environment.ts). */
  engineConfig: EngineConfig;
  stdout?: { write(text: string): unknown };
  stderr?: { write(text: string): unknown };
}

export async function runSpeakersCommand(
  args: string[],
  dataDir: string,
  options: SpeakersCommandOptions,
): Promise<number> {
  const out = options.stdout ?? process.stdout;
  const err = options.stderr ?? process.stderr;
  const [action, ...rest] = args;
  if (action === 'list' && rest.length === 0) {
    const speakers = await listSpeakers(dataDir);
    if (speakers.length === 0) out.write('No speakers are enrolled.\n');
    for (const speaker of speakers)
      out.write(`${speaker.name}\t${speaker.speechSeconds} s of speech\t${speaker.model}\t${speaker.addedAt}\n`);
    return 0;
  }
  if (action === 'remove' && rest.length === 1) {
    if (await removeSpeaker(dataDir, rest[0])) {
      out.write(`Removed ${rest[0]}.\n`);
      return 0;
    }
    err.write(`No speaker named ${JSON.stringify(rest[0])} is enrolled.\n`);
    return 1;
  }
  if (action === 'add' && rest.length === 2) {
    const engine = new EngineHost({
      workerPath: options.engineWorkerPath,
      log: silentLogger,
      config: options.engineConfig,
    });
    try {
      const speaker = await enrollSpeaker(engine, dataDir, rest[0], rest[1], new AbortController().signal);
      out.write(`Enrolled ${speaker.name} from ${speaker.speechSeconds} s of speech.\n`);
      return 0;
    } catch (error) {
      err.write(`${failureText(error)}\n`);
      return 1;
    } finally {
      await engine.close();
    }
  }
  err.write(`${SPEAKERS_USAGE}\n`);
  return 2;
}
