/**
 * The text files that make a read-along book's Media Overlays: one SMIL document per XHTML document that
 * is read (each sentence a `<par>` pointing at its element and at its clip of the chapter's audio, or, word
 * by word, a `<seq>` pointing at the sentence with a `<par>` per word), and the
 * EPUB 3 package document listing everything, with `media:duration` per overlay and in total and the
 * `media:active-class` a reading system highlights the sentence being read with.
 */
import type { ReadAlongPackage } from '../book-plan';
import { escapeXml } from '../sources/xml-tree';
import { ACTIVE_CLASS, clockValue, folderOf, relativeHref } from './package-paths';
import type { WordClip } from './word-clips';

/** A sentence's span of a chapter's audio, in seconds from the start of that chapter's file. */
export interface SentenceClip {
  document: string;
  id: string;
  /** The chapter audio's archive path. */
  audio: string;
  begin: number;
  end: number;
  /** Word-level books: each word's span, in seconds from the start of the chapter's file, in order. */
  words?: WordClip[];
}

export interface Overlay {
  /** The XHTML document it narrates, and the overlay's own archive path. */
  document: string;
  path: string;
  clips: SentenceClip[];
}

/** Rounded once to milliseconds, so the per-overlay and total durations add up exactly. */
const millis = (seconds: number): number => Math.round(seconds * 1000);

/** The audio an overlay plays: its sentences' clips, or, word by word, its words' clips. */
export function overlayDuration(overlay: Overlay): number {
  const played = overlay.clips.flatMap((clip) => clip.words ?? [clip]);
  return played.reduce((sum, clip) => sum + millis(clip.end) - millis(clip.begin), 0) / 1000;
}

/** The clips grouped by document, in reading order, each group an overlay beside the book's other additions. */
export function overlaysFor(clips: readonly SentenceClip[], pkg: ReadAlongPackage): Overlay[] {
  const folder = `${folderOf(pkg.packagePath)}read-along/overlays/`;
  const overlays = new Map<string, Overlay>();
  for (const clip of clips) {
    let overlay = overlays.get(clip.document);
    if (!overlay) {
      const name = clip.document
        .split('/')
        .pop()!
        .replace(/\.[^.]*$/, '');
      overlay = {
        document: clip.document,
        path: `${folder}${String(overlays.size + 1).padStart(3, '0')}-${name.replace(/[^\w.-]/g, '_')}.smil`,
        clips: [],
      };
      overlays.set(clip.document, overlay);
    }
    overlay.clips.push(clip);
  }
  return [...overlays.values()];
}

export function smilDocument(overlay: Overlay): string {
  const textHref = relativeHref(overlay.path, overlay.document);
  const par = (
    id: string,
    target: string,
    audio: string,
    clip: { begin: number; end: number },
    indent: string,
  ): string =>
    `${indent}<par id="${id}">\n${indent}  <text src="${escapeXml(`${textHref}#${target}`)}"/>\n${indent}  <audio src="${escapeXml(audio)}" clipBegin="${clockValue(clip.begin)}" clipEnd="${clockValue(clip.end)}"/>\n${indent}</par>`;
  // Word by word, the EPUB 3 idiom: a seq per sentence (its textref the sentence), a par per word inside.
  const pars = overlay.clips.map((clip, index) => {
    const audio = relativeHref(overlay.path, clip.audio);
    if (!clip.words?.length) return par(`par${index + 1}`, clip.id, audio, clip, '    ');
    const words = clip.words.map((word, at) => par(`par${index + 1}-${at + 1}`, word.id, audio, word, '      '));
    return `    <seq id="seq${index + 1}" epub:textref="${escapeXml(`${textHref}#${clip.id}`)}">\n${words.join('\n')}\n    </seq>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">\n  <body>\n${pars.join('\n')}\n  </body>\n</smil>\n`;
}

/**
 * The package document; `audio` lists the chapter audio files' archive paths; `wordTiming`, for a word-level
 * book, says where the word times came from (in its accessibility summary).
 */
export function packageDocument(
  pkg: ReadAlongPackage,
  overlays: readonly Overlay[],
  audio: readonly string[],
  modified: Date,
  wordTiming?: string,
): string {
  const ids = new Set(pkg.manifest.map((item) => item.id));
  const fresh = (wanted: string): string => {
    let id = wanted;
    for (let n = 2; ids.has(id); n++) id = `${wanted}-${n}`;
    ids.add(id);
    return id;
  };
  const overlayIds = new Map(overlays.map((overlay, index) => [overlay.document, fresh(`overlay-${index + 1}`)]));
  const href = (file: string): string => escapeXml(relativeHref(pkg.packagePath, file));
  const items = pkg.manifest.map((item) => {
    const overlay = overlayIds.get(item.path);
    return `    <item id="${escapeXml(item.id)}" href="${href(item.path)}" media-type="${escapeXml(item.mediaType)}"${item.properties ? ` properties="${escapeXml(item.properties)}"` : ''}${overlay ? ` media-overlay="${overlay}"` : ''}/>`;
  });
  overlays.forEach((overlay) =>
    items.push(
      `    <item id="${overlayIds.get(overlay.document)}" href="${href(overlay.path)}" media-type="application/smil+xml"/>`,
    ),
  );
  audio.forEach((file, index) =>
    items.push(`    <item id="${fresh(`audio-${index + 1}`)}" href="${href(file)}" media-type="audio/mp4"/>`),
  );
  const total = overlays.reduce((sum, overlay) => sum + millis(overlayDuration(overlay)), 0) / 1000;
  const durations = overlays.map(
    (overlay) =>
      `    <meta property="media:duration" refines="#${overlayIds.get(overlay.document)}">${clockValue(overlayDuration(overlay))}</meta>`,
  );
  const spine = pkg.spine.map(
    (ref) => `    <itemref idref="${escapeXml(ref.id)}"${ref.linear ? '' : ' linear="no"'}/>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="${escapeXml(pkg.language)}">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="book-id">${escapeXml(pkg.identifier)}</dc:identifier>
    <dc:title>${escapeXml(pkg.title)}</dc:title>
${pkg.author ? `    <dc:creator>${escapeXml(pkg.author)}</dc:creator>\n` : ''}    <dc:language>${escapeXml(pkg.language)}</dc:language>
    <meta property="dcterms:modified">${modified.toISOString().replace(/\.\d{3}Z$/, 'Z')}</meta>
    <meta property="media:active-class">${ACTIVE_CLASS}</meta>
    <meta property="media:duration">${clockValue(total)}</meta>
${durations.join('\n')}
${wordTiming ? `    <meta property="schema:accessibilityFeature">synchronizedAudioText</meta>\n    <meta property="schema:accessibilitySummary">${escapeXml(`Read-along narration synchronized with the text word by word; word times: ${wordTiming}.`)}</meta>\n` : ''}
  </metadata>
  <manifest>
${items.join('\n')}
  </manifest>
  <spine${pkg.ncxId ? ` toc="${escapeXml(pkg.ncxId)}"` : ''}>
${spine.join('\n')}
  </spine>
</package>
`;
}
