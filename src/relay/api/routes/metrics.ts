/** GET /metrics: the relay's numbers in Prometheus' text format, for a scraper holding --metrics-token. */
import type Router from '@koa/router';
import { ApiError } from '../../../contract/errors';
import { DISPATCH_BUCKETS, JOB_KINDS, JOB_STATES, readRelayMetrics, type RelayMetrics } from '../../data/metrics';
import { secretMatches, sha256Hex } from '../../data/secret-token';
import type { RelayDeps, RelayState } from '../deps';

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

type Labels = Record<string, string>;

const labelText = (labels: Labels): string => {
  const pairs = Object.entries(labels).map(
    ([name, value]) => `${name}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`,
  );
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
};

/** One metric family: its HELP and TYPE lines, then its samples. */
function family(
  name: string,
  type: 'gauge' | 'histogram',
  help: string,
  samples: Array<[suffix: string, labels: Labels, value: number]>,
): string {
  const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`];
  for (const [suffix, labels, value] of samples)
    lines.push(`${name}${suffix}${labelText(labels)} ${Number.isFinite(value) ? value : 0}`);
  return lines.join('\n');
}

export function renderMetrics(metrics: RelayMetrics): string {
  const jobCount = (state: string, kind: string) =>
    metrics.jobs.find((j) => j.state === state && j.kind === kind)?.count ?? 0;
  const families = [
    family(
      'speech_relay_jobs',
      'gauge',
      'Jobs in the relay by state and kind (finished ones until they are deleted).',
      JOB_STATES.flatMap((state) =>
        JOB_KINDS.map((kind): [string, Labels, number] => ['', { state, kind }, jobCount(state, kind)]),
      ),
    ),
    family(
      'speech_relay_queue_depth',
      'gauge',
      'Queued jobs: waiting in the relay for a device (relay) or sent to a device that has not started them (device).',
      [
        ['', { where: 'relay' }, metrics.queue.waiting],
        ['', { where: 'device' }, metrics.queue.sent],
      ],
    ),
    family(
      'speech_relay_key_queue_depth',
      'gauge',
      'Jobs of each API key waiting in the relay to be sent to a device (keys with none are left out).',
      metrics.keys.map((k): [string, Labels, number] => ['', { key: k.keyId }, k.waiting]),
    ),
    family(
      'speech_relay_key_queue_wait_seconds',
      'gauge',
      'How long the oldest waiting job of each API key has waited to be sent to a device.',
      metrics.keys.map((k): [string, Labels, number] => ['', { key: k.keyId }, k.oldestWaitSeconds]),
    ),
    family(
      'speech_relay_dispatch_latency_seconds',
      'histogram',
      "Seconds from a job's creation (for STT: the start of its upload) to its sending to a device.",
      JOB_KINDS.flatMap((kind) => {
        const latency = metrics.dispatch[kind];
        return [
          ...DISPATCH_BUCKETS.map((le, i): [string, Labels, number] => [
            '_bucket',
            { kind, le: String(le) },
            latency.buckets[i],
          ]),
          ['_bucket', { kind, le: '+Inf' }, latency.count] as [string, Labels, number],
          ['_sum', { kind }, latency.sumSeconds] as [string, Labels, number],
          ['_count', { kind }, latency.count] as [string, Labels, number],
        ];
      }),
    ),
    family(
      'speech_relay_devices_online',
      'gauge',
      'Enrolled devices linked to any instance of the relay and heard from recently.',
      [['', {}, metrics.devices.online]],
    ),
    family('speech_relay_devices_enrolled', 'gauge', 'Devices enrolled and not revoked.', [
      ['', {}, metrics.devices.enrolled],
    ]),
    family(
      'speech_relay_instance_device_links',
      'gauge',
      "Devices linked to this instance (the other numbers are the whole relay's).",
      [['', {}, metrics.devices.linkedHere]],
    ),
    family(
      'speech_relay_storage_bytes',
      'gauge',
      "Bytes of uploads and outputs kept in the relay's storage, as counted against the quota.",
      [['', {}, metrics.storage.usedBytes]],
    ),
    family('speech_relay_storage_quota_bytes', 'gauge', 'The storage quota in bytes.', [
      ['', {}, metrics.storage.quotaBytes],
    ]),
  ];
  return `${families.join('\n')}\n`;
}

/** Off unless `deps.metricsToken` is set: then only `Authorization: Bearer <token>` is served. */
export function metricsRoutes(router: Router<RelayState>, deps: RelayDeps): void {
  const { metricsToken } = deps;
  if (!metricsToken) return;
  const expected = sha256Hex(metricsToken);
  router.get('/metrics', async (ctx) => {
    const given = /^Bearer (\S+)$/i.exec(ctx.get('Authorization'))?.[1];
    if (given === undefined || !secretMatches(given, expected)) {
      throw new ApiError(
        given === undefined ? 'AUTH_REQUIRED' : 'INVALID_API_KEY',
        "GET /metrics needs Authorization: Bearer <the relay's --metrics-token>.",
        {
          headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
        },
      );
    }
    const metrics = await readRelayMetrics(deps.db, {
      now: Date.now(),
      offlineAfterMs: deps.offlineAfterMs,
      instanceId: deps.instanceId,
    });
    ctx.type = METRICS_CONTENT_TYPE;
    ctx.body = renderMetrics(metrics);
  });
}
