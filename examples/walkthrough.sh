#!/usr/bin/env bash
# Runs the README's examples as one script, in order: every ```bash block except those right after a
# "<!-- not run by examples/walkthrough.sh: ... -->" line. Every `curl -s` becomes
# `curl -sS --fail-with-body`, so the first answer that is not a 2xx stops the run with that answer shown.
#
#   examples/walkthrough.sh            against $BASE (default http://127.0.0.1:3000), a running `npm start`
#   examples/walkthrough.sh --serve    starts its own server (what `npm start` runs) on a fresh data dir
#   examples/walkthrough.sh --print    prints the script it would run
set -euo pipefail
cd "$(dirname "$0")/.."

script() {
  awk '
    /^<!-- not run by examples\/walkthrough\.sh/ { skip = 1; next }
    /^```bash$/ { if (!skip) { inblock = 1; print "# --- README.md line " NR } skip = 0; next }
    /^```/ { inblock = 0; next }
    inblock { print; next }
    NF { skip = 0 }
  ' README.md | sed "s/curl -s /curl -sS --fail-with-body -w '\\\\n' /g"
}

case "${1:-}" in
  --print) script; exit 0 ;;
  --serve)
    WORK=$(mktemp -d)
    PORT=${WALKTHROUGH_PORT:-3790}
    export DATA_DIR="$WORK/data" BASE="http://127.0.0.1:$PORT"
    # Hermetic, as in CI: the offline weather model, no call leaves the machine.
    PORT=$PORT WEATHER_PROVIDER=offline LOG_LEVEL=warn node --import tsx bin/serve.ts >"$WORK/server.log" 2>&1 &
    SERVER=$!
    trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT
    for _ in $(seq 1 120); do
      curl -fsS "$BASE/health" >/dev/null 2>&1 && break
      kill -0 $SERVER 2>/dev/null || { cat "$WORK/server.log"; echo "walkthrough: the server exited"; exit 1; }
      sleep 0.5
    done
    ;;
  "") ;;
  *) echo "usage: examples/walkthrough.sh [--serve|--print]" >&2; exit 2 ;;
esac

export BASE=${BASE:-http://127.0.0.1:3000}
started=$(date +%s)
# The ERR trap names the README command that failed (curl prints the answer itself).
if bash -euo pipefail -c "trap 'echo \"walkthrough: failed at: \$BASH_COMMAND\" >&2' ERR
$(script)"; then
  echo "walkthrough: every README example answered 2xx ($(($(date +%s) - started)) s against $BASE)"
else
  status=$?
  echo "walkthrough: failed (exit $status)" >&2
  [ -n "${WORK:-}" ] && { echo "--- server log (last 30 lines)" >&2; tail -n 30 "$WORK/server.log" >&2; }
  exit $status
fi
