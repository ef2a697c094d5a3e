// Runs VS Code extension integration tests inside code-server's real (Node) remote extension host, driven
// by headless Debian Chromium. Usage: node run-tests.js <extDir> <testsModuleAbsPath> [workspaceDir] [port]
//
// The tests run in the extension host and cannot touch the workbench page, so they ask this driver for
// what only a person (or a browser) can do: a line `[ui-request] {"id","action",...}` on the test console
// asks for a screenshot or a click; the driver answers by writing `<UI_REQUEST_DIR>/<id>.json`.
const { chromium } = require('playwright-core');
const fs = require('fs');
const path = require('path');
const util = require('util');
const [extDir, testsPath, wsDir = '', port = '8080'] = process.argv.slice(2);
const uiDir = process.env.UI_REQUEST_DIR;
// The workbench's own chatter (connection set-up, the unreachable marketplace) hides the test output.
const NOISE = /^(Resolving connection token|Resolved connection token|Creating a socket|Updating additional builtin|\[Service Worker\]|ChatSessionStore|connect ECONNREFUSED 127\.0\.0\.1:9|#\d+: http:\/\/127\.0\.0\.1:9\/)/;
const shotDir = process.env.SCREENSHOT_DIR;

// A locator, inside nested iframes when `frames` lists their selectors (webviews are two frames deep).
// VS Code keeps every open webview's iframe in the page (the timeline and the player are both
// `iframe.webview.ready`), hiding the ones behind, and while it switches tabs two can be visible at once: so a
// frame selector that matches several frames means the one whose document holds the selector, never "the
// visible one", which races with the workbench's layout.
function locateIn(scope, frames, selector) {
  return frames.reduce((inner, frame) => inner.frameLocator(frame), scope).locator(selector);
}

async function framesHolding(scope, frames, selector) {
  if (frames.length === 0) return (await scope.locator(selector).count()) > 0 ? [scope.locator(selector)] : [];
  const candidates = scope.locator(frames[0]);
  const found = [];
  for (let i = 0, count = await candidates.count(); i < count; i++) {
    found.push(...(await framesHolding(candidates.nth(i).contentFrame(), frames.slice(1), selector)));
  }
  return found;
}

// Waits (for actions that act on an element) until one frame holds the selector; with none, or for count and
// texts, the plain chain of frame locators, as before.
async function locate(page, request, waitMs = 0) {
  const frames = request.frames || [];
  if (frames.length === 0) return page.locator(request.selector);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const holding = await framesHolding(page, frames, request.selector);
    if (holding.length === 1) return holding[0];
    if (holding.length > 1 || Date.now() >= deadline) return locateIn(page, frames, request.selector);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function perform(page, request) {
  switch (request.action) {
    case 'screenshot': {
      if (!shotDir) return { skipped: true };
      const file = path.join(shotDir, `${request.name}.png`);
      fs.mkdirSync(shotDir, { recursive: true });
      if (request.selector) await page.locator(request.selector).first().screenshot({ path: file });
      else await page.screenshot({ path: file, clip: request.clip });
      return { file };
    }
    case 'click':
      await (await locate(page, request, request.timeout || 10000)).first().click({ button: request.button || 'left', timeout: request.timeout || 10000 });
      return {};
    case 'type':
      await (await locate(page, request, 10000)).first().pressSequentially(request.text, { delay: 20 });
      return {};
    case 'drag': {
      // A real mouse drag by (dx, dy) pixels from a point of the element: its left or right edge, or its middle.
      // A view that redraws (the timeline does when its cues or the playhead change) can replace the element
      // between finding and scrolling; it is found again, a few times, before the drag counts as failed.
      let box = null;
      for (let attempt = 1; !box; attempt++) {
        try {
          const target = (await locate(page, request, 10000)).first();
          await target.scrollIntoViewIfNeeded({ timeout: 5000 });
          box = await target.boundingBox();
          if (!box) throw new Error(`${request.selector} is not visible`);
        } catch (error) {
          if (attempt >= 4) throw error;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
      const x = request.from === 'left' ? box.x + 2 : request.from === 'right' ? box.x + box.width - 2 : box.x + box.width / 2;
      const y = box.y + box.height / 2;
      await page.mouse.move(x, y);
      await page.mouse.down();
      for (let step = 1; step <= 5; step++) await page.mouse.move(x + (request.dx * step) / 5, y + ((request.dy || 0) * step) / 5);
      await page.mouse.up();
      return {};
    }
    case 'press':
      await page.keyboard.press(request.key);
      return {};
    case 'waitFor':
      await (await locate(page, request, ['visible', 'attached', undefined].includes(request.state) ? request.timeout || 10000 : 0)).first().waitFor({ state: request.state || 'visible', timeout: request.timeout || 10000 });
      return {};
    case 'property':
      return { value: await (await locate(page, request, 10000)).first().evaluate((el, name) => el[name], request.name) };
    case 'count':
      // No frame holding the selector: none of it is there, however many webviews are open.
      if (request.frames?.length && (await framesHolding(page, request.frames, request.selector)).length === 0) return { count: 0 };
      return { count: await (await locate(page, request)).count() };
    case 'texts':
      if (request.frames?.length && (await framesHolding(page, request.frames, request.selector)).length === 0) return { texts: [] };
      return { texts: await (await locate(page, request)).allTextContents() };
    default:
      throw new Error(`unknown ui action ${request.action}`);
  }
}

(async () => {
  const t0 = Date.now();
  const host = `127.0.0.1:${port}`;
  const payload = [
    ...(extDir ? [['extensionDevelopmentPath', `vscode-remote://${host}${extDir}`]] : []),
    ['extensionTestsPath', `vscode-remote://${host}${testsPath}`],
  ];
  const url = `http://${host}/?` + (wsDir ? `folder=${encodeURIComponent(wsDir)}&` : 'ew=true&') +
    `payload=${encodeURIComponent(JSON.stringify(payload))}`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
           '--disable-sync', '--no-first-run', '--disable-quic', '--disable-dev-shm-usage', '--autoplay-policy=no-user-gesture-required',
           '--no-pings', '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1', '--disable-features=AutofillServerCommunication,OptimizationHints,MediaRouter'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  if (process.env.SHOW_BROWSER_CONSOLE) page.on('console', m => console.log('[browser]', m.type(), m.text().slice(0, 400)));
  page.on('pageerror', e => console.log('[pageerror]', e.message));
  // The page's and its webviews' last errors and warnings, printed when the run fails: a webview whose script
  // or audio broke says so only in the browser's console.
  const browserTrouble = [];
  page.on('console', (m) => {
    if (m.type() !== 'error' && m.type() !== 'warning') return;
    const origin = m.location()?.url ? ` (${m.location().url.replace(/\?.*$/, '').slice(-80)})` : '';
    browserTrouble.push(`${new Date().toISOString().slice(11, 23)} ${m.type()} ${m.text().slice(0, 300)}${origin}`);
    if (browserTrouble.length > 60) browserTrouble.shift();
  });
  let resolveExit;
  const exited = new Promise(r => (resolveExit = r));
  let uiQueue = Promise.resolve();
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = util.format(...args);
    const match = /^\[ui-request\] (.*)$/.exec(text);
    if (!match) return process.env.VSCODE_TEST_VERBOSE || !NOISE.test(text) ? console.log(text) : undefined;
    const request = JSON.parse(match[1]);
    uiQueue = uiQueue.then(async () => {
      let answer;
      try { answer = { ok: true, ...(await perform(page, request)) }; }
      catch (e) {
        answer = { ok: false, error: String(e && e.message || e).split('\n')[0] };
        // What the page looked like when a UI step failed, for whoever reads the log.
        if (process.env.FAILURE_SCREENSHOT_DIR) {
          const file = path.join(process.env.FAILURE_SCREENSHOT_DIR, `ui-failure-${request.action}-${request.id.slice(0, 8)}.png`);
          await page.screenshot({ path: file }).then(() => console.log(`  (screenshot of the failed UI step: ${file})`), () => undefined);
        }
      }
      if (uiDir) fs.writeFileSync(path.join(uiDir, `${request.id}.json`), JSON.stringify(answer));
    });
  });
  await page.exposeFunction('codeAutomationExit', (code) => resolveExit(code));
  // VS Code >= ~1.10x only honours the payload's extensionDevelopmentPath/extensionTestsPath in built
  // versions when developmentOptions.enableSmokeTestDriver is set; code-server has no flag for it, so
  // patch the workbench configuration embedded in the page.
  await page.addInitScript(() => {
    const patch = (el) => {
      if (el.id !== 'vscode-workbench-web-configuration' || el.__patched) return;
      const cfg = JSON.parse(el.getAttribute('data-settings'));
      cfg.developmentOptions = { ...(cfg.developmentOptions || {}), enableSmokeTestDriver: true };
      el.setAttribute('data-settings', JSON.stringify(cfg)); el.__patched = true;
    };
    new MutationObserver(muts => { for (const m of muts) for (const n of m.addedNodes) if (n.nodeType === 1) patch(n); })
      .observe(document, { childList: true, subtree: true });
  });
  // The workbench page can take more than Playwright's default 30 s to load on a busy two-core machine; the
  // suite's own time limit below is what bounds a run.
  await page.goto(url, { timeout: 180000 });
  const timeoutMs = +(process.env.TEST_TIMEOUT_MS || 300000);
  const code = await Promise.race([exited, new Promise(r => setTimeout(() => r('timeout'), timeoutMs))]);
  await uiQueue;
  if (code !== 0 && browserTrouble.length > 0) {
    console.log(`--- the browser's last ${browserTrouble.length} errors and warnings ---`);
    for (const line of browserTrouble) console.log(line);
  }
  await browser.close();
  console.log(`extension host exited with code ${code} after ${Date.now() - t0} ms`);
  process.exit(code === 0 ? 0 : 1);
})().catch(e => { console.error(e); process.exit(2); });
