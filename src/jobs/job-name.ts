/**
 * A job's `name`: the first words of a TTS text, or the media's file name for STT. Cut at whole code
 * points, so a name never ends in half of a surrogate pair (an emoji cut in two is not valid UTF-16).
 */
const TEXT_NAME_POINTS = 60;
const FILE_NAME_POINTS = 200;

/** The first `count` code points of `text` (fewer when it is shorter), without reading the rest of it. */
function firstCodePoints(text: string, count: number): string[] {
  const points: string[] = [];
  for (const point of text) {
    if (points.length === count) break;
    points.push(point);
  }
  return points;
}

/** @example nameFromText('  Hello\n world ') === 'Hello world' */
export function nameFromText(text: string): string {
  const points = firstCodePoints(text.replace(/\s+/g, ' ').trim(), TEXT_NAME_POINTS + 1);
  if (points.length === 0) return 'Speech';
  return points.length > TEXT_NAME_POINTS ? `${points.slice(0, TEXT_NAME_POINTS - 3).join('')}…` : points.join('');
}

/** @example nameFromFile('talk.mp4') === 'talk.mp4' */
export function nameFromFile(originalName: string): string {
  return firstCodePoints(originalName, FILE_NAME_POINTS).join('') || 'upload';
}
