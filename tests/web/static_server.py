#!/usr/bin/env python3
"""A test-only static server for the web build (tests/web; docs/web.md): serves a folder with the
headers `warpscope serve` sends (Cross-Origin-Opener-Policy: same-origin and
Cross-Origin-Embedder-Policy: require-corp, so the page is cross-origin isolated and may use
threads) and the right Content-Types, and answers the compile API as a static copy of the page
would be answered: GET /api/health and POST /api/compile get 404 (or, with --api, go on to a
running `warpscope serve`). The tests that do not compile use this.

usage: static_server.py DIR [--port N] [--port-file FILE] [--no-isolation] [--api URL]
  port 0: any free port, written to FILE; --no-isolation leaves the two headers out (a plain
  static server: the page runs its single-thread program); --api URL passes /api/ requests on
  to a running `warpscope serve` at URL (a page without isolation that still compiles, as behind a
  plain web host with the compile service proxied)
"""
import argparse
import http.server
import os
import sys
import urllib.error
import urllib.request

TYPES = {
    ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".wasm": "application/wasm",
    ".data": "application/octet-stream", ".css": "text/css", ".png": "image/png", ".json": "application/json",
}


class Handler(http.server.SimpleHTTPRequestHandler):
    isolation = True
    api = ""   # a warpscope serve to pass /api/ requests on to ("": answer 404)

    def forward(self, body):
        headers = {k: v for k, v in self.headers.items() if k.lower() in ("content-type", "authorization")}
        req = urllib.request.Request(self.api.rstrip("/") + self.path, data=body, headers=headers,
                                     method="POST" if body is not None else "GET")
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                code, data = r.status, r.read()
        except urllib.error.HTTPError as e:
            code, data = e.code, e.read()
        except OSError as e:
            code, data = 502, ('{"error":"the compile service did not answer: %s"}' % str(e).replace('"', "'")).encode()
        return self.send_json(code, data)

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
            if self.api:
                return self.forward(None)
            return self.send_json(404, b'{"error":"no compile service here (a static copy of the page)"}')
        return super().do_GET()

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if self.api and self.path.startswith("/api/"):
            return self.forward(body)
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
    ap.add_argument("--api", default="")
    a = ap.parse_args()
    Handler.isolation = not a.no_isolation
    Handler.api = a.api
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
