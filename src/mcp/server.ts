/**
 * The MCP server (official SDK) that exposes the speech tools: `list_voices`, `narrate`, `transcribe`,
 * `read_job`, and one tool for each other job kind an agent may want done with a file of this machine:
 * `align_script`, `translate_subtitles`, `dub_video`, `export_audiobook` (job-tools.ts). One instance per
 * connection (stdio) or per request (stateless Streamable HTTP).
 * Failures come back as tool errors (`isError`) carrying our error code, never as protocol errors.
 */
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { registryErrorOf } from '../contract/errors';
import { OUTPUT_FORMATS, TRANSCRIPT_FORMATS, TTS_SPEED } from '../contract/openapi';
import { describeThrown, type Logger } from '../util/log';
import { jobTools } from './job-tools';
import { speechTools, type McpDeps } from './tools';

export const MCP_SERVER_NAME = 'speech-studio';

function result(value: Record<string, unknown>, text?: string): CallToolResult {
  return { content: [{ type: 'text', text: text ?? JSON.stringify(value, null, 2) }], structuredContent: value };
}

/**
 * MCP's one mapping of the core's registry errors: a tool error whose text starts with the code, and whose
 * structured content carries code, status and (for QUEUE_FULL) the seconds to wait, as HTTP's Retry-After.
 */
export function toolError(thrown: unknown, log?: Logger): CallToolResult {
  const error = registryErrorOf(thrown);
  if (!error) {
    log?.error(`MCP tool failed: ${thrown instanceof Error ? thrown.stack : describeThrown(thrown)}`);
    return { isError: true, content: [{ type: 'text', text: describeThrown(thrown) }] };
  }
  const retryAfter = Number(error.headers['Retry-After']);
  const retry = Number.isFinite(retryAfter) ? { retryAfterSeconds: retryAfter } : {};
  const text = `${error.code}: ${error.message}${Number.isFinite(retryAfter) ? ` (retry after ${retryAfter} s)` : ''}`;
  return {
    isError: true,
    content: [{ type: 'text', text }],
    structuredContent: { error: { code: error.code, status: error.status, message: error.message, ...retry } },
  };
}

async function guarded(run: () => Promise<CallToolResult> | CallToolResult, log?: Logger): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    return toolError(error, log);
  }
}

/** The local folders among the roots the client declared (`roots/list`), or undefined when it declares none. */
async function declaredRoots(server: McpServer): Promise<string[] | undefined> {
  if (!server.server.getClientCapabilities()?.roots) return undefined;
  const { roots } = await server.server.listRoots(undefined, { timeout: 10_000 });
  return roots.filter((root) => root.uri.startsWith('file://')).map((root) => fileURLToPath(root.uri));
}

