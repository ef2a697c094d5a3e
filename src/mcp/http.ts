/**
 * MCP over Streamable HTTP at `{base}/mcp`, stateless: each POST gets a fresh server and transport, so
 * nothing is kept between requests and any number of clients can call. It sits behind the Local API's
 * Origin, Host and bearer checks like every other route; GET and DELETE (sessions) answer 405.
 */
import { jsonBody } from '../http/request-body';
import type Router from '@koa/router';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { invalidRequest } from '../contract/errors';
import type { AppDeps } from '../jobs/app-deps';
import { createMcpServer } from './server';

export function mcpRoutes(router: Router, deps: AppDeps): void {
  const parseJson = jsonBody();
  router.post(
    '/mcp',
    async (ctx, next) => {
      if (!ctx.is('application/json'))
        throw invalidRequest('body: must be a JSON-RPC message sent with Content-Type: application/json');
      await next();
    },
    parseJson,
    async (ctx) => {
      const server = createMcpServer(deps);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      ctx.res.once('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      ctx.respond = false;
      await transport.handleRequest(ctx.req, ctx.res, ctx.request.body);
    },
  );
}
