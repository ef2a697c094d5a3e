import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ReadAloudEvent, ReadAloudStatus } from '../../src/editor/read-aloud/read-aloud';
import { test } from './harness';
import { screenshot, ui, waitFor, workspaceFile } from './helpers';

const status = (): Thenable<ReadAloudStatus> =>
  vscode.commands.executeCommand<ReadAloudStatus>('speechStudio.readAloud.status');

/** Waits for an event of the reading that matches, after the first `after` events. */
async function event(
  what: string,
  match: (event: ReadAloudEvent) => boolean,
  after = 0,
  timeoutMs = 30_000,
): Promise<ReadAloudEvent> {
  return waitFor(what, async () => (await status()).events.slice(after).find(match), timeoutMs).catch(
    async (error: unknown) => {
      const now = await status();
      const seen = now.events
        .map((e) => e.type + ('index' in e ? ` ${e.index}` : '') + (e.type === 'state' ? ` ${e.state}` : ''))
        .slice(-12);
      throw new Error(`${String(error)}; the reading is ${now.state}, its last events: ${seen.join(', ')}`);
    },
  );
}

const started =
  (index: number) =>
  (e: ReadAloudEvent): boolean =>
    e.type === 'started' && e.index === index;
const stateIs = (state: string) => async (): Promise<ReadAloudStatus | undefined> => {
  const now = await status();
  return now.state === state ? now : undefined;
};

async function openFixture(): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(workspaceFile('read-aloud.md'));
  return vscode.window.showTextDocument(document, vscode.ViewColumn.One);
}

test('Read Document Aloud highlights each sentence as the player starts it, in order', async () => {
  const editor = await openFixture();
  const first = await vscode.commands.executeCommand<ReadAloudStatus>('speechStudio.readAloud.document');
  assert.ok(first, 'the command returns the reading');
  assert.equal(first.count, 8, 'heading, three sentences, two list items, two sentences; the code block is silent');
  await event('the second sentence to start playing', started(1));
  const { events } = await status();
  const at = (type: string, index: number): number =>
    events.findIndex((e) => e.type === type && 'index' in e && e.index === index);
  assert.ok(
    at('audio', 0) >= 0 && at('audio', 0) < at('started', 0),
    'the first audio reaches the player before it plays',
  );
  assert.ok(at('started', 0) < at('highlight', 0), 'the sentence is highlighted when the player starts it');
  assert.ok(
    at('highlight', 0) < at('started', 1) && at('started', 1) < at('highlight', 1),
    'then the second sentence, in order',
  );
  const highlights = events.filter((e) => e.type === 'highlight').map((e) => (e as { text?: string }).text);
  assert.equal(highlights[0], 'Reading aloud');
  assert.equal(highlights[1], 'The first sentence is short.');
  const words = events.filter((e) => e.type === 'word' && e.index === 0).map((e) => (e as { text: string }).text);
  assert.deepEqual(words, ['Reading', 'aloud'], 'espeak-ng reports when each word starts');
  const when = (type: string): number | undefined => events.find((e) => e.type === type)?.at;
  console.log(
    `      (after the command: first audio ready ${when('audio')} ms, player ready ${when('player')} ms, playing ${when('started')} ms)`,
  );
  assert.equal(
    vscode.window.activeTextEditor?.document,
    editor.document,
    'the player opens beside without taking the focus',
  );
  await screenshot('read-aloud');
});

