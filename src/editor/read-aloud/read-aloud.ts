/**
 * Read Aloud in the editor: reads the document, the selection or from the cursor on, sentence by sentence
 * through the engine process into the player in the Speech Studio panel with the editor's pronunciation
 * lexicon, shows the reader bar (position, controls, speed, voice), highlights
 * what is spoken, follows edits of the text (src/read-aloud/resync.ts) and stops when its editor closes.
 * SSML (an `.ssml` file, a ```ssml block) is spoken by its markup, part by part, and what the engine could
 * not honour of it is listed in Problems. One reading at a time; a new one replaces it.
 */
import * as vscode from 'vscode';
import type { CastFile } from '../../cast/cast-file';
import { castOfFile, castVoiceSpans, readyCastVoice } from '../../cast/cast-voices';
import type { LexiconEntry } from '../../contract/types';
import type { SsmlTaskMarkup } from '../../engine-api/protocol';
import { castSentences, type VoicedSentence } from '../../read-aloud/cast-sentences';
import { engineSynthesizer } from '../../read-aloud/engine-speaker';
import { DEFAULT_PAUSE_SECONDS, ReadingSession, SPEEDS, type ReadingState } from '../../read-aloud/reading-session';
import { resync } from '../../read-aloud/resync';
import { readingParts, SsmlReadingError } from '../../text/reading-parts';
import { sourceRange, type ReadingSentence } from '../../text/reading-sentences';
import { audioFolders } from '../commands/narrate-selection';
import { reportError } from '../log';
import type { Services } from '../services';
import { workspaceLexiconFile } from '../workspace-lexicon';
import { offerNeuralVoice, type OfferOutcome } from './neural-voice-offer';
import { ReadingView } from './reading-view';
import { WebviewPlayer } from './webview-player';

export type ReadScope = 'cursor' | 'selection' | 'document';

/** What happened in the reading, in order, with milliseconds since the command (for tests and diagnostics). */
export type ReadAloudEvent =
  /** `voice`: the name of the voice that read it (a cast gives quotes their characters' voices). */
  | { type: 'audio'; index: number; at: number; durationSeconds: number; voice: string }
  | { type: 'started' | 'highlight'; index: number; at: number; text?: string }
  | { type: 'word'; index: number; text: string; at: number }
  /** The text changed: the reading goes on with `count` sentences, audio made ahead re-made from `remakeFrom`. */
  | { type: 'resync'; at: number; current: number; count: number; remakeFrom: number; currentEdited: boolean }
  /** The workspace lexicon file changed: `entries` apply from the next sentence. */
  | { type: 'lexicon'; at: number; entries: number }
  | { type: 'state'; state: ReadingState; at: number; reason?: string }
  | { type: 'player'; at: number };

export interface ReadAloudStatus {
  state: ReadingState | 'idle';
  current: number;
  count: number;
  speed: number;
  /** The voice reading (its name), while a reading is on. */
  voice?: string;
  document?: string;
  events: ReadAloudEvent[];
  /** The latest reading's offer of a neural voice: `pending` while the question is open. */
  voiceOffer?: OfferOutcome | 'pending';
  /** What the engine could not honour of the reading's SSML (`ssml phoneme` → why), as in a job's ignoredOptions. */
  ignored: Record<string, string>;
}

export const READ_ALOUD_COMMANDS = ['togglePause', 'stop', 'next', 'previous', 'faster', 'slower'] as const;
type ControlName = (typeof READ_ALOUD_COMMANDS)[number];

