import { describe, it } from 'node:test';
import { describeRelayContract } from './helpers/contract-suite';
import { postgresMissingReason, startPostgres } from './helpers/postgres';

const missing = postgresMissingReason();
if (missing) {
  describe('Remote API contract on PostgreSQL', () => it(`skipped: ${missing}`, { skip: missing }, () => undefined));
} else {
  describeRelayContract('PostgreSQL', async () => {
    const cluster = await startPostgres();
    return { databaseUrl: await cluster.createDatabase(), stop: () => cluster.stop() };
  });
}
