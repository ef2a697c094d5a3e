import path from 'node:path';
import { parseArgs } from 'node:util';
import { apiKeyPath, ensureApiKey, writeApiKey } from './http/api-key';
import { runStdioMcp } from './host/mcp-stdio';
import { engineConfigFromEnvironment } from './config/engine-environment';
import { modelMirrorFromEnvironment, proxyEnvironment } from './config/server-environment';
import { testHooksFromEnvironment } from './config/test-hooks';
import type { CliJobPlace } from './cli/run-cli-job';
import { defaultEngineWorkerPath, startLocalServer } from './host/local-server';
import { runAudiobookCommand } from './cli/audiobook-command';
import { runModelsCommand } from './cli/models-command';
import { runSpeakersCommand } from './cli/speakers-command';
import { runVoicesCommand } from './cli/voices-command';
import { runAlignCommand } from './cli/align-command';
import { runEmbedCommand } from './cli/embed-command';
import { runTranslateCommand } from './cli/translate-command';
import { runDubCommand } from './cli/dub-command';
import { runCaptionsCommand } from './cli/captions-command';
import { resolveServeOptions } from './cli/serve-options';
import { UsageError } from './util/usage-error';
import { startDeviceClient, type DeviceClient } from './host/device-link';
import { consoleLogger, describeThrown } from './util/log';
import { createVoiceLibrary } from './voices/library';
import { sttModelFileName } from './models/catalog';

const USAGE = `Speech Studio headless server

Usage:
  node dist/cli.js serve [--host H] [--port P] [--data-dir D] [--auth on|off] [--stt-model M] [--relay URL --device-token T]
                         [--allow-folder F]...
  node dist/cli.js mcp [--data-dir D] [--allow-folder F]...   the MCP server over stdio (tools for AI agents)
  node dist/cli.js key show [--data-dir D]
  node dist/cli.js key regenerate [--data-dir D]
  node dist/cli.js models list|install <id>|remove <id>|verify|import [<id>] <path> [--data-dir D] [--mirror URL]
  node dist/cli.js speakers add <name> <clip>|remove <name>|list [--data-dir D]   speakers named in diarized transcripts
  node dist/cli.js voices clone <clip> --name N [--text T] [--yes-consent] | mix --kokoro a:0.6,b:0.4 --name N | list | remove N
                             voices of your own: cloned from a recording (ZipVoice) or blended from Kokoro speakers
  node dist/cli.js audiobook <file.md|.txt|.epub|.docx|folder> --out book.m4b [--voice ID] [--format m4b|mp3|epub3]
                             [--chapter-level N] [--chapters 3-7,9|all] [--list-chapters]
                             [--speakers "Ann=VOICE,Bob=VOICE"] [--per-chapter (MP3 files in the folder --out)] [--master acx] [--data-dir D]
                             [--cast auto (the language model casts the dialogue into .speech/cast.json; quotes read by their voices)]
                             [--verify [--verify-threshold 0.1] [--verify-takes N]]
                             --format epub3 writes a read-along EPUB 3 (Media Overlays) [--overlay sentence|word];
                             --list-chapters prints the chapters;
                             --verify hears every paragraph back and retakes those over the threshold (report: <out>.verify.txt)
  node dist/cli.js align <media> <script.txt|.md|subtitles.srt|.vtt|.ass|.ssa|.ttml|.dfxp|.sbv> --out x.srt|.vtt|.ass|.ttml|.sbv|.txt|.json [--language L] [--data-dir D]
                             time a script (or re-time subtitles) to the speech; no speech-to-text model needed
  node dist/cli.js embed-subtitles <video> <subtitles.srt|.vtt|.ass|.ssa|.ttml|.dfxp|.sbv> --out x.mp4|x.mov|x.m4v|x.mkv|x.webm [--language L]
                             [--title T] [--replace-language] [--data-dir D]
                             a copy of the video with the subtitles as a soft track; nothing re-encoded
  node dist/cli.js translate <file.srt|file.vtt> --to LANG [--out FILE] [--from LANG] [--model M] [--style S] [--data-dir D]
                             translate subtitles with the local language model (default out: file.LANG.srt)
  node dist/cli.js dub <video> --to LANG [--subtitles x.srt|x.vtt] [--mix duck|replace] [--out FILE] [--from LANG] [--model M] [--data-dir D]
                             dub a video: transcribe (or take the subtitles), translate, speak each speaker with a library
                             voice, mix (original ducked under the dub, or replaced) into a copy (default out: video.LANG.mp4)
  node dist/cli.js captions --out live.srt|.vtt [--input FILE | --device D --device-format F] [--language L] [--silence-ms N] [--data-dir D]
                             live captions from the microphone (or a capture device, or a file at its real pace), one cue
                             per utterance appended while it runs; Ctrl+C stops; the same --out again resumes

--relay/--device-token join a relay's device pool (Remote API): this server runs the jobs it is sent.
--allow-folder: a folder the MCP tools may read and write files in (repeatable); a client's declared roots
  are narrowed to these. Without it the tools use only the roots an MCP client declares (stdio).
--stt-model: the default speech-to-text model, an installed file name or catalog id (whisper or Parakeet);
  without it each job gets the best installed model for its language (Parakeet for its languages).

Environment: SPEECH_STUDIO_HOST, SPEECH_STUDIO_PORT, SPEECH_STUDIO_DATA_DIR, SPEECH_STUDIO_AUTH,
SPEECH_STUDIO_RELAY, SPEECH_STUDIO_DEVICE_TOKEN, SPEECH_STUDIO_STT_MODEL, SPEECH_STUDIO_ALLOWED_FOLDERS,
SPEECH_STUDIO_CALIBRATION=off|SECONDS (speed run on joining: none, or its limit; default 8),
SPEECH_STUDIO_MODEL_MIRROR, HTTPS_PROXY, HTTP_PROXY, NO_PROXY (flags win). Defaults: 127.0.0.1,
17860, a per-user data directory, auth off.`;

const OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  'data-dir': { type: 'string' },
  auth: { type: 'string' },
  mirror: { type: 'string' },
  relay: { type: 'string' },
  'device-token': { type: 'string' },
  'stt-model': { type: 'string' },
  out: { type: 'string' },
  voice: { type: 'string' },
  format: { type: 'string' },
  'chapter-level': { type: 'string' },
  speakers: { type: 'string' },
  'per-chapter': { type: 'boolean' },
  chapters: { type: 'string' },
  'list-chapters': { type: 'boolean' },
  master: { type: 'string' },
  overlay: { type: 'string' },
  verify: { type: 'boolean' },
  'verify-threshold': { type: 'string' },
  'verify-takes': { type: 'string' },
  'allow-folder': { type: 'string', multiple: true },
  language: { type: 'string' },
  to: { type: 'string' },
  from: { type: 'string' },
  model: { type: 'string' },
  style: { type: 'string' },
  subtitles: { type: 'string' },
  mix: { type: 'string' },
  cast: { type: 'string' },
  title: { type: 'string' },
  'replace-language': { type: 'boolean' },
  input: { type: 'string' },
  device: { type: 'string' },
  'device-format': { type: 'string' },
  'silence-ms': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** SPEECH_STUDIO_CALIBRATION: `off`, or the seconds the speed calibration on joining a relay may take. */
function calibrationOption(value: string | undefined): { calibrate: boolean; calibrationBudgetMs?: number } {
  if (value === 'off') return { calibrate: false };
  const seconds = Number(value);
  return value && Number.isFinite(seconds) && seconds > 0
    ? { calibrate: true, calibrationBudgetMs: seconds * 1000 }
    : { calibrate: true };
}

/** `--allow-folder F` (repeatable), resolved against the working directory. */
const allowedFolderFlags = (flags: { 'allow-folder'?: string[] }): string[] =>
  (flags['allow-folder'] ?? []).map((folder) => path.resolve(folder));

