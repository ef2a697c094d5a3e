/**
 * One live transcription session, apart from its WebSocket: reads OpenAI Realtime client events, keeps the
 * uncommitted audio, detects turns from the engine's VAD looks, sends partial text that only grows
 * (LocalAgreement-2, at a bounded cost: partial-text.ts) and a completed transcript per committed utterance,
 * decoded as a file job would be. Engine work goes one look at a time per session, a committed utterance
 * before any new look; a look that waited for the engine covers the newest audio, never a queue of old ones.
 */
import { randomBytes } from 'node:crypto';
import type { LiveWindowResult } from '../engine-api/protocol';
import type { LiveLook, LiveLookPlan, LiveRecognition, LiveSessionFiles, LookRank } from '../jobs/live-recognition';
import { TARGET_RATE } from './audio-input';
import { inlineAudio, type AudioConverter, type AudioStream } from './audio-thread';
import { SampleBuffer } from './sample-buffer';
import {
  applyBetaSession,
  applyGaSession,
  ConfigProblem,
  defaultConfig,
  describeSession,
  type SessionConfig,
  type SessionForm,
} from './session-config';
import { PartialText, tokenCap } from './partial-text';
import { SpeechTrack } from './speech-track';
import { findTurnEnd } from './turns';

export type ServerEvent = Record<string, unknown> & { type: string };

export interface LiveSessionDeps {
  send(event: ServerEvent): void;
  recognition: Pick<LiveRecognition, 'look'>;
  files: LiveSessionFiles;
  /** The installed model file a session's `model` names, or a ConfigProblem. */
  resolveModel(model: string): Promise<string>;
  form: SessionForm;
  /** Where base64 audio becomes 16 kHz samples: the server's audio threads; in place when not given. */
  audio?: AudioConverter;
}

/** A look at new audio every this many samples (0.32 s) while turn detection is on. */
const LOOK_EVERY = Math.round(0.32 * TARGET_RATE);
/** Whisper's window: an utterance this long is committed even without a pause. */
const MAX_ITEM = 30 * TARGET_RATE;
/** Audio waiting for the engine beyond this (uncommitted, or committed and not yet decoded) is refused with an error event (5 minutes). */
const MAX_BUFFER = 300 * TARGET_RATE;
/**
 * The shortest buffer a commit accepts, as OpenAI's (100 ms of what the client sent). Resampling 24 or 8 kHz
 * input holds back its last 1.2–2.3 ms until more arrives, so exactly 100 ms sent is a little less here: the
 * allowance keeps such a commit from being refused as "99 ms".
 */
const MIN_COMMIT = Math.round(0.1 * TARGET_RATE) - Math.round(0.003 * TARGET_RATE);
/** Kept after the end of speech in a committed utterance, at most (VAD already pads 30 ms). */
const TAIL = Math.round(0.1 * TARGET_RATE);
/** The engine's limit on a prompt; the session's own prompt is at most 1024 characters, the agreed text 200 more. */
const PROMPT_LIMIT = 1024;
/** Each look's VAD runs again over this much audio an earlier look saw (Silero settles in about 0.1 s). */
const VAD_OVERLAP = Math.round(0.5 * TARGET_RATE);

/** Speech that VAD heard end this close to a look's end may still be going on (Silero's frames, its 100 ms minimum silence). */
const TALKING_SLACK = Math.round(0.15 * TARGET_RATE);

const ms = (samples: number): number => Math.round((samples / TARGET_RATE) * 1000);
const newId = (prefix: string): string => `${prefix}_${randomBytes(11).toString('hex')}`;

interface Utterance {
  itemId: string;
  start: number;
  pcm: Int16Array;
  sent: string;
}

export class LiveSession {
  readonly id = newId('sess');
  private config: SessionConfig = defaultConfig();
  private modelPath: string | undefined;
  private input: AudioStream;
  private readonly buffer = new SampleBuffer();
  private readonly controller = new AbortController();
  /** Bumped by commit and clear: a look that started before them is stale. */
  private generation = 0;
  private lookedUpTo = 0;
  private speaking: { itemId: string; start: number; partial: PartialText } | null = null;
  private readonly speech = new SpeechTrack();
  private readonly finals: Utterance[] = [];
  /** Samples of the committed utterance the engine is decoding now. */
  private decoding = 0;
  private previousItem: string | null = null;
  private busy = false;
  private closed = false;
  private warnedNoVad = false;

  constructor(private readonly deps: LiveSessionDeps) {
    this.input = (deps.audio ?? inlineAudio).open(this.config.format);
  }

  async open(): Promise<void> {
    this.modelPath = await this.deps.resolveModel(this.config.model);
    this.deps.send({
      type: this.deps.form === 'beta' ? 'transcription_session.created' : 'session.created',
      session: this.describe(this.deps.form),
    });
  }

