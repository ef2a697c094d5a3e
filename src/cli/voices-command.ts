/**
 * `node dist/cli.js voices clone <clip> --name N [--text "..."] [--language L] [--yes-consent] | mix --kokoro
 * a:0.6,b:0.4 --name N | list [--all] | remove <name|id>`: voices of your own. Results to stdout, errors to
 * stderr; exit code 0 on success, 1 on failure, 2 for a usage error, 130 or 143 when Ctrl+C or SIGTERM cancelled a clone.
 */
import { parseArgs } from 'node:util';
import type { EngineConfig } from '../engine-api/engine-config';
import { EngineHost } from '../jobs/engine-host';
import { cloneVoice, CONSENT_STATEMENT } from '../jobs/voice-cloning';
import { createVoiceLibrary } from '../voices/library';
import { listOwnVoices, removeOwnVoice } from '../voices/own-voices';
import { mixKokoroVoice, parseMix } from '../voices/voice-mix';
import { describeThrown, silentLogger } from '../util/log';
import { CancelSignals } from './cancel-signals';
import { failureText } from './failure-text';

export const VOICES_USAGE = `Usage:
  node dist/cli.js voices clone <clip> --name N [--text "what the clip says"] [--language L] [--yes-consent] [--data-dir D]
                   a cloned voice from 3-30 s of speech (needs the ZipVoice model; the text is recognized unless given)
  node dist/cli.js voices mix --kokoro af_bella:0.6,am_adam:0.4 --name N [--data-dir D]   a blend of Kokoro speakers
  node dist/cli.js voices list [--all] [--data-dir D]      your cloned and designed voices (--all: every voice)
  node dist/cli.js voices remove <name|id> [--data-dir D]`;

export interface VoicesCommandOptions {
  /** The bundled engine worker (dist/engine-worker.js). */
  engineWorkerPath: string;
  /** The engine configuration the entry built (src/config/engine-environment.ts). */
  engineConfig: EngineConfig;
  stdout?: { write(text: string): unknown };
  stderr?: { write(text: string): unknown };
}

export async function runVoicesCommand(
  args: string[],
  dataDir: string,
  options: VoicesCommandOptions,
): Promise<number> {
  const out = options.stdout ?? process.stdout;
  const err = options.stderr ?? process.stderr;
  const usage = (): number => {
    err.write(`${VOICES_USAGE}\n`);
    return 2;
  };
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        name: { type: 'string' },
        text: { type: 'string' },
        language: { type: 'string' },
        'yes-consent': { type: 'boolean' },
        kokoro: { type: 'string' },
        all: { type: 'boolean' },
      },
    });
  } catch (error) {
    err.write(`${describeThrown(error)}\n`);
    return usage();
  }
  const { values, positionals } = parsed;
  const [action, ...rest] = positionals;
  const library = createVoiceLibrary({ dataDir });
  try {
    if (action === 'list' && rest.length === 0) {
      if (values.all) {
        for (const entry of library.entries())
          out.write(
            `${entry.voice.id}\t${entry.voice.name}\t${entry.voice.languageCode}\t${entry.voice.creationMode}\t${entry.voice.availability}\n`,
          );
        return 0;
      }
      const own = listOwnVoices(library);
      if (own.length === 0) out.write('No cloned or designed voices yet (voices clone, voices mix).\n');
      for (const voice of own)
        out.write(`${voice.id}\t${voice.name}\t${voice.languageCode}\t${voice.creationMode}\t${voice.availability}\n`);
      return 0;
    }
    if (action === 'remove' && rest.length === 1) {
      const removed = await removeOwnVoice(library, dataDir, rest[0]);
      if (!removed) {
        err.write(`No cloned or designed voice is named ${JSON.stringify(rest[0])}.\n`);
        return 1;
      }
      out.write(`Removed ${removed.name}.\n`);
      return 0;
    }
    if (action === 'mix' && rest.length === 0 && values.kokoro && values.name) {
      const voice = await mixKokoroVoice(library, dataDir, parseMix(values.kokoro), values.name);
      out.write(`Made ${voice.name} (designed): ${voice.id}\n`);
      return 0;
    }
    if (action === 'clone' && rest.length === 1 && values.name) {
      if (!values['yes-consent']) {
        err.write(
          `A voice is cloned only with the speaker's consent. If this is true, run again with --yes-consent:\n  "${CONSENT_STATEMENT}"\n`,
        );
        return 1;
      }
      const engine = new EngineHost({
        workerPath: options.engineWorkerPath,
        log: silentLogger,
        config: options.engineConfig,
      });
      // Ctrl+C or SIGTERM cancels the clone, which removes its staging folder, rather than ending the process in it.
      const cancel = new CancelSignals();
      try {
        const voice = await cloneVoice(engine, library, dataDir, {
          clip: rest[0],
          name: values.name,
          consent: true,
          signal: cancel.signal,
          ...(values.text ? { text: values.text } : {}),
          ...(values.language ? { language: values.language } : {}),
        });
        out.write(
          `Cloned ${voice.name} from ${voice.speechSeconds} s of speech: ${voice.id}\nReference text: ${voice.text}\n`,
        );
        return 0;
      } catch (error) {
        if (!cancel.signal.aborted) throw error;
        err.write('Cancelled; no voice was saved.\n');
        return cancel.exitCode;
      } finally {
        cancel.dispose();
        await engine.close();
      }
    }
  } catch (error) {
    err.write(`${failureText(error)}\n`);
    return 1;
  }
  return usage();
}