async function serve(flags: Parameters<typeof resolveServeOptions>[0] & { 'allow-folder'?: string[] }): Promise<void> {
  const options = resolveServeOptions(flags, process.env);
  const preferredSttModel = options.sttModel === undefined ? undefined : sttModelFileName(options.sttModel);
  const allowed = allowedFolderFlags(flags);
  const server = await startLocalServer({
    ...options,
    log: consoleLogger,
    engineConfig: engineConfigFromEnvironment(),
    allowedFolders: () => allowed,
    ...(preferredSttModel ? { preferredSttModel } : {}),
  });
  if (options.auth) consoleLogger.info(`Authentication is on; the API key is in ${apiKeyPath(options.dataDir)}`);
  console.log(`Speech Studio Local API listening on ${server.url}`);
  let device: DeviceClient | undefined;
  if (options.relay) {
    device = startDeviceClient({
      relayUrl: options.relay.url,
      deviceToken: options.relay.deviceToken,
      jobs: server.jobs,
      voices: createVoiceLibrary({ dataDir: options.dataDir }),
      dataDir: options.dataDir,
      log: consoleLogger,
      ...(preferredSttModel ? { preferredSttModel: () => preferredSttModel } : {}),
      ...calibrationOption(process.env.SPEECH_STUDIO_CALIBRATION),
    });
    console.log(`Speech Studio device joining the relay at ${options.relay.url}`);
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      consoleLogger.warn(`Second ${signal}: exiting without waiting.`);
      process.exit(1);
    }
    stopping = true;
    consoleLogger.info(`${signal}: stopping; running jobs become interrupted.`);
    (device?.close() ?? Promise.resolve())
      .then(() => server.close())
      .then(
        () => process.exit(0),
        (error) => {
          consoleLogger.error(`Shutdown failed: ${describeThrown(error)}`);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function key(action: string | undefined, flags: Parameters<typeof resolveServeOptions>[0]): Promise<void> {
  const { dataDir } = resolveServeOptions(flags, process.env);
  if (action === 'regenerate') {
    await writeApiKey(dataDir);
    console.log(`A new API key is in ${apiKeyPath(dataDir)}; the previous key stopped working.`);
  } else if (action === 'show') {
    console.log(await ensureApiKey(dataDir));
  } else {
    throw new UsageError(`Expected "key show" or "key regenerate", got "key ${action ?? ''}".`);
  }
}

/** Where a job command runs: the data directory, and the engine configuration and test hooks this entry reads from the environment. */
function jobPlace(flags: Parameters<typeof resolveServeOptions>[0]): CliJobPlace {
  return {
    dataDir: resolveServeOptions(flags, process.env).dataDir,
    engineConfig: engineConfigFromEnvironment(),
    testHooks: testHooksFromEnvironment(process.env),
  };
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === 'voices') {
    // Its own flags (--name, --text, --yes-consent, --kokoro, --all); --data-dir is read here.
    const { values: own, tokens } = parseArgs({
      args: argv.slice(1),
      options: { 'data-dir': { type: 'string' } },
      allowPositionals: true,
      strict: false,
      tokens: true,
    });
    const rest = tokens
      .filter((token) => !(token.kind === 'option' && token.name === 'data-dir'))
      .map((token) => argv[1 + token.index]);
    const dataDir = resolveServeOptions(
      { 'data-dir': typeof own['data-dir'] === 'string' ? own['data-dir'] : undefined },
      process.env,
    ).dataDir;
    process.exitCode = await runVoicesCommand(
      rest.filter((arg) => arg !== undefined),
      dataDir,
      { engineWorkerPath: defaultEngineWorkerPath(), engineConfig: engineConfigFromEnvironment() },
    );
    return;
  }
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  if (values.help || positionals.length === 0) {
    console.log(USAGE);
    return;
  }
  const [command, action] = positionals;
  if (command === 'serve') return serve(values);
  if (command === 'key') return key(action, values);
  if (command === 'mcp') {
    const allowed = allowedFolderFlags(values);
    return runStdioMcp({ dataDir: resolveServeOptions(values, process.env).dataDir, allowedFolders: () => allowed });
  }
  if (command === 'models') {
    process.exitCode = await runModelsCommand(positionals.slice(1), resolveServeOptions(values, process.env).dataDir, {
      mirror: values.mirror ?? modelMirrorFromEnvironment(process.env),
      env: proxyEnvironment(process.env),
    });
    return;
  }
  if (command === 'speakers') {
    process.exitCode = await runSpeakersCommand(
      positionals.slice(1),
      resolveServeOptions(values, process.env).dataDir,
      { engineWorkerPath: defaultEngineWorkerPath(), engineConfig: engineConfigFromEnvironment() },
    );
    return;
  }
  if (command === 'audiobook') {
    process.exitCode = await runAudiobookCommand(action, values, jobPlace(values));
    return;
  }
  if (command === 'align') {
    process.exitCode = await runAlignCommand(positionals.slice(1), values, jobPlace(values));
    return;
  }
  if (command === 'embed-subtitles') {
    process.exitCode = await runEmbedCommand(positionals.slice(1), values, jobPlace(values));
    return;
  }
  if (command === 'translate') {
    process.exitCode = await runTranslateCommand(action, values, jobPlace(values));
    return;
  }
  if (command === 'dub') {
    process.exitCode = await runDubCommand(action, values, jobPlace(values));
    return;
  }
  if (command === 'captions') {
    const { dataDir, engineConfig } = jobPlace(values);
    process.exitCode = await runCaptionsCommand(values, { dataDir, engineConfig });
    return;
  }
  throw new UsageError(`Unknown command "${command}".`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
  console.error(inUse ? `The port is already in use: ${describeThrown(error)}` : describeThrown(error));
  if (usage) console.error(`\n${USAGE}`);
  process.exit(usage ? 2 : 1);
});
