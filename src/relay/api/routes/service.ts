import type Router from '@koa/router';
import { invalidRequest } from '../../../contract/errors';
import { isReady } from '../../data/devices';
import { hasAnyStt, hasAnyTts } from '../../../link/capabilities';
import { poolDevices } from '../../dispatch/routing';
import { requireKey, type RelayDeps, type RelayState } from '../deps';
import { requireScope } from '../key-auth';
import { openApiDocumentFor } from '../../../contract/openapi';
import { requestBaseUrl } from '../../../server/request-base-url';
import { remoteOpenApiDocument } from '../openapi';
import { listPoolVoices } from '../voice-list';

export function publicRoutes(router: Router<RelayState>): void {
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok', service: 'studio-remote-api', apiVersion: 'v1' };
  });
  router.get('/openapi.json', (ctx) => {
    ctx.body = openApiDocumentFor(remoteOpenApiDocument, requestBaseUrl(ctx, router.opts.prefix ?? ''));
  });
}

export function poolRoutes(router: Router<RelayState>, deps: RelayDeps): void {
  const readyDevices = async (state: RelayState) => {
    const candidates = await poolDevices(deps.db, requireKey(state));
    const now = Date.now();
    return { total: candidates.length, ready: candidates.map((c) => c.device).filter((d) => isReady(d, now, deps.offlineAfterMs)) };
  };

  /** The Local body for the pool as a whole, plus how many of its devices are ready (docs/decisions.md). */
  router.get('/capabilities', requireScope('capabilities.read'), async (ctx) => {
    const key = requireKey(ctx.state);
    const { total, ready } = await readyDevices(ctx.state);
    ctx.body = {
      apiVersion: 'v1',
      authEnabled: true,
      ttsEnabled: key.scopes.includes('tts.create'),
      sttEnabled: key.scopes.includes('stt.create'),
      models: {
        ttsInstalled: ready.some((d) => d.capabilities !== null && hasAnyTts(d.capabilities)),
        sttInstalled: ready.some((d) => d.capabilities !== null && hasAnyStt(d.capabilities)),
      },
      devices: { total, ready: ready.length },
    };
  });

  router.get('/voices', requireScope('voices.read'), async (ctx) => {
    const query = deps.validators.voiceQuery(ctx.query);
    if (!query.ok) throw invalidRequest(query.message);
    const { ready } = await readyDevices(ctx.state);
    ctx.body = listPoolVoices(ready.flatMap((d) => d.capabilities?.tts.voices ?? []), query.value);
  });
}
