#!/usr/bin/env bash
# Runs web_test.py against a real `warpscope serve` (the page's compiles go through it):
#   with-serve.sh WARPSCOPE WEB_DIR -- web_test.py ARGS...   (--server URL is added)
# The server listens on a free port of 127.0.0.1 and is stopped afterwards; its log is printed
# when the test fails.
set -uo pipefail
ws=$1 web=$2
shift 3
log=$(mktemp)
"$ws" serve --web "$web" --port 0 > "$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f "$log"' EXIT
url=""
for _ in $(seq 1 100); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$log" | head -1)
    [ -n "$url" ] && break
    sleep 0.1
done
if [ -z "$url" ]; then
    echo "with-serve: warpscope serve did not start:"; cat "$log"; exit 1
fi
"$@" --server "$url"
rc=$?
[ $rc -eq 0 ] || { echo "--- warpscope serve's log:"; cat "$log"; }
exit $rc