  /** Ends the session: the look in flight is abandoned (its engine process ended) and the files removed. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.close();
    this.controller.abort(new Error('The live session closed.'));
    await this.deps.files.release();
  }

  /** One text frame from the client. */
  async receive(text: string): Promise<void> {
    let event: unknown;
    try {
      event = JSON.parse(text);
    } catch {
      return this.error('invalid_json', 'The event is not valid JSON.', null);
    }
    if (
      typeof event !== 'object' ||
      event === null ||
      Array.isArray(event) ||
      typeof (event as { type?: unknown }).type !== 'string'
    ) {
      return this.error('invalid_event', 'An event must be a JSON object with a string "type".', 'type');
    }
    const fields = event as Record<string, unknown> & { type: string };
    const eventId = typeof fields.event_id === 'string' ? fields.event_id.slice(0, 100) : null;
    try {
      await this.dispatch(fields, eventId);
    } catch (error) {
      if (error instanceof ConfigProblem) return this.error('invalid_value', error.message, error.param, eventId);
      throw error;
    }
  }

  private async dispatch(event: Record<string, unknown> & { type: string }, eventId: string | null): Promise<void> {
    switch (event.type) {
      case 'session.update':
      case 'transcription_session.update': {
        const form: SessionForm = event.type === 'session.update' ? 'ga' : 'beta';
        const next =
          form === 'ga' ? applyGaSession(this.config, event.session) : applyBetaSession(this.config, event.session);
        const modelPath = next.model === this.config.model ? this.modelPath : await this.deps.resolveModel(next.model);
        if (next.format !== this.config.format) {
          this.input.close();
          this.input = (this.deps.audio ?? inlineAudio).open(next.format);
        }
        this.config = next;
        this.modelPath = modelPath;
        this.deps.send({
          type: form === 'ga' ? 'session.updated' : 'transcription_session.updated',
          session: this.describe(form),
        });
        return;
      }
      case 'input_audio_buffer.append':
        return this.append(event.audio, eventId);
      case 'input_audio_buffer.commit':
        if (this.buffer.length < MIN_COMMIT) {
          return this.error(
            'input_audio_buffer_commit_empty',
            `Error committing input audio buffer: buffer too small. Expected at least 100ms of audio, but buffer only has ${Math.min(99, ms(this.buffer.length))}ms of audio.`,
            null,
            eventId,
          );
        }
        this.commit(this.buffer.end, false);
        return;
      case 'input_audio_buffer.clear':
        this.buffer.clear();
        this.speech.clear();
        this.generation += 1;
        this.lookedUpTo = this.buffer.end;
        this.speaking = null;
        this.deps.send({ type: 'input_audio_buffer.cleared' });
        return;
      default:
        return this.error(
          'unsupported_event',
          `This transcription session does not handle ${JSON.stringify(event.type.slice(0, 100))} events.`,
          'type',
          eventId,
        );
    }
  }

  private async append(audio: unknown, eventId: string | null): Promise<void> {
    // Checked, decoded and resampled off the event loop (audio-thread.ts); the session waits for it in order.
    const samples = typeof audio === 'string' ? await this.input.push(audio) : null;
    if (this.closed) return;
    if (samples === null) {
      return this.error(
        'invalid_value',
        "audio must be base64-encoded audio in the session's input format.",
        'audio',
        eventId,
      );
    }
    const waiting = this.finals.reduce((sum, utterance) => sum + utterance.pcm.length, this.decoding);
    if (this.buffer.length + waiting + samples.length > MAX_BUFFER) {
      return this.error(
        'input_audio_buffer_full',
        waiting > 0
          ? `${MAX_BUFFER / TARGET_RATE} s of audio at most may wait for the engine, committed utterances included: wait for their transcripts before sending more.`
          : `The input audio buffer holds ${MAX_BUFFER / TARGET_RATE} s at most: commit, or let turn detection keep up.`,
        'audio',
        eventId,
      );
    }
    this.buffer.append(samples);
    this.pump();
  }

  /** Commits the buffered audio up to sample `end` as one utterance; `detected`: turn detection ended it. */
  private commit(end: number, detected: boolean): void {
    const speaking = this.speaking;
    const itemId = speaking?.itemId ?? newId('item');
    const start = speaking?.start ?? this.buffer.start;
    if (detected || speaking)
      this.deps.send({ type: 'input_audio_buffer.speech_stopped', audio_end_ms: ms(end), item_id: itemId });
    this.deps.send({ type: 'input_audio_buffer.committed', item_id: itemId, previous_item_id: this.previousItem });
    this.deps.send({
      type: this.deps.form === 'beta' ? 'conversation.item.created' : 'conversation.item.added',
      previous_item_id: this.previousItem,
      item: {
        id: itemId,
        object: 'realtime.item',
        type: 'message',
        status: 'completed',
        role: 'user',
        content: [{ type: 'input_audio', transcript: null }],
      },
    });
    this.previousItem = itemId;
    this.finals.push({ itemId, start, pcm: this.buffer.slice(start, end), sent: speaking?.partial.text ?? '' });
    this.buffer.dropBefore(end);
    this.speech.dropBefore(end);
    this.speaking = null;
    this.generation += 1;
    this.lookedUpTo = this.buffer.start;
    this.pump();
  }

