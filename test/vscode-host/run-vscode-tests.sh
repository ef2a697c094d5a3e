#!/usr/bin/env bash
# Runs a VS Code extension test module inside a throw-away code-server (the real Node extension host),
# driven by headless Chromium, then stops it.
# Usage: run-vscode-tests.sh <extensionDevelopmentPath|-> <extensionTestsPath (module path)> [workspaceFolder]
# env: INSTALL_VSIX=file.vsix (install it first; pass "-" as the development path),
#      USER_SETTINGS=file.json (merged into the user settings), TEST_TIMEOUT_MS (default 300000),
#      UI_REQUEST_DIR (screenshots and clicks the tests ask for, see run-tests.js), KEEP_STATE=1
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
EXT="$1"; TESTS="$(realpath -m "$2")"; WS="${3:+$(realpath "$3")}"
STATE="$(mktemp -d "${TMPDIR:-/tmp}/vscode-test-XXXXXX")"
PORT="${VSCODE_TEST_PORT:-$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')}"
mkdir -p "$STATE/ud/User" "$STATE/exts" "$STATE/no-dev-ext"
# "-": no extension under development (testing a .vsix installed via INSTALL_VSIX); VS Code only runs
# extensionTestsPath when some extensionDevelopmentPath is given, so give it an empty folder.
if [ "$EXT" = - ]; then EXT="$STATE/no-dev-ext"; else EXT="$(realpath "$EXT")"; fi
node -e '
  const fs = require("fs");
  const base = { "workbench.startupEditor": "none", "telemetry.telemetryLevel": "off", "update.mode": "none",
    "extensions.autoCheckUpdates": false, "extensions.autoUpdate": false, "workbench.enableExperiments": false,
    "security.workspace.trust.enabled": false, "chat.disableAIFeatures": true, "workbench.tips.enabled": false };
  const extra = process.env.USER_SETTINGS ? JSON.parse(fs.readFileSync(process.env.USER_SETTINGS, "utf8")) : {};
  fs.writeFileSync(process.argv[1], JSON.stringify({ ...base, ...extra }, null, 2));
' "$STATE/ud/User/settings.json"
export XDG_CONFIG_HOME="$STATE/config" XDG_DATA_HOME="$STATE/data" XDG_CACHE_HOME="$STATE/cache"
# keep code-server's marketplace client on loopback (default is open-vsx.org, unreachable here)
export EXTENSIONS_GALLERY='{"serviceUrl":"http://127.0.0.1:9/gallery","itemUrl":"http://127.0.0.1:9/item","resourceUrlTemplate":"http://127.0.0.1:9/r/{publisher}/{name}/{version}/{path}"}'
CODE_SERVER="$HERE/node_modules/.bin/code-server"
if [ -n "${INSTALL_VSIX:-}" ]; then
  "$CODE_SERVER" --user-data-dir "$STATE/ud" --extensions-dir "$STATE/exts" --install-extension "$(realpath "$INSTALL_VSIX")" >/dev/null
fi
mkdir -p "$STATE/tmp"
TMPDIR="$STATE/tmp" setsid "$CODE_SERVER" --auth none --bind-addr "127.0.0.1:$PORT" \
  --disable-telemetry --disable-update-check --disable-workspace-trust --disable-getting-started-override \
  --user-data-dir "$STATE/ud" --extensions-dir "$STATE/exts" > "$STATE/code-server.log" 2>&1 &
CS_PID=$!
# code-server runs in its own process group (setsid): stop the group, which includes the extension host.
cleanup() { kill -- -"$CS_PID" 2>/dev/null || true; wait "$CS_PID" 2>/dev/null || true; sleep 0.5; kill -9 -- -"$CS_PID" 2>/dev/null || true; [ -n "${KEEP_STATE:-}" ] || rm -rf "$STATE"; }
trap cleanup EXIT
for _ in $(seq 1 300); do
  curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
  kill -0 "$CS_PID" 2>/dev/null || { echo "code-server failed to start:"; cat "$STATE/code-server.log"; exit 1; }
  sleep 0.1
done
set +e
node "$HERE/run-tests.js" "$EXT" "$TESTS" "$WS" "$PORT" 2>&1 | tee "$STATE/tests.log"
rc=${PIPESTATUS[0]}
set -e
if [ $rc != 0 ]; then
  echo "--- code-server log (last 60 lines) ---"; tail -n 60 "$STATE/code-server.log"
  # The extension's own log (its output channel) says what the engine and the jobs were doing when a test failed;
  # whisper.cpp's model-loading chatter is left out, it would push the rest off the screen.
  find "$STATE/ud/logs" -name '*Speech Studio*.log' 2>/dev/null | while read -r log; do
    echo "--- $(basename "$log") (last 150 lines, whisper.cpp's loading lines left out) ---"
    grep -v '\] whisper_\|\] ggml_' "$log" | tail -n 150
    # A warning from early in the run (a page that never played) would be cut off above.
    echo "--- $(basename "$log"): its last 40 warnings and errors ---"
    grep '\[warning\]\|\[error\]' "$log" | tail -n 40
  done
  # Last, so that whoever reads only the end of a CI log sees which tests failed and why.
  echo "--- failed tests ---"
  grep -A 6 '^  ✘ ' "$STATE/tests.log" || tail -n 20 "$STATE/tests.log"
fi
exit $rc
