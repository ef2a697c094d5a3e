/** Small checks the kinds share when a stored record is read back from disk (src/jobs/record-check.ts). */
import type { SttOptions } from '../../contract/types';
import { compileValidators, type Validators } from '../../contract/validation';

const SAFE_FILE_NAME = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,200}$/;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
export const isString = (value: unknown): boolean => typeof value === 'string';
export const isCount = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 0;
export const isSafeFileName = (value: unknown): boolean => typeof value === 'string' && SAFE_FILE_NAME.test(value);
/** A kind only the editor and the command line make. */
export const isLocalOrigin = (origin: unknown): boolean => origin === 'editor' || origin === 'cli' || origin === 'mcp';

/** Compiled on first use, once per process: the same validators the API answers 422 with. */
let validators: Validators | undefined;
export const schema = (): Validators => (validators ??= compileValidators());

/** An input whose options are a transcription's (STT, alignment), checked as POST /stt/jobs checks them, every default filled in. */
export function withCheckedSttOptions<I extends { options: SttOptions }>(input: I): { input: I } | { problem: string } {
  const checked = schema().sttOptions({ ...input.options } as unknown as Record<string, string>);
  return checked.ok ? { input: { ...input, options: checked.value } } : { problem: checked.message };
}
