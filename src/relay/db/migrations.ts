/**
 * The relay's schema, as numbered migrations. Never edit a migration that has shipped: add the next one.
 * Times are int8 milliseconds since the Unix epoch; credits are stored in thousandths (milli-credits).
 */
export interface Migration {
  version: number;
  name: string;
  /** One statement each: PGlite's extended protocol runs a single statement per query. */
  statements: readonly string[];
}

const ACTIVE = `('queued', 'loading_model', 'processing')`;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, portal users, API keys, devices, jobs, rate windows',
    statements: [
      `CREATE TABLE accounts (
        id bigserial PRIMARY KEY,
        name text NOT NULL,
        credits_milli bigint NOT NULL DEFAULT 0,
        storage_quota_bytes bigint NOT NULL,
        storage_used_bytes bigint NOT NULL DEFAULT 0,
        created_at bigint NOT NULL
      )`,
      `CREATE TABLE users (
        id bigserial PRIMARY KEY,
        account_id bigint NOT NULL REFERENCES accounts(id),
        username text NOT NULL UNIQUE,
        password_hash text NOT NULL,
        created_at bigint NOT NULL
      )`,
      `CREATE TABLE sessions (
        token_hash text PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        csrf_token text NOT NULL,
        created_at bigint NOT NULL,
        expires_at bigint NOT NULL
      )`,
      `CREATE TABLE api_keys (
        id text PRIMARY KEY,
        account_id bigint NOT NULL REFERENCES accounts(id),
        name text NOT NULL,
        lookup text NOT NULL,
        secret_hash text NOT NULL,
        scopes jsonb NOT NULL,
        pool jsonb NOT NULL,
        rpm integer NOT NULL,
        max_concurrent integer NOT NULL,
        expires_at bigint,
        revoked_at bigint,
        created_at bigint NOT NULL,
        last_used_at bigint
      )`,
      'CREATE INDEX api_keys_lookup ON api_keys (lookup)',
      `CREATE TABLE devices (
        id text PRIMARY KEY,
        account_id bigint NOT NULL REFERENCES accounts(id),
        name text NOT NULL,
        token_lookup text NOT NULL,
        token_hash text NOT NULL,
        created_at bigint NOT NULL,
        revoked_at bigint,
        capabilities jsonb,
        session_id text,
        instance_id text,
        connected_at bigint,
        last_seen_at bigint
      )`,
      'CREATE INDEX devices_token_lookup ON devices (token_lookup)',
      `CREATE TABLE jobs (
        id uuid PRIMARY KEY,
        account_id bigint NOT NULL REFERENCES accounts(id),
        key_id text NOT NULL REFERENCES api_keys(id),
        device_id text REFERENCES devices(id),
        pinned boolean NOT NULL DEFAULT false,
        accepted boolean NOT NULL DEFAULT false,
        kind text NOT NULL,
        name text NOT NULL,
        status text NOT NULL,
        progress double precision NOT NULL DEFAULT 0,
        phase text,
        backend text,
        result jsonb,
        error text,
        created_at bigint NOT NULL,
        started_at bigint,
        finished_at bigint,
        request jsonb NOT NULL,
        text text,
        input_blob text,
        input_name text,
        input_bytes bigint NOT NULL DEFAULT 0,
        output_blob text,
        output_bytes bigint NOT NULL DEFAULT 0,
        storage_reserved_bytes bigint NOT NULL DEFAULT 0,
        credits_reserved_milli bigint NOT NULL DEFAULT 0,
        credits_charged_milli bigint,
        dispatched_session text,
        dispatched_at bigint,
        attempts integer NOT NULL DEFAULT 0
      )`,
      `CREATE INDEX jobs_key_active ON jobs (key_id) WHERE status IN ${ACTIVE}`,
      `CREATE INDEX jobs_device_active ON jobs (device_id) WHERE status IN ${ACTIVE}`,
      'CREATE INDEX jobs_files ON jobs (finished_at) WHERE output_blob IS NOT NULL OR input_blob IS NOT NULL',
      `CREATE TABLE rate_windows (
        key_id text NOT NULL,
        window_start bigint NOT NULL,
        requests integer NOT NULL,
        PRIMARY KEY (key_id, window_start)
      )`,
    ],
  },
  {
    version: 2,
    name: 'portal sign-in attempts per account and per address',
    statements: [
      `CREATE TABLE sign_in_windows (
        subject text NOT NULL,
        window_start bigint NOT NULL,
        attempts integer NOT NULL,
        PRIMARY KEY (subject, window_start)
      )`,
    ],
  },
  {
    version: 3,
    name: 'measured speed of each device per engine and model',
    statements: [
      `CREATE TABLE device_speeds (
        device_id text NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
        kind text NOT NULL,
        engine text NOT NULL,
        model text NOT NULL,
        real_time_factor double precision NOT NULL,
        samples integer NOT NULL,
        updated_at bigint NOT NULL,
        PRIMARY KEY (device_id, kind, engine, model)
      )`,
    ],
  },
  {
    version: 4,
    name: "device service: draining (no new jobs until put back), an operator's labels, each key's share",
    statements: [
      'ALTER TABLE devices ADD COLUMN draining boolean NOT NULL DEFAULT false',
      "ALTER TABLE devices ADD COLUMN labels jsonb NOT NULL DEFAULT '[]'::jsonb",
      'ALTER TABLE api_keys ADD COLUMN weight integer NOT NULL DEFAULT 1',
      'CREATE INDEX jobs_dispatched ON jobs (dispatched_at) WHERE dispatched_at IS NOT NULL',
    ],
  },
];
