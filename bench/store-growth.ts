/**
 * Store growth: the cost of creating a job and of one state transition with 100, 10 000 and 100 000 jobs
 * in history (bench/store.ts measures; medians of 600 each). Target: flat within 2× across that range.
 * lowdb alone rewrites its whole file on every write; the store appends each change to a journal and
 * folds it into the snapshot only once the journal is as long as the history (src/jobs/store.ts).
 */
import { figure, type Figure } from './report';
import { measureStore } from './store';

export async function runStoreGrowthBench(sizes: readonly number[] = [100, 10_000, 100_000]): Promise<Figure[]> {
  const figures: Figure[] = [];
  const creates: number[] = [];
  const moves: number[] = [];
  for (const size of sizes) {
    const f = await measureStore(size);
    creates.push(f.createMs);
    moves.push(f.transitionMs);
    figures.push(
      figure(
        'store',
        `create with ${size} jobs in history (median)`,
        f.createMs,
        'ms',
        undefined,
        `mean ${f.createMeanMs.toFixed(3)} ms with compaction`,
      ),
    );
    figures.push(
      figure(
        'store',
        `transition with ${size} jobs in history (median)`,
        f.transitionMs,
        'ms',
        undefined,
        `mean ${f.transitionMeanMs.toFixed(3)} ms`,
      ),
    );
  }
  const spread = (values: number[]): number => Math.max(...values) / Math.min(...values);
  figures.push(
    figure('store', `create cost, largest / smallest across ${sizes.join(', ')}`, spread(creates), '×', {
      kind: 'max',
      value: 2,
    }),
  );
  figures.push(
    figure('store', `transition cost, largest / smallest across ${sizes.join(', ')}`, spread(moves), '×', {
      kind: 'max',
      value: 2,
    }),
  );
  return figures;
}
