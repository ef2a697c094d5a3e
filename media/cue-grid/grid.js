// The cue grid webview's script (src/editor/subtitles/cue-grid.ts): draws the cues as rows of editable cells
// and sends each committed cell to the extension, which edits the document; plays the media in the preview
// with the cue at the current time drawn over the picture (or over the waveform of an audio file), and
// reports what it shows, so tests can ask.
// @ts-check
(function () {
  const vscode = acquireVsCodeApi();
  const logic = /** @type {any} */ (self).cueGridLogic;
  const body = document.body;
  const tbody = /** @type {HTMLElement} */ (document.querySelector('#grid tbody'));
  const video = /** @type {HTMLVideoElement} */ (document.getElementById('video'));
  const overlay = /** @type {HTMLElement} */ (document.getElementById('overlay'));
  const clockLabel = /** @type {HTMLElement} */ (document.getElementById('clock'));
  const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById('wave'));
  const kind = body.dataset.mediaKind || 'none';
  /** @type {HTMLElement} */ (document.getElementById('media-name')).textContent =
    body.dataset.mediaName || 'No media beside this file';

  /** @type {{ index: number, start: number, end: number, duration: number, charsPerSecond: number | null, text: string, problems: string[] }[]} */
  let rows = [];
  /** Rows that came while a cell was being typed in: drawn when it is left. */
  let pending = /** @type {typeof rows | null} */ (null);
  let selected = /** @type {number | null} */ (null);
  let showing = /** @type {number | null} */ (null);
  /** Where a playing cue stops. */
  let stopAt = /** @type {number | null} */ (null);
  /** @type {{ bucketsPerSecond: number, duration: number, peaks: Int8Array } | null} */
  let wave = null;
  /** A time to show before the media could seek (no media, or not loaded yet). */
  let time = 0;

  if (kind !== 'none' && body.dataset.mediaSrc) video.src = body.dataset.mediaSrc;

  const now = () => (kind !== 'none' && video.readyState > 0 ? video.currentTime : time);

  // ---- the table -----------------------------------------------------------------------------------

  function cell(row, field) {
    const td = document.createElement('td');
    td.className = field;
    if (field === 'start' || field === 'end') {
      const input = document.createElement('input');
      input.value = logic.clock(row[field]);
      input.dataset.original = input.value;
      input.setAttribute('aria-label', `${field === 'start' ? 'Start' : 'End'} of cue ${row.index}`);
      td.appendChild(input);
    } else if (field === 'text') {
      const area = document.createElement('textarea');
      area.value = row.text;
      area.dataset.original = row.text;
      area.rows = Math.max(1, row.text.split('\n').length);
      area.setAttribute('aria-label', `Text of cue ${row.index}`);
      td.appendChild(area);
    } else if (field === 'problems') {
      for (const problem of row.problems) {
        const line = document.createElement('div');
        line.textContent = problem;
        td.appendChild(line);
      }
    } else if (field === 'cps') {
      td.textContent = row.charsPerSecond === null ? '—' : row.charsPerSecond.toFixed(1);
      if (row.problems.some((p) => /characters per second/.test(p))) td.classList.add('fast');
    } else if (field === 'duration') {
      td.textContent = row.duration.toFixed(3);
    } else {
      td.textContent = String(row.index);
    }
    return td;
  }

  function draw() {
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    const editing = active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement;
    // The cell being worked in keeps its focus and its selection across a redraw (rows come whenever the
    // checker's problems change), so a selection made just before is not lost under the user's next key.
    const focus =
      active && active.closest('tr')
        ? {
            index: active.closest('tr')?.dataset.index,
            field: active.closest('td')?.className,
            selection: editing ? [active.selectionStart, active.selectionEnd] : null,
          }
        : null;
    tbody.replaceChildren(
      ...rows.map((row) => {
        const tr = document.createElement('tr');
        tr.dataset.index = String(row.index);
        for (const field of ['number', 'start', 'end', 'duration', 'cps', 'text', 'problems'])
          tr.appendChild(cell(row, field));
        if (row.index === selected) tr.classList.add('selected');
        if (row.index === showing) tr.classList.add('showing');
        return tr;
      }),
    );
    fitTextAreas();
    if (focus) {
      const again = /** @type {HTMLInputElement | HTMLTextAreaElement | null} */ (
        tbody.querySelector(
          `tr[data-index="${focus.index}"] td.${focus.field} input, tr[data-index="${focus.index}"] td.${focus.field} textarea`,
        )
      );
      again?.focus();
      if (again && focus.selection && focus.selection[0] !== null && focus.selection[1] !== null)
        again.setSelectionRange(focus.selection[0], focus.selection[1]);
    }
    showTime();
    vscode.postMessage({ type: 'rendered', rows: rows.length, media: kind });
  }

  /** Each text cell as tall as its wrapped text: nothing is cut off, whatever the column's width. */
  function fitTextAreas() {
    for (const area of tbody.querySelectorAll('textarea')) fitTextArea(/** @type {HTMLTextAreaElement} */ (area));
  }

  function fitTextArea(area) {
    area.style.height = 'auto';
    area.style.height = `${area.scrollHeight + 2}px`;
  }

  tbody.addEventListener('input', (event) => {
    if (event.target instanceof HTMLTextAreaElement) fitTextArea(event.target);
  });
  window.addEventListener('resize', fitTextAreas);

  const dirty = (element) =>
    element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement
      ? element.value !== element.dataset.original
      : false;

  function commit(element) {
    if (!dirty(element)) return;
    const tr = /** @type {HTMLElement} */ (element.closest('tr'));
    const field = /** @type {HTMLElement} */ (element.closest('td')).className;
    element.dataset.original = element.value;
    vscode.postMessage({ type: 'edit', index: Number(tr.dataset.index), field, value: element.value });
  }

  function select(index, fromEditor) {
    selected = index;
    tbody.querySelectorAll('tr.selected').forEach((tr) => tr.classList.remove('selected'));
    const tr = tbody.querySelector(`tr[data-index="${index}"]`);
    tr?.classList.add('selected');
    tr?.scrollIntoView({ block: 'nearest' });
    const row = rows.find((r) => r.index === index);
    if (row && (video.paused || stopAt === null)) seek(row.start);
    if (!fromEditor && row) vscode.postMessage({ type: 'select', index });
  }

  tbody.addEventListener('focusin', (event) => {
    const tr = /** @type {HTMLElement} */ (event.target).closest('tr');
    if (tr && Number(tr.dataset.index) !== selected) select(Number(tr.dataset.index), false);
  });
  tbody.addEventListener('click', (event) => {
    const tr = /** @type {HTMLElement} */ (event.target).closest('tr');
    if (tr && Number(tr.dataset.index) !== selected) select(Number(tr.dataset.index), false);
  });
  tbody.addEventListener('dblclick', (event) => {
    const tr = /** @type {HTMLElement} */ (event.target).closest('tr');
    if (tr && /** @type {HTMLElement} */ (event.target).closest('td.number')) playCue(Number(tr.dataset.index));
  });
  tbody.addEventListener('keydown', (event) => {
    const target = /** @type {HTMLElement} */ (event.target);
    if (!(target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)) return;
    if (event.key === 'Escape') {
      target.value = target.dataset.original || '';
      target.blur();
    } else if (event.key === 'Enter' && !event.shiftKey) {
      // Enter commits; Shift+Enter is a new line in a text cell.
      event.preventDefault();
      commit(target);
    }
  });
  tbody.addEventListener('focusout', (event) => {
    commit(event.target);
    if (pending) {
      const next = pending;
      pending = null;
      setTimeout(() => {
        rows = next;
        draw();
      });
    }
  });

  // ---- the preview ---------------------------------------------------------------------------------

  function showTime() {
    const seconds = now();
    const index = logic.cueAt(rows, seconds);
    const row = rows.find((r) => r.index === index);
    overlay.textContent = row ? logic.shownText(row.text) : '';
    clockLabel.textContent = logic.clock(seconds);
    if (index !== showing) {
      tbody.querySelector('tr.showing')?.classList.remove('showing');
      if (index !== null) tbody.querySelector(`tr[data-index="${index}"]`)?.classList.add('showing');
      showing = index;
    }
    drawWave(seconds);
    return { time: seconds, cue: index, text: overlay.textContent };
  }

  /** Moves the preview to `seconds`; resolves once the picture there is shown. */
  function seek(seconds) {
    time = seconds;
    if (kind === 'none' || video.error) return Promise.resolve(showTime());
    return new Promise((resolve) => {
      const go = () => {
        video.addEventListener('seeked', () => resolve(showTime()), { once: true });
        video.currentTime = seconds;
      };
      if (video.readyState > 0) go();
      else {
        video.addEventListener('loadedmetadata', go, { once: true });
        video.addEventListener('error', () => resolve(showTime()), { once: true });
      }
    });
  }

  function playCue(index) {
    const row = rows.find((r) => r.index === (index ?? selected));
    if (!row || kind === 'none') return;
    void seek(row.start).then(() => {
      stopAt = row.end;
      void video.play();
    });
  }

  function tick() {
    if (stopAt !== null && video.currentTime >= stopAt) {
      video.pause();
      video.currentTime = stopAt;
      stopAt = null;
    }
    showTime();
    if (!video.paused) requestAnimationFrame(tick);
  }

  video.addEventListener('play', () => requestAnimationFrame(tick));
  video.addEventListener('pause', () => showTime());
  video.addEventListener('seeked', () => showTime());
  /** @type {HTMLElement} */ (document.getElementById('play')).addEventListener('click', () => playCue(selected));
  /** @type {HTMLElement} */ (document.getElementById('pause')).addEventListener('click', () => {
    stopAt = null;
    video.pause();
  });
  /** @type {HTMLElement} */ (document.getElementById('pick-media')).addEventListener('click', () =>
    vscode.postMessage({ type: 'pick-media' }),
  );

  /** An audio file's waveform (scaled to its peak by the extension) with the playhead, where a video would be. */
  function drawWave(seconds) {
    if (kind !== 'audio') return;
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    if (width === 0 || height === 0) return;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.floor(width * ratio);
    canvas.height = Math.floor(height * ratio);
    const context = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, height);
    if (!wave) return;
    const style = getComputedStyle(body);
    context.fillStyle = style.getPropertyValue('--vscode-charts-blue') || '#3794ff';
    const middle = height / 2;
    const buckets = wave.peaks.length / 2;
    const perPixel = buckets / width;
    for (let x = 0; x < width; x++) {
      let low = 0;
      let high = 0;
      for (let b = Math.floor(x * perPixel); b < Math.min(buckets, Math.floor((x + 1) * perPixel) + 1); b++) {
        low = Math.min(low, wave.peaks[b * 2]);
        high = Math.max(high, wave.peaks[b * 2 + 1]);
      }
      const top = middle - (high / 127) * middle * 0.9;
      context.fillRect(x, top, 1, Math.max(1, middle - (low / 127) * middle * 0.9 - top));
    }
    context.fillStyle = '#f44';
    context.fillRect(Math.round((seconds / Math.max(wave.duration, 0.001)) * width), 0, 2, height);
  }

  function decodePeaks(base64) {
    const text = atob(base64);
    const peaks = new Int8Array(text.length);
    for (let i = 0; i < text.length; i++) peaks[i] = (text.charCodeAt(i) << 24) >> 24;
    return peaks;
  }

  window.addEventListener('resize', () => showTime());
  window.addEventListener('message', (event) => {
    const message = event.data;
    if (!message || typeof message !== 'object') return;
    switch (message.type) {
      case 'rows':
        if (dirty(document.activeElement)) pending = message.rows;
        else {
          rows = message.rows;
          draw();
        }
        return;
      case 'cursor':
        if (message.index !== null && message.index !== selected) select(message.index, true);
        return;
      case 'playhead':
        if (video.paused && kind !== 'none') void seek(message.position);
        return;
      case 'show-at':
        void seek(message.time).then((shown) =>
          vscode.postMessage({ type: 'shown', ...shown, request: message.request }),
        );
        return;
      case 'waveform':
        wave = {
          bucketsPerSecond: message.bucketsPerSecond,
          duration: message.duration,
          peaks: decodePeaks(message.peaks),
        };
        showTime();
        return;
    }
  });
  vscode.postMessage({ type: 'ready' });
})();
