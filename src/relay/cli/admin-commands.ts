import { UsageError } from '../../util/usage-error';
import { silentLogger } from '../../util/log';
import { addCredits, ensureAccount, getAccount, setStorageQuota } from '../data/accounts';
import { createApiKey, listApiKeys, revokeApiKey, setKeyWeight } from '../data/api-keys';
import {
  drainState,
  enrolDevice,
  isReady,
  listDevices,
  revokeDevice,
  sentJobsByDevice,
  setDeviceLabels,
  type Device,
} from '../data/devices';
import { deviceLabels } from '../dispatch/device-labels';
import { drainDevice } from '../dispatch/drain';
import { ADMIN_USERNAME, ensureAdminUser, setPassword } from '../data/users';
import type { Database } from '../db/database';
import { openDatabase } from '../db/open-database';
import type { ResolvedRelayOptions } from './relay-options';

export interface AdminFlags {
  name?: string;
  scopes?: string;
  pool?: string;
  expires?: string;
  rpm?: string;
  concurrency?: string;
  amount?: string;
  bytes?: string;
  set?: string;
  json?: boolean;
}

const out = (line: string): void => void process.stdout.write(`${line}\n`);
const note = (line: string): void => void process.stderr.write(`${line}\n`);
const split = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`Expected ${flag}.`);
  return value;
}

function wholeNumber(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value))
    throw new UsageError(`Expected ${flag} to be a whole number, got ${JSON.stringify(value)}.`);
  return Number(value);
}

function table(rows: string[][]): void {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const row of rows)
    out(
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    );
}

const iso = (ms: number | null): string => (ms === null ? '-' : new Date(ms).toISOString());

type Command = (db: Database, accountId: number, flags: AdminFlags, args: string[]) => Promise<void>;