  /** Starts the next piece of engine work, if none runs: a committed utterance first, else a look at new audio. */
  private pump(): void {
    if (this.busy || this.closed) return;
    const utterance = this.finals.shift();
    if (utterance) {
      this.decoding = utterance.pcm.length;
      this.run(() => this.finish(utterance).finally(() => (this.decoding = 0)));
      return;
    }
    if (this.config.turnDetection && (this.buffer.end - this.lookedUpTo >= LOOK_EVERY || this.turnMayHaveEnded()))
      this.run(() => this.lookAtBuffer());
  }

  /**
   * Whether the last speech VAD heard ended at least the turn's silence before the newest audio: the look that
   * can end the turn then comes at once, not at the next LOOK_EVERY, so `speech_stopped` follows the configured
   * silence by the time a chunk takes to arrive, not by up to a look interval more.
   */
  private turnMayHaveEnded(): boolean {
    if (!this.speaking || this.buffer.end <= this.lookedUpTo) return false;
    return this.silenceReached(this.buffer.end);
  }

  /** Whether the audio up to sample `to` holds the turn's silence after the last speech VAD heard. */
  private silenceReached(to: number): boolean {
    const turn = this.config.turnDetection;
    const last = this.speech.ranges.at(-1);
    return !!turn && !!last && to - last.end >= Math.round((turn.silenceMs / 1000) * TARGET_RATE);
  }

  /**
   * Whether a partial decode up to `to` may have new words: the last look heard the speaker still talking at
   * its end, and this look is not the one that may end the turn (the final decode follows that one at once).
   */
  private worthDecoding(to: number): boolean {
    const last = this.speech.ranges.at(-1);
    return last !== undefined && last.end >= this.lookedUpTo - TALKING_SLACK && !this.silenceReached(to);
  }

  private run(work: () => Promise<void>): void {
    this.busy = true;
    work()
      .catch((error: unknown) => {
        if (!this.closed)
          this.error(
            'server_error',
            `The speech engine failed: ${error instanceof Error ? error.message : String(error)}`,
            null,
            null,
            'server_error',
          );
      })
      .finally(() => {
        this.busy = false;
        this.pump();
      });
  }

  /** The settings every look carries; `final`: a committed utterance, decoded as a file job would be. */
  private lookSettings(decode: boolean, final: boolean): LiveLook {
    return {
      modelPath: this.modelPath as string,
      language: this.config.language ?? 'auto',
      decode,
      ...(final ? {} : { preview: true }),
      vadThreshold: this.config.turnDetection?.threshold ?? 0.5,
      ...(this.config.prompt ? { prompt: this.config.prompt } : {}),
      // Any noise reduction type cleans the audio the same way (GTCRN); null leaves it as sent.
      ...(this.config.noiseReduction ? { denoise: true } : {}),
    };
  }

  private look(plan: (load: { waiting: number }) => LiveLookPlan, rank: LookRank): Promise<LiveWindowResult> {
    return this.deps.recognition.look(this.deps.files, plan, this.controller.signal, rank);
  }

