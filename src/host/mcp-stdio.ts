/**
 * `node dist/cli.js mcp`: the MCP server over stdio, for agent hosts that start their tools as processes.
 * It runs its own job core on the data directory (its HTTP API on a free loopback port, for the files);
 * stdout carries only the protocol, so every log line goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { startLocalServer, type LocalServerOptions } from './local-server';
import { consoleLogger } from '../util/log';
import { createMcpServer } from '../mcp/server';

export async function runStdioMcp(options: Pick<LocalServerOptions, 'dataDir'> & Partial<LocalServerOptions>): Promise<void> {
  const local = await startLocalServer({ host: '127.0.0.1', port: 0, auth: false, log: consoleLogger, ...options });
  const server = createMcpServer(local.appDeps);
  const transport = new StdioServerTransport();
  let closing = false;
  const close = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    await server.close().catch(() => undefined);
    await local.close();
    process.exit(0);
  };
  transport.onclose = () => void close();
  process.stdin.once('end', () => void close());
  process.once('SIGINT', () => void close());
  process.once('SIGTERM', () => void close());
  await server.connect(transport);
  consoleLogger.info(`Speech Studio MCP server on stdio (data directory ${options.dataDir}; its Local API at ${local.url})`);
}
