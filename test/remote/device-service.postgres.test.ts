import { describe, it } from 'node:test';
import { describeDeviceService } from './helpers/device-service-suite';
import { postgresMissingReason, startPostgres } from './helpers/postgres';

const missing = postgresMissingReason();
if (missing) {
  describe('device service on PostgreSQL', () => it(`skipped: ${missing}`, { skip: missing }, () => undefined));
} else {
  describeDeviceService('PostgreSQL', async () => {
    const cluster = await startPostgres();
    return { options: { databaseUrl: await cluster.createDatabase() }, stop: () => cluster.stop() };
  });
}