  /**
   * One look at the uncommitted audio, planned when the engine is free for it: VAD over what came since the
   * last look (and VAD_OVERLAP before), and while someone speaks, a partial decode of the audio since the
   * partial text's trim point, when enough new audio came and no other look waits for the engine.
   */
  private async lookAtBuffer(): Promise<void> {
    const generation = this.generation;
    const speaking = this.speaking;
    let from = 0;
    let vadFrom = 0;
    let to = 0;
    let decodeFrom: number | null = null;
    const result = await this.look(({ waiting }) => {
      to = this.buffer.end;
      vadFrom = Math.max(this.buffer.start, this.lookedUpTo - VAD_OVERLAP);
      const partial = speaking?.partial;
      const window =
        partial && generation === this.generation && partial.due(to) && waiting === 0 && this.worthDecoding(to)
          ? partial.window()
          : null;
      decodeFrom = window ? Math.max(this.buffer.start, window.from) : null;
      from = Math.min(vadFrom, decodeFrom ?? vadFrom);
      const look = this.lookSettings(decodeFrom !== null, false);
      // The session's prompt first (the client's spellings), then the agreed words just before the window.
      const prompt = [this.config.prompt, window?.prompt].filter(Boolean).join(' ').slice(0, PROMPT_LIMIT);
      return {
        pcm: this.buffer.slice(from, to),
        look: {
          ...look,
          ...(prompt ? { prompt } : {}),
          speechFrom: (vadFrom - from) / TARGET_RATE,
          ...(decodeFrom !== null
            ? { decodeFrom: (decodeFrom - from) / TARGET_RATE, maxTokens: tokenCap(to - decodeFrom) }
            : {}),
        },
      };
    }, 'look');
    const turn = this.config.turnDetection;
    if (this.closed || generation !== this.generation || !turn) return;
    this.lookedUpTo = to;
    if (result.speech === null) {
      if (!this.warnedNoVad)
        this.error(
          'vad_model_missing',
          'Turn detection needs the Silero VAD model: install it, or set turn_detection to null and commit yourself.',
          'turn_detection',
        );
      this.warnedNoVad = true;
      return;
    }
    this.speech.merge(
      vadFrom,
      result.speech.map((range) => ({
        start: from + Math.round(range.start * TARGET_RATE),
        end: from + Math.round(range.end * TARGET_RATE),
      })),
    );
    const ranges = this.speech.ranges;
    const padding = Math.round((turn.prefixPaddingMs / 1000) * TARGET_RATE);
    if (!this.speaking) {
      if (ranges.length === 0) {
        this.buffer.dropBefore(to - padding);
        return;
      }
      const start = Math.max(this.buffer.start, ranges[0].start - padding);
      this.speaking = { itemId: newId('item'), start, partial: new PartialText(start) };
      this.buffer.dropBefore(start);
      this.deps.send({
        type: 'input_audio_buffer.speech_started',
        audio_start_ms: ms(start),
        item_id: this.speaking.itemId,
      });
    } else if (decodeFrom !== null) {
      const offset = (decodeFrom - from) / TARGET_RATE;
      const words = result.words.map((word) => ({ ...word, start: word.start - offset, end: word.end - offset }));
      this.sendDelta(
        this.speaking.itemId,
        this.speaking.partial.text,
        this.speaking.partial.update(decodeFrom, to, words),
      );
    }
    const speech = ranges.filter((range) => range.end > (this.speaking?.start ?? this.buffer.start));
    const end = findTurnEnd(speech, to, Math.round((turn.silenceMs / 1000) * TARGET_RATE));
    if (end !== null) this.commit(Math.min(to, end + TAIL, speech.find((r) => r.start > end)?.start ?? to), true);
    else if (this.speaking && to - this.speaking.start >= MAX_ITEM) this.commit(to, true);
  }

  /** Sends the released `words` as one delta; `before`: the item's text sent until now. */
  private sendDelta(itemId: string, before: string, words: string[]): void {
    if (words.length === 0) return;
    this.deps.send({
      type: 'conversation.item.input_audio_transcription.delta',
      item_id: itemId,
      content_index: 0,
      delta: `${before.length > 0 ? ' ' : ''}${words.join(' ')}`,
    });
  }

  private async finish(utterance: Utterance): Promise<void> {
    let result: LiveWindowResult;
    try {
      result = await this.look(() => ({ pcm: utterance.pcm, look: this.lookSettings(true, true) }), 'final');
    } catch (error) {
      if (this.closed) return;
      this.deps.send({
        type: 'conversation.item.input_audio_transcription.failed',
        item_id: utterance.itemId,
        content_index: 0,
        error: {
          type: 'server_error',
          code: 'transcription_failed',
          message: error instanceof Error ? error.message : String(error),
          param: null,
        },
      });
      return;
    }
    if (this.closed) return;
    const sent = utterance.sent;
    // The rest of the text as one last delta, when it extends what was sent; deltas never take words back.
    if (result.text.startsWith(sent) && result.text.length > sent.length) {
      this.deps.send({
        type: 'conversation.item.input_audio_transcription.delta',
        item_id: utterance.itemId,
        content_index: 0,
        delta: result.text.slice(sent.length),
      });
    }
    const offset = utterance.start / TARGET_RATE;
    const round = (seconds: number): number => Math.round((seconds + offset) * 1000) / 1000;
    this.deps.send({
      type: 'conversation.item.input_audio_transcription.completed',
      item_id: utterance.itemId,
      content_index: 0,
      transcript: result.text,
      usage: { type: 'duration', seconds: Math.ceil(result.durationSeconds) },
      language: result.language,
      // Our extension: each word's start and end, in seconds since the session's first audio.
      words: result.words.map((word) => ({ word: word.text, start: round(word.start), end: round(word.end) })),
    });
  }

  private describe(form: SessionForm): Record<string, unknown> {
    return describeSession(this.id, this.config, form);
  }

  private error(
    code: string,
    message: string,
    param: string | null,
    eventId: string | null = null,
    type = 'invalid_request_error',
  ): void {
    this.deps.send({ type: 'error', error: { type, code, message, param, event_id: eventId } });
  }
}
