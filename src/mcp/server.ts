/**
 * The MCP server (official SDK) that exposes the speech tools: `list_voices`, `narrate`, `transcribe`,
 * `read_job`. One instance per connection (stdio) or per request (stateless Streamable HTTP).
 * Failures come back as tool errors (`isError`) carrying our error code, never as protocol errors.
 */
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { registryErrorOf } from '../contract/errors';
import { OUTPUT_FORMATS, TRANSCRIPT_FORMATS, TTS_SPEED } from '../contract/openapi';
import { describeThrown, type Logger } from '../util/log';
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
