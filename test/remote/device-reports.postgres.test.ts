import { describe, it } from 'node:test';
import { describeDeviceReports } from './helpers/device-report-suite';
import { postgresMissingReason, startPostgres } from './helpers/postgres';

const missing = postgresMissingReason();
if (missing) {
  describe('device reports on PostgreSQL', () => it(`skipped: ${missing}`, { skip: missing }, () => undefined));
} else {
  describeDeviceReports('PostgreSQL', async () => {
    const cluster = await startPostgres();
    return { options: { databaseUrl: await cluster.createDatabase() }, stop: () => cluster.stop() };
  });
}