export class ReadAloud implements vscode.Disposable {
  private session: ReadingSession | undefined;
  private document: vscode.TextDocument | undefined;
  private sentences: readonly VoicedSentence[] = [];
  /** Where the reading ends in the document (the selection's end; the text's length for the rest). */
  private end = 0;
  private lexiconEntries: readonly LexiconEntry[] = [];
  /** The sentence highlighted as spoken; -1 before the first plays. */
  private highlighted = -1;
  private events: ReadAloudEvent[] = [];
  private startedAt = 0;
  private voiceOffer: OfferOutcome | 'pending' | undefined;
  /** The reading voice's language, whose abbreviations do not end a sentence. */
  private language = 'en';
  private voiceName = '';
  /** Each SSML text read, admitted once (its voices and audio files) whatever parts of it are spoken. */
  private ssmlMarkups = new Map<string, Promise<SsmlTaskMarkup>>();
  private ignored: Record<string, string> = {};
  private readonly skipped = vscode.languages.createDiagnosticCollection('speechStudio.readAloud');
  /** The document's cast: its quotes are read by their characters' voices (src/cast/cast-voices.ts). */
  private cast: CastFile | undefined;
  private readonly view = new ReadingView();
  private readonly player: WebviewPlayer;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly services: Services) {
    this.player = new WebviewPlayer(
      {
        onCommand: (name) =>
          (READ_ALOUD_COMMANDS as readonly string[]).includes(name) && this.control(name as ControlName),
        onClosed: () => this.stop('the player was closed'),
        onError: (message) => services.log.warn(`Read Aloud player: ${message}`),
        onReady: () => this.log({ type: 'player', at: 0 }),
      },
      services.log,
    );
    this.disposables = [
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document === this.document && event.contentChanges.length > 0) this.followEdit(event);
      }),
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (document === this.document) this.stop('its editor was closed');
      }),
      vscode.window.tabGroups.onDidChangeTabs(() => {
        if (this.document && !this.isOpenInTab(this.document.uri)) this.stop('its editor was closed');
      }),
    ];
    const lexiconWatcher = vscode.workspace.createFileSystemWatcher('**/.speech/lexicon.json');
    for (const on of [lexiconWatcher.onDidChange, lexiconWatcher.onDidCreate, lexiconWatcher.onDidDelete]) {
      this.disposables.push(on((uri) => uri.fsPath === workspaceLexiconFile() && void this.reloadLexicon()));
    }
    this.disposables.push(lexiconWatcher);
  }

  async read(scope: ReadScope): Promise<ReadAloudStatus | undefined> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showInformationMessage('Open a document to read it aloud.');
      return undefined;
    }
    const startedAt = Date.now();
    const { document } = editor;
    this.language = this.services.editorJobs.defaultVoice().voice.languageCode;
    const cast = await this.castOf(document);
    let found: { sentences: ReadingSentence[]; end: number };
    try {
      found = sentencesFor(editor, scope, this.language);
    } catch (error) {
      if (!(error instanceof SsmlReadingError)) throw error;
      void vscode.window.showErrorMessage(`Read Aloud cannot read this: ${error.message}`);
      return undefined;
    }
    const sentences = cast ? castSentences(found.sentences, castVoiceSpans(document.getText(), cast)) : found.sentences;
    const { end } = found;
    if (sentences.length === 0) {
      void vscode.window.showInformationMessage(
        scope === 'selection' ? 'The selection has nothing to read aloud.' : 'There is nothing to read aloud here.',
      );
      return undefined;
    }
    this.stop('a new reading started');
    const { voice } = this.services.editorJobs.admitTts({ text: sentences[0].text });
    this.voiceName = this.services.editorJobs.defaultVoice().voice.name;
    this.events = [];
    this.ignored = {};
    this.skipped.clear();
    this.ssmlMarkups = new Map();
    const folders = audioFolders(editor);
    const admitMarkup = (source: string): Promise<SsmlTaskMarkup> => {
      let markup = this.ssmlMarkups.get(source);
      if (!markup) this.ssmlMarkups.set(source, (markup = this.services.editorJobs.admitSsml(source, folders)));
      return markup;
    };
    this.startedAt = startedAt;
    // The player loads while the engine speaks the first sentence.
    this.player.open(`Read Aloud: ${vscode.workspace.asRelativePath(document.uri)}`);
    const server = await this.services.controller.ready();
    const config = vscode.workspace.getConfiguration('speechStudio.readAloud');
    this.lexiconEntries = await this.services.editorJobs.spokenLexicon();
    const session = new ReadingSession(sentences, {
      synthesize: engineSynthesizer(
        server.engine,
        voice,
        () => this.lexiconEntries,
        admitMarkup,
        (name) => readyCastVoice(this.services.voices, name)?.ref,
      ),
      player: this.player,
      speed: config.get<number>('speed', 1),
      pauseSeconds: config.get<number>('sentencePause', DEFAULT_PAUSE_SECONDS),
    });
    this.session = session;
    this.cast = cast;
    this.document = document;
    this.sentences = sentences;
    this.end = end;
    this.highlighted = -1;
    this.watch(session);
    this.player.connect(session);
    session.start();
    // Asked beside the reading, never before its first audio.
    this.voiceOffer = 'pending';
    void offerNeuralVoice(this.services).then((outcome) => (this.voiceOffer = outcome));
    return this.status();
  }

  control(name: ControlName): void {
    const session = this.session;
    if (!session) return;
    if (name === 'stop') this.stop('stopped by the reader');
    else session[name]();
    this.refreshStatus();
  }

  /** The reader bar's speed picker: the speeds Faster and Slower step through, the current one marked. */
  async chooseSpeed(): Promise<number | undefined> {
    const session = this.session;
    if (!session || session.isOver) {
      void vscode.window.showInformationMessage('Start Read Aloud first: the speed applies to the reading on.');
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      SPEEDS.map((speed) => ({
        label: `${speed}×`,
        description: speed === session.speed ? 'current' : speed === 1 ? 'as the voice speaks' : undefined,
        speed,
      })),
      { title: 'Read Aloud speed', placeHolder: 'From the next sentence on' },
    );
    if (!picked || this.session !== session) return undefined;
    session.setSpeed(picked.speed);
    this.refreshStatus();
    return picked.speed;
  }

  status(): ReadAloudStatus {
    const session = this.session;
    return {
      state: session?.state ?? 'idle',
      current: session?.current ?? 0,
      count: this.sentences.length,
      speed: session?.speed ?? 1,
      ...(session && !session.isOver ? { voice: this.voiceName } : {}),
      document: this.document?.uri.toString(),
      events: [...this.events],
      ...(this.voiceOffer ? { voiceOffer: this.voiceOffer } : {}),
      ignored: { ...this.ignored },
    };
  }

  /** Ends the reading, if any; `tell` shows the reason to the writer. */
  stop(reason: string, tell = false): void {
    const session = this.session;
    if (!session || session.isOver) return;
    this.log({ type: 'state', state: 'stopped', at: 0, reason });
    session.stop();
    if (tell) void vscode.window.showInformationMessage(`Read Aloud stopped: ${reason}.`);
  }

  private watch(session: ReadingSession): void {
    session.on('audio', (index, audio) => {
      this.log({ type: 'audio', index, at: 0, durationSeconds: audio.durationSeconds, voice: this.voiceOf(index) });
      if (audio.ignored) this.noteIgnored(index, audio.ignored);
    });
    session.on('sentence', (index) => {
      this.log({ type: 'started', index, at: 0 });
      this.highlight(index, true);
      this.refreshStatus();
    });
    session.on('word', (index, word) => {
      const range = this.wordRange(index, word.start, word.end);
      if (!range || !this.document) return;
      this.view.highlightWord(this.document, range);
      this.log({ type: 'word', index, text: this.document.getText(range), at: 0 });
    });
    session.on('state', (state, error) => {
      if (this.session !== session) return;
      if (state !== 'stopped') this.log({ type: 'state', state, at: 0 });
      if (error) reportError(this.services.log, 'Read Aloud stopped', error);
      if (session.isOver) {
        this.view.clearHighlights();
        this.player.connect(undefined);
      }
      this.refreshStatus();
    });
  }

  /** What the engine skipped of an SSML part, in the status and as Problems at the part (once per kind). */
  private noteIgnored(index: number, ignored: Record<string, string>): void {
    const range = this.range(index, 0, this.sentences[index].end - this.sentences[index].start);
    const fresh = Object.entries(ignored).filter(([key]) => !(key in this.ignored));
    if (fresh.length === 0 || !range || !this.document) return;
    Object.assign(this.ignored, Object.fromEntries(fresh));
    const problems = [...(this.skipped.get(this.document.uri) ?? [])];
    for (const [key, reason] of fresh) {
      const problem = new vscode.Diagnostic(
        range,
        `Read Aloud did not honour ${key}: ${reason}`,
        vscode.DiagnosticSeverity.Information,
      );
      problem.source = 'Read Aloud';
      problems.push(problem);
    }
    this.skipped.set(this.document.uri, problems);
  }

  /** Highlights sentence `index`; `reveal` scrolls to it (not after an edit: the writer's cursor may be elsewhere). */
  private highlight(index: number, reveal: boolean): void {
    const range = this.range(index, 0, this.sentences[index].end - this.sentences[index].start);
    if (!range || !this.document) return;
    this.highlighted = index;
    this.view.highlightSentence(this.document, range, reveal);
    this.log({ type: 'highlight', index, at: 0, text: this.document.getText(range) });
  }

  /**
   * The text being read changed: the sentence being spoken finishes, the reading goes on with the edited
   * text after it, and the highlights move with the text.
   */
  private followEdit(event: vscode.TextDocumentChangeEvent): void {
    const session = this.session;
    if (!session || session.isOver) return;
    const { document } = event;
    const text = document.getText();
    const next = resync({
      sentences: this.sentences,
      current: session.current,
      end: this.end,
      changes: event.contentChanges,
      // SSML being typed may not read yet: it stays silent until it does (Problems say why).
      split: (from, to) => {
        const split = readingParts(text, {
          languageId: document.languageId,
          from,
          to,
          language: this.language,
          malformed: 'silent',
        });
        return this.cast ? castSentences(split, castVoiceSpans(text, this.cast)) : split;
      },
    });
    this.sentences = next.sentences;
    this.end = next.end;
    session.update(next.sentences, next.remakeFrom);
    this.log({
      type: 'resync',
      at: 0,
      current: session.current,
      count: next.sentences.length,
      remakeFrom: next.remakeFrom,
      currentEdited: next.currentEdited,
    });
    if (!session.isOver && this.highlighted === session.current) this.highlight(session.current, false);
    this.refreshStatus();
  }

  /** The workspace lexicon file changed: its entries apply from the next sentence (made again if made ahead). */
  private async reloadLexicon(): Promise<void> {
    const session = this.session;
    if (!session || session.isOver) return;
    const entries = await this.services.editorJobs.spokenLexicon();
    if (this.session !== session || session.isOver) return;
    this.lexiconEntries = entries;
    this.log({ type: 'lexicon', at: 0, entries: entries.length });
    session.update(session.sentences, session.current + 1);
  }

  /** The cast beside a saved document, when it attributes any quote; a broken cast file is reported and read past. */
  private async castOf(document: vscode.TextDocument): Promise<CastFile | undefined> {
    if (document.uri.scheme !== 'file') return undefined;
    try {
      const cast = await castOfFile(document.uri.fsPath);
      return Object.keys(cast.lines).length > 0 ? cast : undefined;
    } catch (error) {
      this.services.log.warn(
        `Read Aloud reads without the cast: ${error instanceof Error ? error.message : String(error)}`,
      );
      return undefined;
    }
  }

  /** The voice that reads sentence `index` (its name): the cast's when the library has it ready, else the reading's. */
  private voiceOf(index: number): string {
    const named = this.sentences[index]?.voice;
    return (
      (named !== undefined ? readyCastVoice(this.services.voices, named)?.voice.name : undefined) ?? this.voiceName
    );
  }

  private refreshStatus(): void {
    const session = this.session;
    if (session)
      this.view.showStatus(session.state, session.current, this.sentences.length, session.speed, this.voiceName);
  }

  /** The document range of a word of a sentence's text (the masked source kept the offsets of each word). */
  private wordRange(index: number, start: number, end: number): vscode.Range | undefined {
    const sentence = this.sentences[index];
    const found = sentence && sourceRange(sentence, start, end);
    return found && this.range(index, found.start - sentence.start, found.end - sentence.start);
  }

  private range(index: number, from: number, to: number): vscode.Range | undefined {
    const document = this.document;
    const sentence = this.sentences[index];
    if (!document || !sentence) return undefined;
    return new vscode.Range(document.positionAt(sentence.start + from), document.positionAt(sentence.start + to));
  }

  private log(event: ReadAloudEvent): void {
    this.events.push({ ...event, at: Date.now() - this.startedAt });
  }

  private isOpenInTab(uri: vscode.Uri): boolean {
    return vscode.window.tabGroups.all.some((group) =>
      group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri.toString()),
    );
  }

  dispose(): void {
    this.stop('Speech Studio stopped');
    this.player.dispose();
    this.view.dispose();
    this.skipped.dispose();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}

/**
 * The sentences a scope reads (the whole document, those in the selection, or from the sentence at the
 * cursor on) and where its reading ends; malformed SSML is refused (SsmlReadingError).
 */
function sentencesFor(
  editor: vscode.TextEditor,
  scope: ReadScope,
  language: string,
): { sentences: ReadingSentence[]; end: number } {
  const { document, selection } = editor;
  const text = document.getText();
  const { languageId } = document;
  if (scope === 'selection' && !selection.isEmpty) {
    const end = document.offsetAt(selection.end);
    return {
      sentences: readingParts(text, { languageId, from: document.offsetAt(selection.start), to: end, language }),
      end,
    };
  }
  const all = readingParts(text, { languageId, language });
  if (scope === 'document') return { sentences: all, end: text.length };
  const cursor = document.offsetAt(selection.active);
  const first = all.findIndex((sentence) => sentence.end > cursor);
  return { sentences: first < 0 ? [] : all.slice(first), end: text.length };
}
