import type Router from '@koa/router';
import { invalidRequest } from '../../../contract/errors';
import { isReady } from '../../data/devices';
import { hasAnyStt, hasAnyTts } from '../../../link/capabilities';
import { busySeconds, voiceEngines } from '../../dispatch/finish-estimate';
import { poolDevices, type Candidate } from '../../dispatch/routing';
import { requireKey, type RelayDeps, type RelayState } from '../deps';
import { requireScope } from '../key-auth';
import { openApiDocumentFor } from '../../../contract/openapi';
import { requestBaseUrl } from '../../../http/request-base-url';
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

/** What routing knows of each device of the pool: its queue, the time left on it, and the speeds it measured. */
function deviceEstimates(candidates: readonly Candidate[], offlineAfterMs: number, now: number) {
  const engines = voiceEngines(candidates.map((c) => c.speeds ?? []));
  const inOrder = [...candidates].sort(
    (a, b) => a.device.createdAt - b.device.createdAt || a.device.id.localeCompare(b.device.id),
  );
  return inOrder.map(({ device, active, ahead = [], speeds = [] }) => {
    const busy = busySeconds(speeds, ahead, engines);
    return {
      id: device.id,
      name: device.name,
      ready: isReady(device, now, offlineAfterMs),
      jobsAhead: active,
      busySeconds: busy === undefined ? null : Math.round(busy * 10) / 10,
      realTimeFactors: speeds,
    };
  });
}

export function poolRoutes(router: Router<RelayState>, deps: RelayDeps): void {
  const readyDevices = async (state: RelayState) => {
    const candidates = await poolDevices(deps.db, requireKey(state));
    const now = Date.now();
    return {
      total: candidates.length,
      ready: candidates.map((c) => c.device).filter((d) => isReady(d, now, deps.offlineAfterMs)),
      estimates: () => deviceEstimates(candidates, deps.offlineAfterMs, now),
    };
  };

  /**
   * The Local body for the pool as a whole, plus how many of its devices are ready (docs/decisions.md) and
   * what routing estimates for each.
   */
  router.get('/capabilities', requireScope('capabilities.read'), async (ctx) => {
    const key = requireKey(ctx.state);
    const { total, ready, estimates } = await readyDevices(ctx.state);
    ctx.body = {
      apiVersion: 'v1',
      authEnabled: true,
      ttsEnabled: key.scopes.includes('tts.create'),
      sttEnabled: key.scopes.includes('stt.create'),
      models: {
        ttsInstalled: ready.some((d) => d.capabilities !== null && hasAnyTts(d.capabilities)),
        sttInstalled: ready.some((d) => d.capabilities !== null && hasAnyStt(d.capabilities)),
      },
      devices: { total, ready: ready.length, estimates: estimates() },
    };
  });

  router.get('/voices', requireScope('voices.read'), async (ctx) => {
    const query = deps.validators.voiceQuery(ctx.query);
    if (!query.ok) throw invalidRequest(query.message);
    const { ready } = await readyDevices(ctx.state);
    ctx.body = listPoolVoices(
      ready.flatMap((d) => d.capabilities?.tts.voices ?? []),
      query.value,
    );
  });
}
