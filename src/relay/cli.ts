import { parseArgs } from 'node:util';
import { UsageError } from '../util/usage-error';
import { consoleLogger, describeThrown } from '../util/log';
import { InvalidInputError } from './data/api-keys';
import { ADMIN_COMMANDS, runAdminCommand } from './cli/admin-commands';
import { resolveRelayOptions } from './cli/relay-options';
import { startRelay } from './relay-server';

const USAGE = `Speech Studio relay: the Remote Speech API v1, routing jobs to a pool of devices

Usage:
  node dist/relay.js serve [--host H] [--port P] [--data-dir D] [--database-url URL] [--storage-dir S]
                           [--retention-hours N] [--secure-cookies] [--trust-proxy] [--allowed-hosts H1,H2]
                           [--storage s3://bucket/prefix [--s3-endpoint URL] [--s3-region R] [--s3-path-style]
                            [--s3-access-key-id ID --s3-secret-access-key SECRET]] [--metrics-token T]
  node dist/relay.js keys create --name N --scopes a,b --pool dev_x,label:gpu|* [--expires ISO] [--rpm N] [--concurrency N]
  node dist/relay.js keys revoke <key id> | keys list [--json] | keys weight <key id> --set N   (share, 1-100)
  node dist/relay.js devices enrol --name N | devices revoke <device id> | devices list [--json]
  node dist/relay.js devices drain <device id> | devices undrain <device id>   (out of service and back)
  node dist/relay.js devices label <device id> --set gpu,site:paris   (the operator's labels; "" clears)
  node dist/relay.js credits add --amount N | credits show
  node dist/relay.js storage quota --bytes N
  node dist/relay.js admin password            (a new portal password for admin, shown once)
Every command takes --data-dir D or --database-url URL.

Without a database URL the relay keeps its data in PGlite (embedded PostgreSQL) under the data directory:
one relay process at a time. With --database-url postgres://… any number of instances share the data.
--allowed-hosts lists the host names the relay answers to (relay.example.com, or .example.com for a domain and
its subdomains); a request naming another Host gets 403. Unset: any Host is served.
--storage s3://bucket/prefix keeps uploads and outputs in an S3-compatible bucket instead of a folder (what
instances on several hosts share); the bucket must exist. --s3-path-style for MinIO-like servers. Credentials,
region and endpoint also come from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION,
AWS_ENDPOINT_URL_S3 (or AWS_ENDPOINT_URL). --metrics-token T serves GET /metrics (Prometheus) to "Bearer T".
Environment: RELAY_HOST, RELAY_PORT, RELAY_DATA_DIR, DATABASE_URL, RELAY_STORAGE_DIR, RELAY_RETENTION_HOURS,
RELAY_ALLOWED_HOSTS, RELAY_STORAGE, RELAY_S3_PATH_STYLE=1, RELAY_METRICS_TOKEN, RELAY_ADMIN_PASSWORD (the portal
admin's password on first start; default: generated and printed once).`;

const OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  'data-dir': { type: 'string' },
  'database-url': { type: 'string' },
  'storage-dir': { type: 'string' },
  'retention-hours': { type: 'string' },
  'secure-cookies': { type: 'boolean' },
  'trust-proxy': { type: 'boolean' },
  'allowed-hosts': { type: 'string' },
  storage: { type: 'string' },
  's3-endpoint': { type: 'string' },
  's3-region': { type: 'string' },
  's3-path-style': { type: 'boolean' },
  's3-access-key-id': { type: 'string' },
  's3-secret-access-key': { type: 'string' },
  'metrics-token': { type: 'string' },
  name: { type: 'string' },
  scopes: { type: 'string' },
  pool: { type: 'string' },
  expires: { type: 'string' },
  rpm: { type: 'string' },
  concurrency: { type: 'string' },
  amount: { type: 'string' },
  set: { type: 'string' },
  bytes: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const storageName = (options: ReturnType<typeof resolveRelayOptions>): string =>
  options.s3 ? `S3 bucket ${options.s3.bucket}${options.s3.prefix ? `/${options.s3.prefix}` : ''}` : 'storage folder';

async function serve(options: ReturnType<typeof resolveRelayOptions>): Promise<void> {
  // The AWS SDK warns once that its releases after January 2027 need Node 22: this relay pins its version. The
  // SDK reads this switch from the environment only, so the relay's entry sets it (docs/configuration.md).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const relay = await startRelay({ ...options, log: consoleLogger });
  if (relay.generatedAdminPassword) {
    console.log(
      `Portal sign-in created: user admin, password ${relay.generatedAdminPassword} (shown only this once; "relay.js admin password" makes a new one).`,
    );
  }
  console.log(
    `Speech Studio relay listening on ${relay.url} (portal: ${relay.origin}/portal, ${options.databaseUrl ? 'PostgreSQL' : 'embedded PGlite'}, ${storageName(options)})`,
  );
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) process.exit(1);
    stopping = true;
    consoleLogger.info(`${signal}: stopping the relay; jobs running on its devices become interrupted.`);
    relay.close().then(
      () => process.exit(0),
      (error) => {
        consoleLogger.error(`Shutdown failed: ${describeThrown(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  if (values.help || positionals.length === 0) return void console.log(USAGE);
  const options = resolveRelayOptions(values, process.env);
  if (positionals[0] === 'serve') return serve(options);
  const name = positionals.slice(0, 2).join(' ');
  if (!ADMIN_COMMANDS.includes(name)) throw new UsageError(`Unknown command "${positionals.join(' ')}".`);
  await runAdminCommand(name, positionals.slice(2), values, options);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  console.error(describeThrown(error));
  // The sentence above says what is wrong; the whole usage after it would bury it (and seem to be about something else).
  if (usage) console.error('\nRun "node dist/relay.js --help" for the commands and options.');
  process.exit(usage ? 2 : error instanceof InvalidInputError ? 2 : 1);
});
