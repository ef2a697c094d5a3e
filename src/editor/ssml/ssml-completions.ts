/**
 * Completions for SSML in `.ssml` files and ```ssml blocks of Markdown: the elements Speech Studio reads
 * (as snippets with their attributes) after `<`, and the values of the attributes that take a fixed list.
 */
import * as vscode from 'vscode';
import { SAY_AS_KINDS } from '../../text/ssml/say-as';
import { ssmlBlockAt } from '../../text/ssml/ssml-blocks';
import { BREAK_STRENGTH_SECONDS } from '../../text/ssml/ssml-values';

const ELEMENTS: Record<string, { snippet: string; detail: string }> = {
  speak: { snippet: 'speak>$0</speak>', detail: 'The document: everything spoken is inside it' },
  p: { snippet: 'p>$0</p>', detail: 'A paragraph: a pause after it' },
  s: { snippet: 's>$0</s>', detail: 'A sentence: a short pause after it' },
  break: { snippet: 'break time="${1:500ms}"/>', detail: 'Exact silence: time="500ms" or strength="strong"' },
  prosody: { snippet: 'prosody rate="${1:slow}">$0</prosody>', detail: 'Rate, pitch and volume' },
  emphasis: { snippet: 'emphasis level="${1:strong}">$0</emphasis>', detail: 'Slower and louder' },
  'say-as': {
    snippet: 'say-as interpret-as="${1|' + SAY_AS_KINDS.join(',') + '|}">$0</say-as>',
    detail: 'Read as characters, a number, a date, a time, a telephone number',
  },
  sub: { snippet: 'sub alias="$1">$0</sub>', detail: 'Say the alias instead of the text' },
  phoneme: {
    snippet: 'phoneme alphabet="${1|ipa,x-sampa|}" ph="$2">$0</phoneme>',
    detail: 'A pronunciation (espeak-ng voices)',
  },
  voice: { snippet: 'voice name="$1">$0</voice>', detail: 'Another voice of the library' },
  lang: { snippet: 'lang xml:lang="${1:en-GB}">$0</lang>', detail: 'Another language' },
  audio: {
    snippet: 'audio src="$1">$0</audio>',
    detail: 'A sound file of the workspace; its text is spoken when it cannot be played',
  },
};

const VALUES: Record<string, readonly string[]> = {
  'interpret-as': SAY_AS_KINDS,
  alphabet: ['ipa', 'x-sampa'],
  strength: Object.keys(BREAK_STRENGTH_SECONDS),
  level: ['strong', 'moderate', 'none', 'reduced'],
  rate: ['x-slow', 'slow', 'medium', 'fast', 'x-fast'],
  pitch: ['x-low', 'low', 'medium', 'high', 'x-high'],
  volume: ['silent', 'x-soft', 'soft', 'medium', 'loud', 'x-loud'],
};

class SsmlCompletions implements vscode.CompletionItemProvider {
  provideCompletionItems(
    document: vscode.TextDocument,
    position: vscode.Position,
  ): vscode.CompletionItem[] | undefined {
    if (document.languageId === 'markdown' && !ssmlBlockAt(document.getText(), 'markdown', position.line))
      return undefined;
    const before = document.lineAt(position.line).text.slice(0, position.character);
    const attribute = /([\w:-]+)="[^"]*$/.exec(before);
    if (attribute) {
      return (VALUES[attribute[1]] ?? []).map(
        (value) => new vscode.CompletionItem(value, vscode.CompletionItemKind.EnumMember),
      );
    }
    if (!/<[\w-]*$/.test(before)) return undefined;
    return Object.entries(ELEMENTS).map(([name, { snippet, detail }]) => {
      const item = new vscode.CompletionItem(name, vscode.CompletionItemKind.Property);
      item.insertText = new vscode.SnippetString(snippet);
      item.detail = detail;
      const typed = /<([\w-]*)$/.exec(before)![1];
      item.range = new vscode.Range(
        position.line,
        position.character - typed.length,
        position.line,
        position.character,
      );
      return item;
    });
  }
}

export function registerSsmlCompletions(): vscode.Disposable {
  return vscode.languages.registerCompletionItemProvider(
    [{ language: 'ssml' }, { language: 'markdown' }],
    new SsmlCompletions(),
    '<',
    '"',
  );
}
