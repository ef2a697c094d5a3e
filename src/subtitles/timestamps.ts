/** Rounds seconds to whole milliseconds, the precision every transcript format carries. */
export function roundToMilliseconds(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/**
 * `HH:MM:SS,mmm` (SubRip) or `HH:MM:SS.mmm` (WebVTT). Hours keep growing past 99 rather than wrapping.
 * @example formatTimestamp(3661.5, ',') === '01:01:01,500'
 */
export function formatTimestamp(seconds: number, separator: ',' | '.'): string {
  const totalMs = Math.max(0, Math.round(seconds * 1000));
  const ms = totalMs % 1000;
  const totalSeconds = (totalMs - ms) / 1000;
  const s = totalSeconds % 60;
  const m = Math.floor(totalSeconds / 60) % 60;
  const h = Math.floor(totalSeconds / 3600);
  return `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}${separator}${pad(ms, 3)}`;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