export function createMcpServer(deps: McpDeps, version = '0.1.0'): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version }, { capabilities: { tools: {} } });
  const tools = speechTools(deps, () => declaredRoots(server));
  const jobs = jobTools(deps, () => tools.folders());

  server.registerTool(
    'list_voices',
    {
      title: 'List voices',
      description:
        'The voices Speech Studio can speak with, filtered by a search (name or language) and a language code (en matches en-US and en-GB).',
      inputSchema: {
        search: z
          .string()
          .max(200)
          .optional()
          .describe('Words of the voice name or language, e.g. "French" or "Flite".'),
        languageCode: z.string().max(35).optional().describe('BCP 47 code, e.g. en or de-DE.'),
        limit: z.number().int().min(1).max(100).optional().describe('At most this many voices (default 20).'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input) => guarded(() => result(tools.listVoices(input)), deps.log),
  );

  server.registerTool(
    'narrate',
    {
      title: 'Narrate text',
      description:
        'Speaks text with a voice. With outputPath (absolute, inside one of your roots or the configured folders) it waits and writes the audio file there; without, it starts a job and answers at once (follow it with read_job).',
      inputSchema: {
        text: z
          .string()
          .min(1)
          .max(100_000)
          .describe(
            'Plain text, or SSML when it starts with <speak> (breaks, prosody, say-as, sub, phoneme, voice, lang, audio files inside your roots).',
          ),
        voice: z
          .string()
          .max(200)
          .optional()
          .describe(
            'A voice id or exact name from list_voices, or an OpenAI voice name (alloy, echo, nova, …). Default: the best ready English voice.',
          ),
        format: z
          .enum(OUTPUT_FORMATS)
          .optional()
          .describe('Audio format; default from the outputPath extension, else wav.'),
        outputPath: z.string().max(4096).optional().describe('Absolute path of the audio file to write.'),
        overwrite: z.boolean().optional().describe('Replace outputPath if it exists (default false).'),
        speed: z.number().min(TTS_SPEED.min).max(TTS_SPEED.max).optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    (input, extra) => guarded(async () => result(await tools.narrate(input, extra.signal)), deps.log),
  );

  server.registerTool(
    'transcribe',
    {
      title: 'Transcribe a media file',
      description:
        'Transcribes an audio or video file of this machine with whisper and answers the transcript in the chosen format; with outputPath it also writes it there.',
      inputSchema: {
        path: z
          .string()
          .min(1)
          .max(4096)
          .describe(
            'Absolute path of the media file, inside one of your roots or the configured folders; at most 512 MB.',
          ),
        format: z.enum(TRANSCRIPT_FORMATS).optional().describe('txt (default), srt, vtt, json-simple or json-full.'),
        language: z.string().max(35).optional().describe('Language code, or auto (default).'),
        outputPath: z.string().max(4096).optional().describe('Absolute path of the transcript file to write.'),
        overwrite: z.boolean().optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    (input, extra) =>
      guarded(async () => {
        const done = await tools.transcribe(input, extra.signal);
        return result(done, done.transcript);
      }, deps.log),
  );

  const pathField = (what: string) =>
    z
      .string()
      .min(1)
      .max(4096)
      .describe(`Absolute path of ${what}, inside one of your roots or the configured folders.`);
  const outputField = (what: string) =>
    z.string().min(1).max(4096).describe(`Absolute path of ${what} to write (its folder must exist).`);
  const language = z.string().max(35);
  const writes = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };

  server.registerTool(
    'align_script',
    {
      title: 'Align a script to media',
      description:
        'Times a script (plain text, Markdown, SRT, WebVTT, ASS, TTML or SBV) to what is said in an audio or video file, without needing a recognizer; answers the timed subtitles and the cues it could not find.',
      inputSchema: {
        mediaPath: pathField('the audio or video file'),
        scriptPath: pathField('the script or subtitle file'),
        format: z.enum(TRANSCRIPT_FORMATS).optional().describe('srt (default), vtt, txt, json-simple or json-full.'),
        language: language.optional().describe('The language spoken, e.g. en (default: from the script).'),
        outputPath: outputField('the subtitles').optional(),
        overwrite: z.boolean().optional(),
      },
      annotations: writes,
    },
    (input, extra) =>
      guarded(async () => {
        const done = await jobs.align(input, extra.signal);
        return result(done, done.subtitles);
      }, deps.log),
  );

  server.registerTool(
    'translate_subtitles',
    {
      title: 'Translate a subtitle file',
      description:
        'Translates an SRT or WebVTT file into another language with the local language model, keeping every cue and its times, and writes it to outputPath.',
      inputSchema: {
        path: pathField('the .srt or .vtt file'),
        to: language.describe('The language to translate into, e.g. de or pt-BR.'),
        from: language.optional().describe('The language of the file (default: the model finds out).'),
        outputPath: outputField('the translated subtitles'),
        overwrite: z.boolean().optional(),
      },
      annotations: writes,
    },
    (input, extra) => guarded(async () => result(await jobs.translate(input, extra.signal)), deps.log),
  );

  server.registerTool(
    'dub_video',
    {
      title: 'Dub a video',
      description:
        'Dubs a video into another language: transcribes it (or takes its subtitles), translates, speaks each cue with a voice of that language and mixes the speech under or instead of the original; writes the video to outputPath (.mp4, .mkv, .mov, .webm).',
      inputSchema: {
        path: pathField('the video'),
        to: language.describe('The language to dub into, e.g. de.'),
        from: language.optional().describe('The language spoken in the video (default: detected).'),
        subtitlesPath: pathField('subtitles (.srt or .vtt) to dub from instead of transcribing').optional(),
        mix: z.enum(['duck', 'replace']).optional().describe('duck (default): the original under the speech.'),
        outputPath: outputField('the dubbed video'),
        overwrite: z.boolean().optional(),
      },
      annotations: writes,
    },
    (input, extra) => guarded(async () => result(await jobs.dub(input, extra.signal)), deps.log),
  );

  server.registerTool(
    'export_audiobook',
    {
      title: 'Export an audiobook',
      description:
        'Reads a manuscript (Markdown or text, EPUB, DOCX) aloud into an audiobook with chapters: .m4b, .mp3, or a read-along .epub (EPUB 3 media overlays), by the extension of outputPath.',
      inputSchema: {
        path: pathField('the manuscript'),
        outputPath: outputField('the audiobook (.m4b, .mp3 or .epub)'),
        voice: z.string().max(200).optional().describe('A voice id or exact name from list_voices.'),
        chapters: z
          .string()
          .max(200)
          .optional()
          .describe('The chapters to read, e.g. 3-7,9 or all (default: the body, no front or back matter).'),
        overwrite: z.boolean().optional(),
      },
      annotations: writes,
    },
    (input, extra) => guarded(async () => result(await jobs.exportAudiobook(input, extra.signal)), deps.log),
  );

  server.registerTool(
    'read_job',
    {
      title: 'Read a job',
      description: 'The state of a Speech Studio job: status, progress, phase, result or error.',
      inputSchema: { id: z.string().max(64).describe('The job id (a uuid).') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ id }) => guarded(() => result({ ...tools.readJob(id) }), deps.log),
  );

  return server;
}
