/**
 * `node dist/cli.js mcp`: the MCP server over stdio, for agent hosts that start their tools as processes.
 * It runs its own job core on the data directory and opens no network listener: the tools reach the core
 * directly. stdout carries only the protocol, so every log line goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { openLocalCore, type LocalServerOptions } from './local-core';
import { consoleLogger } from '../util/log';
import { createMcpServer } from '../mcp/server';

export async function runStdioMcp(
  options: Pick<LocalServerOptions, 'dataDir'> & Partial<LocalServerOptions>,
): Promise<void> {
  const core = await openLocalCore({ host: '127.0.0.1', port: 0, auth: false, log: consoleLogger, ...options });
  const server = createMcpServer(core.appDeps);
  const transport = new StdioServerTransport();
  let closing = false;
  const close = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    await server.close().catch(() => undefined);
    await core.close();
    process.exit(0);
  };
  transport.onclose = () => void close();
  process.stdin.once('end', () => void close());
  process.once('SIGINT', () => void close());
  process.once('SIGTERM', () => void close());
  await server.connect(transport);
  const folders = core.appDeps.allowedFolders?.() ?? [];
  consoleLogger.info(
    `Speech Studio MCP server on stdio (data directory ${options.dataDir}; no network listener; ` +
      `file tools use the client's roots${folders.length ? ` within ${folders.join(', ')}` : ''})`,
  );
}
