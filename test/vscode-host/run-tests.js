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
function locate(page, request) {
  let scope = page;
  for (const frame of request.frames || []) scope = scope.frameLocator(frame);
  return scope.locator(request.selector);
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
      await locate(page, request).first().click({ button: request.button || 'left', timeout: request.timeout || 10000 });
      return {};
    case 'type':
      await page.locator(request.selector).first().pressSequentially(request.text, { delay: 20 });
      return {};
    case 'press':
      await page.keyboard.press(request.key);
      return {};
    case 'waitFor':
      await locate(page, request).first().waitFor({ state: request.state || 'visible', timeout: request.timeout || 10000 });
      return {};
    case 'property':
      return { value: await locate(page, request).first().evaluate((el, name) => el[name], request.name) };
    case 'count':
      return { count: await locate(page, request).count() };
    case 'texts':
      return { texts: await locate(page, request).allTextContents() };
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
  await browser.close();
  console.log(`extension host exited with code ${code} after ${Date.now() - t0} ms`);
  process.exit(code === 0 ? 0 : 1);
})().catch(e => { console.error(e); process.exit(2); });