const COMMANDS: Record<string, Command> = {
  async 'keys create'(db, accountId, flags) {
    const expiresAt = flags.expires === undefined ? null : Date.parse(flags.expires);
    if (Number.isNaN(expiresAt))
      throw new UsageError(`Expected --expires as an ISO date, got ${JSON.stringify(flags.expires)}.`);
    const { key, plaintext } = await createApiKey(db, accountId, {
      name: required(flags.name, '--name N'),
      scopes: split(required(flags.scopes, '--scopes a,b')),
      pool: split(required(flags.pool, '--pool dev_x,dev_y (or *)')),
      expiresAt,
      rpm: wholeNumber(flags.rpm, '--rpm'),
      maxConcurrentJobs: wholeNumber(flags.concurrency, '--concurrency'),
    });
    out(plaintext);
    note(`Created ${key.id} (${key.name}). The key above is shown only this once.`);
  },
  async 'keys revoke'(db, accountId, _flags, args) {
    const id = required(args[0], 'a key id: keys revoke key_…');
    if (!(await revokeApiKey(db, accountId, id))) throw new UsageError(`No live key ${id}.`);
    note(`Revoked ${id}: requests with it now get 401 INVALID_API_KEY.`);
  },
  async 'keys list'(db, accountId, flags) {
    const keys = await listApiKeys(db, accountId);
    if (flags.json) return out(JSON.stringify(keys, null, 2));
    table([
      ['ID', 'NAME', 'KEY', 'SCOPES', 'POOL', 'RPM', 'JOBS', 'EXPIRES', 'STATE'],
      ...keys.map((k) => [
        k.id,
        k.name,
        k.hint,
        k.scopes.join(','),
        k.pool.join(','),
        String(k.rpm),
        String(k.maxConcurrentJobs),
        iso(k.expiresAt),
        k.revokedAt ? 'revoked' : k.expiresAt !== null && k.expiresAt <= Date.now() ? 'expired' : 'live',
      ]),
    ]);
  },
  async 'devices enrol'(db, accountId, flags) {
    const { device, token } = await enrolDevice(db, accountId, required(flags.name, '--name N'));
    out(`${device.id} ${token}`);
    note(
      `Enrolled ${device.id} (${device.name}). Its token (after the id) is shown only this once:\n` +
        `  node dist/cli.js serve --relay <relay URL> --device-token ${token.slice(0, 8)}…`,
    );
  },
  async 'devices revoke'(db, accountId, _flags, args) {
    const id = required(args[0], 'a device id: devices revoke dev_…');
    if (!(await revokeDevice(db, accountId, id))) throw new UsageError(`No enrolled device ${id}.`);
    note(`Revoked ${id}: its link closes at its next heartbeat.`);
  },
  async 'keys weight'(db, accountId, flags, args) {
    const id = required(args[0], 'a key id: keys weight key_… --set N');
    const weight = Number(required(flags.set, '--set N (1 to 100)'));
    if (!(await setKeyWeight(db, accountId, id, weight))) throw new UsageError(`No key ${id}.`);
    note(
      `${id} has weight ${weight}: when devices are saturated it is sent ${weight} job(s) for each one of a key of weight 1.`,
    );
  },
  async 'devices drain'(db, accountId, _flags, args) {
    const id = required(args[0], 'a device id: devices drain dev_…');
    if (!(await drainDevice(db, accountId, id, true))) throw new UsageError(`No enrolled device ${id}.`);
    note(
      `Draining ${id}: it finishes the jobs it was sent and takes no new one; "devices list" shows it drained then.`,
    );
  },
  async 'devices undrain'(db, accountId, _flags, args) {
    const id = required(args[0], 'a device id: devices undrain dev_…');
    if (!(await drainDevice(db, accountId, id, false))) throw new UsageError(`No enrolled device ${id}.`);
    note(`${id} takes jobs again.`);
  },
  async 'devices label'(db, accountId, flags, args) {
    const id = required(args[0], 'a device id: devices label dev_… --set gpu,site:paris');
    if (flags.set === undefined) throw new UsageError('Expected --set a,b (or --set "" to clear the labels).');
    const labels = split(flags.set);
    if (!(await setDeviceLabels(db, accountId, id, labels))) throw new UsageError(`No enrolled device ${id}.`);
    note(
      `${id} is labelled ${labels.length > 0 ? labels.join(', ') : 'with nothing of yours'}; keys with --pool label:<name> take it.`,
    );
  },
  async 'devices list'(db, accountId, flags) {
    const devices = await listDevices(db, accountId);
    const sent = await sentJobsByDevice(db, accountId);
    const service = (d: Device) => drainState(d, sent.get(d.id) ?? 0);
    if (flags.json)
      return out(
        JSON.stringify(
          devices.map((d) => ({
            ...d,
            ready: isReady(d),
            service: service(d) ?? 'in service',
            allLabels: [...deviceLabels(d)].sort(),
          })),
          null,
          2,
        ),
      );
    table([
      ['ID', 'NAME', 'STATE', 'LAST SEEN', 'VOICES', 'STT MODELS', 'LABELS'],
      ...devices.map((d) => [
        d.id,
        d.name,
        (d.revokedAt ? 'revoked' : isReady(d) ? 'online' : 'offline') + (service(d) ? ` (${service(d)})` : ''),
        iso(d.lastSeenAt),
        String(d.capabilities?.tts.voices.length ?? '-'),
        d.capabilities?.stt.models.map((m) => m.name).join(',') || '-',
        d.labels.join(',') || '-',
      ]),
    ]);
  },
  async 'credits add'(db, accountId, flags) {
    const amount = wholeNumber(required(flags.amount, '--amount N'), '--amount')!;
    out(String(await addCredits(db, accountId, amount)));
    note('That is the new credit balance.');
  },
  async 'credits show'(db, accountId) {
    const account = await getAccount(db, accountId);
    out(String(account.credits));
  },
  async 'storage quota'(db, accountId, flags) {
    await setStorageQuota(db, accountId, wholeNumber(required(flags.bytes, '--bytes N'), '--bytes')!);
    const account = await getAccount(db, accountId);
    out(`${account.storageUsedBytes} of ${account.storageQuotaBytes} bytes in use`);
  },
  async 'admin password'(db, accountId) {
    const password = (await ensureAdminUser(db, accountId)) ?? (await resetPassword(db));
    out(password);
    note(`The portal password of ${ADMIN_USERNAME} above is shown only this once; its sessions were signed out.`);
  },
};

async function resetPassword(db: Database): Promise<string> {
  const { randomBase62 } = await import('../data/secret-token');
  const password = randomBase62(20);
  await setPassword(db, ADMIN_USERNAME, password);
  return password;
}

export const ADMIN_COMMANDS = Object.keys(COMMANDS);

/** Runs one administration command against the relay's database (PGlite while no relay holds it, or PostgreSQL). */
export async function runAdminCommand(
  name: string,
  args: string[],
  flags: AdminFlags,
  options: ResolvedRelayOptions,
): Promise<void> {
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`Unknown command "${name}".`);
  const db = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir, log: silentLogger });
  try {
    const account = await ensureAccount(db);
    await command(db, account.id, flags, args);
  } finally {
    await db.close();
  }
}
