/**
 * Writes a read-along EPUB 3 in the engine process, once every chapter's audio is encoded: the package
 * planned by the job core (the book's own files, or new chapter documents), one Media Overlay per document
 * read, the chapter audio, and the package document — as `<out>.partial`, renamed when complete.
 */
import { readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ReadAlongPackage } from '../../audiobook/book-plan';
import {
  overlaysFor,
  packageDocument,
  smilDocument,
  type SentenceClip,
} from '../../audiobook/read-along/overlay-files';
import { folderOf } from '../../audiobook/read-along/package-paths';
import { escapeXml } from '../../audiobook/sources/xml-tree';
import { ZipEntries } from '../../audiobook/sources/zip-entries';
import { UserFacingError } from '../../engine-api/protocol';
import { ZipWriter } from './zip-writer';

export interface ReadAlongChapter {
  /** The encoded chapter audio on disk. */
  audioFile: string;
  clips: Array<Omit<SentenceClip, 'audio'>>;
}

const container = (packagePath: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\n  <rootfiles>\n    <rootfile full-path="${escapeXml(packagePath)}" media-type="application/oebps-package+xml"/>\n  </rootfiles>\n</container>\n`;

/** Media a zip cannot shrink are stored, so a reading system can seek in them. */
const STORED = /\.(m4a|mp4|mp3|aac|jpe?g|png|gif|webp|woff2?|ogg|opus)$/i;

/** Writes the book; `wordTiming` (word-level books) says where the word times came from, for the package metadata. */
export async function writeReadAlongBook(
  pkg: ReadAlongPackage,
  chapters: readonly ReadAlongChapter[],
  out: string,
  wordTiming?: string,
): Promise<string[]> {
  const audioFolder = `${folderOf(pkg.packagePath)}read-along/audio/`;
  const audioPaths = chapters.map((_, index) => `${audioFolder}chapter-${String(index + 1).padStart(3, '0')}.m4a`);
  const clips = chapters.flatMap((chapter, index) =>
    chapter.clips.map((clip) => ({ ...clip, audio: audioPaths[index] })),
  );
  const overlays = overlaysFor(clips, pkg);
  let source: ZipEntries | undefined;
  if (pkg.sourceEpub) {
    const bytes = await readFile(pkg.sourceEpub).catch((error: NodeJS.ErrnoException) => {
      throw new UserFacingError(
        `The book ${pkg.sourceEpub} cannot be read any more (${error.code ?? error.message}); export it again.`,
      );
    });
    try {
      source = ZipEntries.read(new Uint8Array(bytes), path.basename(pkg.sourceEpub));
    } catch (error) {
      throw new UserFacingError((error as Error).message);
    }
  }
  const partial = `${out}.partial`;
  const zip = await ZipWriter.create(partial);
  try {
    await zip.addBytes('mimetype', 'application/epub+zip', true);
    await zip.addBytes('META-INF/container.xml', container(pkg.packagePath));
    await zip.addBytes(pkg.packagePath, packageDocument(pkg, overlays, audioPaths, new Date(), wordTiming));
    for (const file of pkg.written) await zip.addBytes(file.path, file.content);
    for (const name of pkg.copied) {
      if (!source?.has(name))
        throw new UserFacingError(
          `The book ${pkg.sourceEpub} changed since the export began (${name} is gone); export it again.`,
        );
      await zip.addBytes(name, source.bytes(name), STORED.test(name));
    }
    for (const overlay of overlays) await zip.addBytes(overlay.path, smilDocument(overlay));
    for (const [index, chapter] of chapters.entries()) await zip.addFile(audioPaths[index], chapter.audioFile);
    await zip.close();
  } catch (error) {
    await zip.abandon();
    await rm(partial, { force: true });
    throw error;
  }
  await rename(partial, out);
  return [out];
}
