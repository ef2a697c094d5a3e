/**
 * The language model's plumbing: the generated tiny random GGUF (meaningless as quality, so only the cost
 * around generation shows) answering the same translation prompt under the same JSON-schema grammar, through
 * our engine (EngineHost → engine process → node-llama-cpp, timed from this process, IPC included) and through
 * node-llama-cpp called directly in a process of its own. Rounds alternate so both see the same load.
 * Targets: tokens/s direct ÷ engine ≤ 1.1; engine peak RSS ÷ direct ≤ 1.1.
 */
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { EngineHost } from '../src/jobs/engine-host';
import { silentLogger } from '../src/util/log';
import { tinyLlmModel } from '../test/helpers/tiny-llm';
import { LLM_BENCH_MAX_TOKENS, LLM_BENCH_PROMPT, LLM_BENCH_SCHEMA } from './llm-prompt';
import { figure, sampleRss, type Figure } from './report';
import { engineConfigFromEnvironment } from '../src/config/engine-environment';

const ROUNDS = 5;

async function direct(modelPath: string): Promise<{ tokensPerSecond: number; maxRssMb: number; tokens: number }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, 'llm-direct.ts'), modelPath, String(ROUNDS + 1)],
    { cwd: path.join(__dirname, '..') },
  );
  const report = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    rounds: Array<{ tokens: number; seconds: number }>;
    maxRssBytes: number;
  };
  const timed = report.rounds.slice(1); // the first round warms the caches
  const tokens = timed.reduce((sum, r) => sum + r.tokens, 0);
  return {
    tokensPerSecond: tokens / timed.reduce((sum, r) => sum + r.seconds, 0),
    maxRssMb: report.maxRssBytes / 2 ** 20,
    tokens,
  };
}

export async function runLlmBench(): Promise<Figure[]> {
  const modelPath = await tinyLlmModel();
  const engine = new EngineHost({
    workerPath: path.join(__dirname, '..', 'dist', 'engine-worker.js'),
    log: silentLogger,
    config: () => engineConfigFromEnvironment(),
  });
  try {
    const signal = new AbortController().signal;
    let insideSeconds = 0;
    const ask = async (): Promise<{ tokens: number; seconds: number; rss: number }> => {
      const started = performance.now();
      const { result } = await engine.run(
        `llm-bench-${Math.random()}`,
        {
          kind: 'llm-generate',
          modelPath,
          prompt: LLM_BENCH_PROMPT,
          schema: LLM_BENCH_SCHEMA,
          maxTokens: LLM_BENCH_MAX_TOKENS,
        },
        { signal, onProgress: () => undefined },
      );
      JSON.parse(result.text); // well-formed, or the bench fails
      insideSeconds += result.seconds;
      return {
        tokens: result.tokens,
        seconds: (performance.now() - started) / 1000,
        rss: result.engineMaxRssBytes / 2 ** 20,
      };
    };
    await ask(); // loads the model and warms the caches, as the direct run's first round
    insideSeconds = 0;
    const rss = sampleRss(() => engine.pids[0]);
    let engineTokens = 0;
    let engineSeconds = 0;
    let engineRss = 0;
    let directRate = 0;
    let directRss = 0;
    // Alternating halves, so load on the shared machine falls on both.
    for (const half of [0, 1]) {
      const reference = await direct(modelPath);
      directRate += reference.tokensPerSecond / 2;
      directRss = Math.max(directRss, reference.maxRssMb);
      for (let i = 0; i < Math.ceil(ROUNDS / 2) + half; i++) {
        const round = await ask();
        engineTokens += round.tokens;
        engineSeconds += round.seconds;
        engineRss = Math.max(engineRss, round.rss);
      }
    }
    engineRss = Math.max(engineRss, rss.stop() ?? 0);
    const engineRate = engineTokens / engineSeconds;
    const load = os.loadavg()[0].toFixed(2);
    return [
      figure(
        'llm',
        'tokens/s through the engine (IPC included)',
        engineRate,
        'tokens/s',
        undefined,
        `tiny random GGUF, JSON-schema grammar, load ${load}`,
      ),
      figure(
        'llm',
        'tokens/s inside the engine process (no IPC)',
        engineTokens / insideSeconds,
        'tokens/s',
        undefined,
        'generation as the engine times it',
      ),
      figure(
        'llm',
        'tokens/s of node-llama-cpp called directly',
        directRate,
        'tokens/s',
        undefined,
        `same model, prompt, grammar and threads, load ${load}`,
      ),
      figure('llm', 'slowdown through the engine (direct ÷ engine tokens/s)', directRate / engineRate, '×', {
        kind: 'max',
        value: 1.1,
      }),
      figure(
        'llm',
        'engine process peak RSS',
        engineRss,
        'MB',
        undefined,
        "the engine also holds the job core's task code",
      ),
      figure(
        'llm',
        'engine peak RSS ÷ direct peak RSS',
        engineRss / directRss,
        '×',
        { kind: 'max', value: 1.1 },
        `direct: ${directRss.toFixed(0)} MB`,
      ),
    ];
  } finally {
    await engine.close();
  }
}