test('Read Aloud pauses, resumes, skips to the next sentence, changes speed and stops', async () => {
  await vscode.commands.executeCommand('speechStudio.readAloud.togglePause');
  assert.equal((await status()).state, 'paused');
  await vscode.commands.executeCommand('speechStudio.readAloud.togglePause');
  assert.ok(['playing', 'loading'].includes((await status()).state), 'resumed');
  const before = await status();
  await vscode.commands.executeCommand('speechStudio.readAloud.next');
  await event(`sentence ${before.current + 2} to start after Next`, started(before.current + 1), before.events.length);
  await vscode.commands.executeCommand('speechStudio.readAloud.faster');
  assert.equal((await status()).speed, 1.1);
  await vscode.commands.executeCommand('speechStudio.readAloud.previous');
  const back = await status();
  assert.equal(back.current, before.current, 'Previous goes back one sentence');

  // The reader bar: position, speed and voice stay in the status bar; the speed is picked from a list.
  const voice = (await status()).voice;
  assert.ok(voice, 'the reading names its voice');
  await ui({ action: 'waitFor', selector: `.statusbar-item:has-text("Read Aloud ${back.current + 1}/8")` });
  await ui({ action: 'waitFor', selector: `.statusbar-item:has-text("${voice}")` });
  // The voice item is the reader bar's voice picker: it opens Choose Voice.
  await ui({ action: 'click', selector: `.statusbar-item:has-text("${voice}")` });
  await ui({ action: 'waitFor', selector: '.quick-input-widget .quick-input-title:has-text("Choose Voice")' });
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  const picking = Promise.resolve(vscode.commands.executeCommand<number>('speechStudio.readAloud.chooseSpeed'));
  await ui({ action: 'click', selector: '.quick-input-widget .monaco-list-row:has-text("1.5×")' });
  assert.equal(await picking, 1.5);
  assert.equal((await status()).speed, 1.5);
  await ui({ action: 'waitFor', selector: '.statusbar-item:has-text("1.5×")' });
  // The player is a view in the Speech Studio panel, not an editor tab.
  assert.ok(
    !vscode.window.tabGroups.all.some((group) =>
      group.tabs.some((tab) => tab.label === 'Read Aloud' || tab.label.startsWith('Read Aloud:')),
    ),
    'no Read Aloud tab',
  );
  await ui({
    action: 'waitFor',
    frames: ['iframe.webview.ready', 'iframe#active-frame'],
    selector: '#title:has-text("Read Aloud: read-aloud.md")',
  });
  await ui({
    action: 'waitFor',
    selector:
      '.part.panel .composite-bar .action-label[aria-label*="Speech Studio"], .part.panel .panel-switcher-container :text("Speech Studio")',
  });

  await vscode.commands.executeCommand('speechStudio.readAloud.stop');
  const stopped = await status();
  assert.equal(stopped.state, 'stopped');
  assert.equal(stopped.events.at(-1)?.type, 'state');
});

