/**
 * The OpenAI-compatible door: POST /audio/speech, /audio/transcriptions, /audio/translations and
 * GET /models on the Local API's server, port, key and security rules. Each route translates into a
 * Local API request and goes the same way; errors leave in OpenAI's shape (errors.ts).
 */
import type Router from '@koa/router';
import type { AppDeps } from '../jobs/app-deps';
import { createOpenAiDoor } from './door';
import { modelsRoute } from './models';
import { speechRoute } from './speech';
import { transcriptionRoutes } from './transcriptions';

export function openAiRoutes(router: Router, deps: AppDeps): void {
  const door = createOpenAiDoor(deps);
  speechRoute(router, deps, door);
  transcriptionRoutes(router, deps, door);
  modelsRoute(router, deps);
}
