#!/usr/bin/env python3
"""A test-only static server for the web build (tests/web; docs/web.md): serves a folder with the
headers `warpscope serve` sends (Cross-Origin-Opener-Policy: same-origin and
Cross-Origin-Embedder-Policy: require-corp, so the page is cross-origin isolated and may use
threads) and the right Content-Types, and answers the compile API as a static copy of the page
would be answered: GET /api/health and POST /api/compile get 404. Until `warpscope serve` is in the
tree, the tests use this.

usage: static_server.py DIR [--port N] [--port-file FILE] [--no-isolation]
  port 0: any free port, written to FILE; --no-isolation leaves the two headers out (a plain
  static server, for the test of what the page says then)
"""
import argparse
import http.server
import os
import sys

TYPES = {
    ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".wasm": "application/wasm",
    ".data": "application/octet-stream", ".css": "text/css", ".png": "image/png", ".json": "application/json",
}


class Handler(http.server.SimpleHTTPRequestHandler):
    isolation = True

    def end_headers(self):
        if self.isolation:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def guess_type(self, path):
        return TYPES.get(os.path.splitext(path)[1], "application/octet-stream")

    def do_GET(self):
        if self.path.startswith("/api/"):
            return self.send_json(404, b'{"error":"no compile service here (a static copy of the page)"}')
        return super().do_GET()

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        return self.send_json(404, b'{"error":"no compile service here (a static copy of the page)"}')

    def send_json(self, code, body):
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, fmt, *args):
        sys.stderr.write("static_server: " + (fmt % args) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--port-file")
    ap.add_argument("--no-isolation", action="store_true")
    a = ap.parse_args()
    Handler.isolation = not a.no_isolation
    os.chdir(a.dir)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", a.port), Handler)
    if a.port_file:
        with open(a.port_file + ".tmp", "w") as f:
            f.write(str(srv.server_address[1]))
        os.replace(a.port_file + ".tmp", a.port_file)
    print(f"static_server: http://127.0.0.1:{srv.server_address[1]}/ serving {a.dir}", flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
