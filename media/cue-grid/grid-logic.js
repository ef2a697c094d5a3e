// The cue grid page's rules without the page (media/cue-grid/grid.js uses them; test/unit/cue-grid-page.test.ts
// checks them): which cue a player shows at a time, and how times and reading speeds are written in cells.
// @ts-check
(function (root) {
  /**
   * The cue shown at `seconds`: the last cue in file order that has begun and not ended, as players show it.
   * @param {{ index: number, start: number, end: number }[]} cues
   * @param {number} seconds
   * @returns {number | null}
   */
  function cueAt(cues, seconds) {
    let shown = null;
    for (const cue of cues) if (cue.start <= seconds && seconds < cue.end) shown = cue.index;
    return shown;
  }

  /**
   * `H:MM:SS.mmm` (hours only when there are some), the way a cell shows a time.
   * @param {number} seconds
   */
  function clock(seconds) {
    const total = Math.max(0, Math.round(seconds * 1000));
    const pad = (n, width) => String(n).padStart(width, '0');
    const hours = Math.floor(total / 3_600_000);
    const minutes = Math.floor(total / 60_000) % 60;
    const secs = Math.floor(total / 1000) % 60;
    const head = hours > 0 ? `${hours}:${pad(minutes, 2)}` : `${minutes}`;
    return `${head}:${pad(secs, 2)}.${pad(total % 1000, 3)}`;
  }

  /**
   * The text drawn over the picture: the cue's lines without markup (tags, ASS override codes), as a viewer sees them.
   * @param {string} text
   */
  function shownText(text) {
    return text
      .replace(/<\/?[a-z][^>]*>|<\d{1,2}:\d{2}(?::\d{2})?[.,]\d{3}>/gi, '')
      .replace(/\{\\[^}]*\}/g, '')
      .replace(/\\N/gi, '\n')
      .replace(/\\h/g, '\u00a0');
  }

  const api = { cueAt, clock, shownText };
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.cueGridLogic = api;
})(typeof self === 'object' ? self : globalThis);
