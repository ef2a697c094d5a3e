/**
 * How the bench modules print a figure: one line, the figure beside its target and whether it meets it.
 * The figures are also returned, so bench/run.ts can write them all to bench/results/ as JSON.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface Target {
  /** `max`: the figure must not exceed `value`; `min`: it must be at least `value`. */
  kind: 'max' | 'min';
  value: number;
}

export interface Figure {
  bench: string;
  name: string;
  value: number;
  unit: string;
  target?: Target;
  /** Whether the figure meets its target (absent without one). */
  meets?: boolean;
  detail?: string;
}

const format = (value: number): string =>
  Math.abs(value) >= 100
    ? value.toFixed(0)
    : Math.abs(value) >= 10
      ? value.toFixed(1)
      : value.toFixed(value === 0 ? 0 : 3);

/** Prints the figure's line and returns it, with `meets` filled in. */
export function figure(
  bench: string,
  name: string,
  value: number,
  unit: string,
  target?: Target,
  detail?: string,
): Figure {
  const meets = target ? (target.kind === 'max' ? value <= target.value : value >= target.value) : undefined;
  const goal = target
    ? `  (target ${target.kind === 'max' ? '≤' : '≥'} ${format(target.value)}${unit ? ` ${unit}` : ''}) ${meets ? 'ok' : 'MISSES TARGET'}`
    : '';
  console.log(
    `${bench.padEnd(9)} ${name}: ${format(value)}${unit ? ` ${unit}` : ''}${goal}${detail ? `  [${detail}]` : ''}`,
  );
  return { bench, name, value, unit, target, meets, detail };
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Resident memory of a process in MB (Linux VmRSS, or VmHWM for the peak so far); null elsewhere. */
export function rssMb(pid: number, peak = false): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = (peak ? /VmHWM:\s+(\d+) kB/ : /VmRSS:\s+(\d+) kB/).exec(status);
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every `everyMs` until stopped; reports the highest seen. */
export function sampleRss(pid: () => number | undefined, everyMs = 25): { stop(): number | null } {
  let highest: number | null = null;
  const timer = setInterval(() => {
    const id = pid();
    const rss = id === undefined ? null : rssMb(id);
    if (rss !== null) highest = Math.max(highest ?? 0, rss);
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return highest;
    },
  };
}

/** The machine the figures come from, for the JSON and the README table. */
export function machine(): Record<string, unknown> {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    loadAverage: os.loadavg()[0],
  };
}
