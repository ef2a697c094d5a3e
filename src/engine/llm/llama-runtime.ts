/**
 * node-llama-cpp inside the engine process: the library loaded once (prebuilt CPU binaries, never a build),
 * the last model kept warm with one context, and one call that answers a chat prompt as JSON under a
 * JSON-schema grammar. Nothing here runs in the server's or the extension host's process.
 */
import os from 'node:os';
import type { Llama, LlamaContext, LlamaGrammar, LlamaModel } from 'node-llama-cpp';
import { UserFacingError } from '../../engine-api/protocol';

/** Enough for a system prompt, a cue with its neighbours, and the longest answer (src/translate/translate-prompt.ts). */
export const LLM_CONTEXT_SIZE = 2048;

interface WarmModel {
  path: string;
  model: LlamaModel;
  context: LlamaContext;
}

let llama: Promise<Llama> | undefined;
let warm: WarmModel | undefined;
/** Grammars by their schema's JSON: a translation asks with a handful of schemas, over and over. */
const grammars = new Map<string, LlamaGrammar>();

/**
 * Threads for generation: all cores but one, so the server and an interactive engine process keep one. More
 * threads than free cores make llama.cpp's spinning threads wait on each other and run many times slower.
 */
export function generationThreads(cores = os.availableParallelism?.() ?? os.cpus().length): number {
  return Math.max(1, Math.min(8, cores - 1));
}

/**
 * The prebuilt binaries to load: the CPU build everywhere but on Apple silicon, where node-llama-cpp publishes
 * only the Metal build (the one the packager puts in that platform's .vsix, scripts/platforms.mjs).
 */
export const prebuiltGpu = (platform = process.platform, arch = process.arch): false | 'metal' =>
  platform === 'darwin' && arch === 'arm64' ? 'metal' : false;

async function library(): Promise<Llama> {
  llama ??= import('node-llama-cpp').then(
    ({ getLlama }) => getLlama({ gpu: prebuiltGpu(), build: 'never', progressLogs: false, logLevel: 'error' as never }),
    (error: unknown) => {
      llama = undefined;
      throw new UserFacingError(
        `The language model runtime (node-llama-cpp) is not part of this installation, so nothing can be translated here: ${error instanceof Error ? error.message : String(error)}`,
      );
    },
  );
  return llama;
}

/** The model at `modelPath` with its context, loaded on first use and kept until another model is asked for. */
export async function warmModel(modelPath: string): Promise<WarmModel> {
  if (warm?.path === modelPath) return warm;
  if (warm) {
    const old = warm;
    warm = undefined;
    await old.context.dispose();
    await old.model.dispose();
  }
  const lib = await library();
  const model = await lib.loadModel({ modelPath });
  const context = await model.createContext({
    contextSize: Math.min(LLM_CONTEXT_SIZE, model.trainContextSize),
    threads: generationThreads(),
  });
  warm = { path: modelPath, model, context };
  return warm;
}

export interface JsonAnswer {
  /** The answer as generated: JSON text the grammar allowed. */
  text: string;
  /** Tokens generated. */
  tokens: number;
}

/**
 * Answers one chat prompt with JSON text following `schema` (the grammar allows nothing else). Each call
 * starts from an empty conversation: no cue's answer leaks into the next prompt.
 */
export async function answerAsJson(
  modelPath: string,
  prompt: { system: string; user: string },
  schema: object,
  maxTokens: number,
): Promise<JsonAnswer> {
  const { LlamaChatSession } = await import('node-llama-cpp');
  const lib = await library();
  const { context } = await warmModel(modelPath);
  const key = JSON.stringify(schema);
  let grammar = grammars.get(key);
  if (!grammar) {
    grammar = await lib.createGrammarForJsonSchema(schema as never);
    grammars.set(key, grammar);
  }
  const sequence = context.getSequence();
  try {
    const session = new LlamaChatSession({ contextSequence: sequence, systemPrompt: prompt.system });
    let tokens = 0;
    const text = await session.prompt(prompt.user, {
      grammar,
      maxTokens,
      onToken: (chunk) => void (tokens += chunk.length),
    });
    session.dispose({ disposeSequence: false });
    return { text, tokens };
  } finally {
    await sequence.dispose();
  }
}