test('Editing the text being read re-syncs Read Aloud: highlights move, an inserted sentence is read', async () => {
  const editor = await openFixture();
  editor.selection = new vscode.Selection(2, 0, 2, 0);
  const reading = await vscode.commands.executeCommand<ReadAloudStatus>('speechStudio.readAloud.fromCursor');
  const original = editor.document.getText();
  try {
    assert.equal(reading?.count, 7, 'from the paragraph on: three sentences, two list items, the last two sentences');
    // Paused before the first sentence plays, so the first edits land while sentence 0 is the one to be spoken.
    await vscode.commands.executeCommand('speechStudio.readAloud.togglePause');
    assert.equal((await status()).state, 'paused');
    const find = (find: string): number => {
      const index = editor.document.getText().indexOf(find);
      assert.ok(index >= 0, `the document has "${find}"`);
      return index;
    };
    /** Replaces `[from, to)` with `by`; the reading's re-sync (without its time) and the events since the edit. */
    const edit = async (what: string, from: number, to: number, by: string) => {
      const before = (await status()).events.length;
      assert.ok(
        await editor.edit((e) =>
          e.replace(new vscode.Range(editor.document.positionAt(from), editor.document.positionAt(to)), by),
        ),
        what,
      );
      const { at: _at, ...resync } = (await event(
        `the reading to follow ${what}`,
        (e) => e.type === 'resync',
        before,
      )) as ReadAloudEvent & { type: 'resync' };
      return { resync, events: (await status()).events.slice(before) };
    };

    // Before the sentence being spoken: only the ranges move.
    const before = await edit(
      'an edit before the sentence',
      find('Reading aloud'),
      find('Reading aloud') + 'Reading aloud'.length,
      'Reading aloud, edited above',
    );
    assert.deepEqual(before.resync, { type: 'resync', current: 0, count: 7, remakeFrom: 7, currentEdited: false });
    // After it: a new sentence, read next; what was made ahead after it is made again.
    const end = find('short.') + 'short.'.length;
    const after = await edit('a sentence inserted after it', end, end, ' An inserted sentence is read.');
    assert.deepEqual(after.resync, { type: 'resync', current: 0, count: 8, remakeFrom: 1, currentEdited: false });
    // Inside it: it will be spoken as it was made, its highlight covering its edited text.
    const inside = await edit('an edit inside it', find('short.'), find('short.') + 'short'.length, 'brief');
    assert.deepEqual(inside.resync, { type: 'resync', current: 0, count: 8, remakeFrom: 8, currentEdited: true });

    const resumed = (await status()).events.length;
    await vscode.commands.executeCommand('speechStudio.readAloud.togglePause');
    const first = await event(
      'the first sentence to be highlighted as it plays',
      (e) => e.type === 'highlight' && e.index === 0,
      resumed,
    );
    assert.equal(
      (first as { text?: string }).text,
      'The first sentence is brief.',
      'the highlight covers the edited sentence',
    );
    const second = await event(
      'the inserted sentence to be highlighted as it plays',
      (e) => e.type === 'highlight' && e.index === 1,
      resumed,
    );
    assert.equal((second as { text?: string }).text, 'An inserted sentence is read.');

    // While a sentence plays, an edit above it moves its highlight with the text.
    const texts = [
      'The first sentence is brief.',
      'An inserted sentence is read.',
      'The second sentence follows it.',
      'A third one ends the paragraph.',
      'A list item is a sentence.',
    ];
    const above = await edit('an edit above the sentence playing', find('# '), find('# '), 'Moved down.\n\n');
    const highlights = above.events.filter((e) => e.type === 'highlight') as { index: number; text?: string }[];
    assert.ok(highlights.length > 0, 'the sentence playing is highlighted again');
    for (const { index, text } of highlights) assert.equal(text, texts[index], 'each highlight on its own text');
    const now = await status();
    assert.ok(['playing', 'loading'].includes(now.state), `the reading goes on (${now.state})`);
    assert.equal(
      now.events.filter((e) => e.type === 'started' && e.index === 0).length,
      1,
      'the first sentence was spoken once',
    );
  } finally {
    await vscode.commands.executeCommand('speechStudio.readAloud.stop');
    // VS Code in the browser saves edits after a delay: put the fixture back as it was, on disk too.
    const whole = new vscode.Range(
      editor.document.positionAt(0),
      editor.document.positionAt(editor.document.getText().length),
    );
    await editor.edit((e) => e.replace(whole, original));
    await editor.document.save();
  }
});

