import Router from '@koa/router';
import { openApiDocument, openApiDocumentFor } from '../contract/openapi';
import { chooseWhisperModel, listSttModels } from '../models/installed-models';
import type { AppDeps } from '../jobs/app-deps';
import { requestBaseUrl } from '../http/request-base-url';

export function serviceRoutes(router: Router, deps: AppDeps): void {
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok', service: 'studio-local-api', apiVersion: 'v1' };
  });

  router.get('/capabilities', async (ctx) => {
    const sttModels = await listSttModels(deps.dataDir);
    // Which model a job without a language (auto) would use; a named language may pick another (see docs/local-api.md, Choosing a recognizer).
    const byDefault = chooseWhisperModel(sttModels, 'auto', deps.preferredSttModel?.())?.name;
    ctx.body = {
      apiVersion: 'v1',
      authEnabled: deps.authEnabled(),
      ttsEnabled: deps.entitlements.has('tts'),
      sttEnabled: deps.entitlements.has('stt'),
      models: {
        ttsInstalled: deps.voices.ttsInstalled(),
        sttInstalled: sttModels.length > 0,
        sttModels: sttModels.map((model) => ({
          name: model.name,
          engine: model.engine === 'parakeet' ? 'parakeet' : 'whisper.cpp',
          languages: model.languages ?? (model.englishOnly ? ['en'] : ['mul']),
          default: model.name === byDefault,
        })),
      },
      // Beyond the contract's table (optional in the OpenAPI schema, no decision records it yet): which ffmpeg is in use.
      ffmpeg: await deps.mediaToolchain(),
    };
  });

  router.get('/openapi.json', (ctx) => {
    ctx.body = openApiDocumentFor(openApiDocument, requestBaseUrl(ctx, router.opts.prefix ?? ''));
  });
}
