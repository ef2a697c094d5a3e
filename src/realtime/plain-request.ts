/**
 * GET /v1/realtime without a WebSocket upgrade: the upgrade itself is served on the listener's `upgrade`
 * event (door.ts); a plain request reaches Koa and is told where and how to connect.
 */
import type Router from '@koa/router';
import { requestBaseUrl } from '../http/request-base-url';

export function realtimePlainRoutes(router: Router): void {
  router.get('/realtime', (ctx) => {
    const base = requestBaseUrl(ctx, router.opts.prefix ?? '').replace(/^http/, 'ws');
    ctx.body = {
      url: `${base}/realtime?intent=transcription`,
      protocol: 'OpenAI Realtime, transcription sessions',
      upgrade: 'websocket',
      message:
        'This is a WebSocket: connect with Upgrade: websocket to open a live transcription session (see docs/realtime.md).',
    };
  });
}
