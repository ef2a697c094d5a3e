import Router from '@koa/router';
import { openApiDocument, openApiDocumentFor } from '../../contract/openapi';
import { mediaToolchainInfo } from '../../engine/media/media-toolchain';
import { listWhisperModels } from '../../models/installed-models';
import type { AppDeps } from '../deps';
import { requestBaseUrl } from '../request-base-url';

export function serviceRoutes(router: Router, deps: AppDeps): void {
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok', service: 'studio-local-api', apiVersion: 'v1' };
  });

  router.get('/capabilities', async (ctx) => {
    const sttModels = await listWhisperModels(deps.dataDir);
    ctx.body = {
      apiVersion: 'v1',
      authEnabled: deps.authEnabled(),
      ttsEnabled: deps.entitlements.has('tts'),
      sttEnabled: deps.entitlements.has('stt'),
      models: { ttsInstalled: deps.voices.ttsInstalled(), sttInstalled: sttModels.length > 0 },
      // Beyond the contract's table (optional in the OpenAPI schema, no decision records it yet): which ffmpeg is in use.
      ffmpeg: await mediaToolchainInfo(),
    };
  });

  router.get('/openapi.json', (ctx) => {
    ctx.body = openApiDocumentFor(openApiDocument, requestBaseUrl(ctx, router.opts.prefix ?? ''));
  });
}
