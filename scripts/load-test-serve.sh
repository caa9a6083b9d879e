#!/usr/bin/env bash
# Load test of `warpscope serve` on 127.0.0.1 (docs/serve.md, "Load test"): 50 students compiling
# at once with distinct kernels, then with one identical kernel, then with a small queue to show
# who gets 503. Usage: scripts/load-test-serve.sh [path/to/warpscope] [students]
# Environment: WORKERS (default: cores), QUEUE (default 64), COMPILER (default clang).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exe="${1:-$here/../build/app/cli/warpscope}"
students="${2:-50}"
compiler="${COMPILER:-clang}"
workers="${WORKERS:-$(nproc)}"
queue="${QUEUE:-64}"
work="$(mktemp -d)"
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

start() {   # start the server on a free port with the given extra options; sets $port and $pid
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
    XDG_CACHE_HOME="$work/cache" "$exe" serve --port "$port" --rate 0 --compiler "$compiler" --workers "$workers" "$@" \
        2>>"$work/serve.log" &
    pid=$!
    for _ in $(seq 100); do
        python3 -c "import http.client as h; c=h.HTTPConnection('127.0.0.1',$port,timeout=1); c.request('GET','/api/health'); exit(c.getresponse().status!=200)" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "the server did not start:"; cat "$work/serve.log"; exit 1
}
stop() { kill -TERM "$pid"; wait "$pid" || true; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr)"
echo "server: $compiler, $workers workers, queue $queue, no rate limit (every student here has the same address)"
start --queue "$queue"
python3 "$here/load_test_serve.py" --port "$port" --students "$students" --distinct || true
stop
rm -rf "$work/cache"   # a cold PTX cache again
start --queue "$queue"
python3 "$here/load_test_serve.py" --port "$port" --students "$students" || true
stop
rm -rf "$work/cache"
echo "with --queue 8:"
start --queue 8
python3 "$here/load_test_serve.py" --port "$port" --students "$students" --distinct || true
stop
echo "server log: $(grep -c '/api/compile' "$work/serve.log") compile lines; the last ones:"
grep '/api/compile' "$work/serve.log" | tail -3