test('Read Aloud speaks with the workspace lexicon, and re-reads it when .speech/lexicon.json changes', async () => {
  const lexicon = workspaceFile('.speech', 'lexicon.json');
  const write = (entries: unknown[]): Thenable<void> =>
    vscode.workspace.fs.writeFile(lexicon, Buffer.from(JSON.stringify({ entries })));
  try {
    await write([{ text: 'Nguyen', say: 'win' }]);
    const editor = await vscode.window.showTextDocument(
      await vscode.workspace.openTextDocument(workspaceFile('read-aloud-lexicon.md')),
      vscode.ViewColumn.One,
    );
    const reading = await vscode.commands.executeCommand<ReadAloudStatus>('speechStudio.readAloud.document');
    assert.equal(reading?.count, 4);
    // Paused on the first sentence: the reading makes two sentences ahead and waits.
    await vscode.commands.executeCommand('speechStudio.readAloud.togglePause');
    const made = (events: ReadAloudEvent[], index: number): number | undefined =>
      (events.findLast((e) => e.type === 'audio' && e.index === index) as { durationSeconds: number } | undefined)
        ?.durationSeconds;
    const first = await waitFor(
      'three sentences made',
      async () => {
        const { events } = await status();
        return [0, 1, 2].every((i) => made(events, i) !== undefined) ? events : undefined;
      },
      30_000,
    );
    // As in the Add Pronunciation test: espeak-ng's noise carries over between sentences, so compare lengths;
    // the word three times makes the entry's effect far larger than that noise.
    const apart = (a: number, b: number): number => Math.abs(a - b);
    assert.ok(
      apart(made(first, 0)!, made(first, 1)!) < 0.03,
      `"Nguyen met Nguyen and Nguyen." sounds as long as "win met win and win." (${made(first, 0)} s, ${made(first, 1)} s)`,
    );

    const changedAt = (await status()).events.length;
    await write([]);
    await event('the lexicon to be read again', (e) => e.type === 'lexicon', changedAt);
    const again = await waitFor(
      'sentence 2 made again after the change',
      async () => {
        const events = (await status()).events.slice(changedAt);
        return made(events.slice(events.findIndex((e) => e.type === 'lexicon')), 2);
      },
      30_000,
    );
    assert.ok(
      apart(again, made(first, 1)!) > 0.15,
      `without the entry the sentence is longer than its respelling (${again} s, ${made(first, 1)} s)`,
    );
    assert.equal((await status()).state, 'paused', 'the reading went on, still paused on its first sentence');
    await vscode.commands.executeCommand('speechStudio.readAloud.stop');
    await vscode.window.showTextDocument(editor.document, vscode.ViewColumn.One);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  } finally {
    await vscode.workspace.fs
      .delete(workspaceFile('.speech'), { recursive: true, useTrash: false })
      .then(undefined, () => undefined);
  }
});

test('Read Aloud does not end a sentence after a title, an initial, a decimal number or an abbreviation', async () => {
  const text =
    'Mr. Smith met Dr. Jones at 7.5 p.m. on St. Mark\'s Road. "Come in," said J. R. R. Tolkien, e.g. to Mrs. Hudson. Then they left.';
  const document = await vscode.workspace.openTextDocument({ language: 'plaintext', content: text });
  const editor = await vscode.window.showTextDocument(document, vscode.ViewColumn.One);
  const reading = await vscode.commands.executeCommand<ReadAloudStatus>('speechStudio.readAloud.document');
  assert.equal(reading?.count, 3, 'three sentences, cut only where a reader would stop');
  await event('the second sentence to start', started(1), 0, 60_000);
  const highlights = (await status()).events
    .filter((e) => e.type === 'highlight')
    .map((e) => (e as { text?: string }).text);
  assert.deepEqual(highlights.slice(0, 2), [
    "Mr. Smith met Dr. Jones at 7.5 p.m. on St. Mark's Road.",
    '"Come in," said J. R. R. Tolkien, e.g. to Mrs. Hudson.',
  ]);
  await vscode.commands.executeCommand('speechStudio.readAloud.stop');
  await vscode.window.showTextDocument(editor.document, vscode.ViewColumn.One);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
});

test('Closing the editor stops Read Aloud', async () => {
  const editor = await openFixture();
  editor.selection = new vscode.Selection(2, 0, 2, 60);
  const reading = await vscode.commands.executeCommand<ReadAloudStatus>('speechStudio.readAloud.selection');
  assert.equal(reading?.count, 2, 'the selection holds two sentences');
  await event('the reading to start', started(0));
  await vscode.window.showTextDocument(editor.document, vscode.ViewColumn.One);
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  const now = await waitFor('the reading to stop', stateIs('stopped'));
  assert.match(JSON.stringify(now.events.at(-1)), /editor was closed/);
  // The tests after these expect the window as it was: close the panel (the player view stays ready in it).
  await vscode.commands.executeCommand('workbench.action.closePanel');
});
