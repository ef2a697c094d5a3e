/** The speeds devices measured and reported (src/link/speeds.ts), one row per device, engine and model. */
import type { SpeedReport } from '../../link/speeds';
import type { Queryable } from '../db/database';

interface SpeedRow {
  device_id: string;
  kind: 'tts' | 'stt';
  engine: string;
  model: string;
  real_time_factor: number;
  samples: number;
  updated_at: number;
}

/** A device's report replaces what it said before: the device sends all its figures each time. */
export async function saveSpeeds(
  tx: Queryable,
  deviceId: string,
  speeds: readonly SpeedReport[],
  now = Date.now(),
): Promise<void> {
  await tx.query('DELETE FROM device_speeds WHERE device_id = $1', [deviceId]);
  for (const s of speeds) {
    await tx.query(
      `INSERT INTO device_speeds (device_id, kind, engine, model, real_time_factor, samples, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (device_id, kind, engine, model) DO UPDATE SET real_time_factor = EXCLUDED.real_time_factor, samples = EXCLUDED.samples, updated_at = EXCLUDED.updated_at`,
      [deviceId, s.kind, s.engine, s.model, s.realTimeFactor, s.samples, now],
    );
  }
}

/** The speeds of an account's devices, by device id; a device that reported none is absent. */
export async function speedsByDevice(db: Queryable, accountId: number): Promise<Map<string, SpeedReport[]>> {
  const rows = await db.query<SpeedRow>(
    `SELECT s.* FROM device_speeds s JOIN devices d ON d.id = s.device_id WHERE d.account_id = $1 ORDER BY s.kind, s.engine, s.model`,
    [accountId],
  );
  const byDevice = new Map<string, SpeedReport[]>();
  for (const row of rows) {
    const list = byDevice.get(row.device_id) ?? [];
    list.push({
      kind: row.kind,
      engine: row.engine,
      model: row.model,
      realTimeFactor: Number(row.real_time_factor),
      samples: row.samples,
    });
    byDevice.set(row.device_id, list);
  }
  return byDevice;
}
