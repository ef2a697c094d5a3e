/** Every relative link of the user, operator and contributor documents points at a file (and heading) that exists. */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const root = path.join(__dirname, '..', '..');
const DOCUMENTS = [
  'README.md',
  'CONTRIBUTING.md',
  'bench/README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The text outside fenced code blocks, where a `# comment` is not a heading and `](x)` not a link. */
const prose = (markdown: string): string[] => {
  let fenced = false;
  return markdown.split('\n').filter((line) => {
    if (line.startsWith('```')) fenced = !fenced;
    return !fenced && !line.startsWith('```');
  });
};

/** GitHub's anchors: a heading lower-cased, punctuation dropped, spaces as hyphens; and explicit `<a id>`s. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const line of prose(markdown)) {
    const heading = /^#{1,6} (.*)$/.exec(line)?.[1];
    if (heading !== undefined)
      anchors.add(
        heading
          .replace(/[`*]/g, '')
          .trim()
          .toLowerCase()
          .replace(/[^\p{L}\p{N}_\- ]/gu, '')
          .replaceAll(' ', '-'),
      );
    for (const [, id] of line.matchAll(/<a id="([^"]+)"/g)) anchors.add(id);
  }
  return anchors;
}

/** `](target)` links that are not web addresses, with the document they sit in. */
function relativeLinks(document: string): string[] {
  const text = prose(readFileSync(path.join(root, document), 'utf8'))
    .join('\n')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('documentation links', () => {
  it('finds the documents and their links', () => {
    assert.ok(DOCUMENTS.includes('docs/architecture.md') && existsSync(path.join(root, 'docs/architecture.md')));
    assert.ok(relativeLinks('README.md').includes('docs/editor-guide.md'), 'README links the editor guide');
  });

  it('reads anchors the way GitHub makes them', () => {
    const anchors = anchorsOf(
      '# Speech Studio\n## No ffmpeg? No problem\n```sh\n# not a heading\n```\n### `GET /jobs` (SSE)\n<a id="snap"></a>',
    );
    assert.deepEqual([...anchors].sort(), ['get-jobs-sse', 'no-ffmpeg-no-problem', 'snap', 'speech-studio']);
  });

  for (const document of DOCUMENTS) {
    it(`${document}: every relative link resolves`, () => {
      const broken: string[] = [];
      for (const target of relativeLinks(document)) {
        const [file, anchor] = target.split('#');
        const resolved = file ? path.join(root, path.dirname(document), file) : path.join(root, document);
        if (!existsSync(resolved)) broken.push(`${target}: no file ${path.relative(root, resolved)}`);
        else if (anchor && resolved.endsWith('.md') && !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor))
          broken.push(`${target}: no heading #${anchor}`);
      }
      assert.deepEqual(broken, []);
    });
  }
});
