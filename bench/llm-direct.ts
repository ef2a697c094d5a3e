/**
 * node-llama-cpp called directly, with nothing of ours around it: the reference the `llm` bench compares our
 * engine with. Run as its own process (`node --import tsx bench/llm-direct.ts <model> <rounds>`); prints one
 * JSON line: tokens and seconds of each round, and the process's peak memory.
 */
import { generationThreads, LLM_CONTEXT_SIZE } from '../src/engine/llm/llama-runtime';
import { LLM_BENCH_PROMPT, LLM_BENCH_SCHEMA, LLM_BENCH_MAX_TOKENS } from './llm-prompt';

async function main(): Promise<void> {
  const [modelPath, roundsArg] = process.argv.slice(2);
  // node-llama-cpp is ESM only, and this file runs as CommonJS.
  const { getLlama, LlamaChatSession } = await import('node-llama-cpp');
  const llama = await getLlama({ gpu: false, build: 'never' });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({
    contextSize: Math.min(LLM_CONTEXT_SIZE, model.trainContextSize),
    threads: generationThreads(),
  });
  const grammar = await llama.createGrammarForJsonSchema(LLM_BENCH_SCHEMA as never);
  const rounds: Array<{ tokens: number; seconds: number }> = [];
  for (let i = 0; i < Number(roundsArg); i++) {
    const sequence = context.getSequence();
    const session = new LlamaChatSession({ contextSequence: sequence, systemPrompt: LLM_BENCH_PROMPT.system });
    let tokens = 0;
    const started = process.hrtime.bigint();
    await session.prompt(LLM_BENCH_PROMPT.user, {
      grammar,
      maxTokens: LLM_BENCH_MAX_TOKENS,
      onToken: (chunk) => void (tokens += chunk.length),
    });
    rounds.push({ tokens, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
    session.dispose({ disposeSequence: false });
    await sequence.dispose();
  }
  console.log(JSON.stringify({ rounds, maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
  process.exit(0);
}

void main();
