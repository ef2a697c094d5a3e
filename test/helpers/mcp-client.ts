/** What the MCP tests share: a whisper model in a data directory, a tool call, and an agent host's declared roots. */
import { copyFile, mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { testModel } from './test-models';

export async function installWhisper(dataDir: string): Promise<void> {
  await mkdir(path.join(dataDir, 'models', 'whisper'), { recursive: true });
  await mkdir(path.join(dataDir, 'models', 'vad'), { recursive: true });
  await symlink(
    testModel('whisper/ggml-synthetic-random.bin'),
    path.join(dataDir, 'models', 'whisper', 'ggml-synthetic-random.bin'),
  );
  await copyFile(
    testModel('vad/ggml-silero-v6.2.0.bin'),
    path.join(dataDir, 'models', 'vad', 'ggml-silero-v6.2.0.bin'),
  );
}

export type ToolResult = {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: any;
};

export const callTool = async (client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> =>
  (await client.callTool({ name, arguments: args })) as ToolResult;

/** Answers the server's roots/list with these folders, as an agent host declares its workspace. */
export function declareRoots(client: Client, folders: string[]): void {
  client.setRequestHandler(ListRootsRequestSchema, async () => ({
    roots: folders.map((folder) => ({ uri: pathToFileURL(folder).href })),
  }));
}
