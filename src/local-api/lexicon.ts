import Router from '@koa/router';
import { invalidRequest } from '../contract/errors';
import { jsonBody } from '../http/request-body';
import { readLexicon, writeLexicon } from '../lexicon/lexicon-file';
import { validateLexicon } from '../lexicon/lexicon-validation';
import type { AppDeps } from '../jobs/app-deps';

/**
 * GET /lexicon and PUT /lexicon: the server's pronunciation lexicon, `<data-dir>/lexicon.json`, read and
 * replaced whole. Jobs created after a PUT use the new entries; queued jobs keep the ones they were created with.
 */
export function lexiconRoutes(router: Router, deps: AppDeps): void {
  router.get('/lexicon', async (ctx) => {
    ctx.body = await readLexicon(deps.dataDir);
  });

  router.put('/lexicon', jsonBody(), async (ctx) => {
    const checked = validateLexicon(ctx.request.body);
    if (!checked.ok) throw invalidRequest(checked.message);
    await writeLexicon(deps.dataDir, checked.value);
    ctx.body = checked.value;
  });
}
