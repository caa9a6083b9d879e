#!/usr/bin/env python3
"""Opens the web build in headless Chromium and checks the app's model state (tests/web;
docs/web.md). The page writes the desktop screenshot sidecar's JSON into <pre id="warpscope-sidecar">
(?sidecar=1); this script serves the page (static_server.py, with the cross-origin isolation
headers), drives Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: no
network port, no npm), waits until the sidecar satisfies every --expect, and can take a
screenshot. Exit 0 when everything held, 1 with the reason otherwise.

usage: web_test.py --web DIR --query 'lesson=coalescing&step=3&do=1&sidecar=1'
                   [--expect PATH=VALUE | PATH>NUMBER | PATH~TEXT ...] [--log-expect TEXT ...]
                   [--screenshot OUT.png] [--size 1280x720] [--scale-factor F] [--timeout S] [--server URL]
                   [--file PAGE_PATH=LOCAL_FILE ...] [--no-isolation]
  PATH is a /-separated path into the sidecar JSON; `panels/id` matches any panel with that id.
  --log-expect waits for TEXT in the page's printed output (#warpscope-log) instead.
  --server: use a running server (warpscope serve) instead of starting static_server.py.
  --scale-factor: the device pixel ratio (Chromium's --force-device-scale-factor): 2 is a high-DPI
  screen; --size stays in CSS pixels, the screenshot has size x F pixels.
  --file: a file put into the page's file system before the app starts (window.warpscopeFiles,
  which index.html writes), e.g. a kernel with an error to open with ?open=PAGE_PATH.
  --no-isolation: serve without the cross-origin isolation headers (the single-thread build runs);
  with --server too, the page is served that way by static_server.py, which passes /api/ requests
  on to the server (the single-thread program compiling through warpscope serve).
  --do STEP (repeatable, run in order once the --expect's held): what a learner does, and what the
  page must show meanwhile:
    click:ITEM[@F]     clicks the toolbar item ITEM (the sidecar's toolbar list: to-end, run, cancel,
                       speed, ...) at the fraction F of its width (default 0.5)
    wait:EXP[;EXP...]  waits until the sidecar satisfies each expectation (as --expect)
    click-at:X,Y       clicks the page at X,Y (CSS pixels), for a button that is not in the toolbar
    mark               starts a frame-gap window now (the page's time)
    mark:start         ... at the moment the program started (index.html's onRuntimeInitialized)
    gaps:MS[:N]        the page drew at least N frames (default 3) since the mark, and no two
                       of them (nor the mark and the first) are more than MS ms apart; prints the
                       window's frames, its longest gaps and its length
    sleep:S            lets S seconds of frames pass
  The page's frames are counted by a requestAnimationFrame loop the test puts into the page: the
  browser runs it only when the page's one thread is free, so a gap is a time the tab was frozen.
"""
import argparse
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


class Chromium:
    """Chromium's DevTools protocol over --remote-debugging-pipe (fd 3 in, fd 4 out, NUL-separated)."""

    def __init__(self, exe, width, height, scale=1.0):
        self.profile = tempfile.mkdtemp(prefix="warpscope-web-chromium-")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def child():
            # Moved clear of 3 and 4 first (a pipe end may already be one of them), then placed,
            # inheritable (Python's pipes are close-on-exec).
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        args = [exe, "--headless=new", "--no-sandbox", "--remote-debugging-pipe", "--use-gl=swiftshader",
                "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--user-data-dir=" + self.profile, f"--window-size={width},{height}",
                f"--force-device-scale-factor={scale:g}", "about:blank"]
        self.proc = subprocess.Popen(args, preexec_fn=child, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None
        self.eval_timeout = 60

    def send(self, method, params=None, session=True, timeout=60):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while time.time() < deadline:
            m = self.read(deadline - time.time())
            if m is None:
                continue
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)
        raise RuntimeError(f"{method}: no answer from Chromium in {timeout} s")

    def read(self, timeout):
        import select
        while b"\0" not in self.buf:
            r, _, _ = select.select([self.from_chrome], [], [], max(0.0, timeout))
            if not r:
                return None
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe (did it crash?)")
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        return json.loads(raw)

    def pump(self, seconds):
        deadline = time.time() + seconds
        while time.time() < deadline:
            m = self.read(deadline - time.time())
            if m is not None:
                self.events.append(m)

    def open(self, url, width, height, scale=1.0, files=None):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        self.send("Runtime.enable")
        self.send("Page.enable")
        self.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": False})
        if files:
            # Runs in the page before its own scripts: index.html writes these into the page's files.
            self.send("Page.addScriptToEvaluateOnNewDocument", {"source": "window.warpscopeFiles = " + json.dumps(files) + ";"})
        # The page's frames: every animation frame's time (performance.now(), ms). The browser runs
        # the callback only when the page's thread is free, as it runs the app's frames.
        self.send("Page.addScriptToEvaluateOnNewDocument", {"source": FRAME_RECORDER})
        self.send("Page.navigate", {"url": url})

    def eval(self, expr):
        # A page busy in one long call (?bench= runs before the app, on the page's thread) answers
        # when it is done: wait as long as the test may.
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True}, timeout=self.eval_timeout)
        return r.get("result", {}).get("value")

    def console_lines(self):
        out = []
        for e in self.events:
            if e.get("method") == "Runtime.consoleAPICalled":
                out.append(" ".join(str(a.get("value", a.get("description", ""))) for a in e["params"].get("args", [])))
            elif e.get("method") == "Runtime.exceptionThrown":
                d = e["params"].get("exceptionDetails", {})
                frames = d.get("stackTrace", {}).get("callFrames", [])
                where = " <- ".join(f.get("functionName") or "?" for f in frames[:12])
                out.append("EXCEPTION " + str(d.get("exception", {}).get("description", d.get("text", ""))) + (" at " + where if where else ""))
        return out

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


FRAME_RECORDER = """
window.warpscopeFrameTimes = [];
(function frame() {
  var t = window.warpscopeFrameTimes;
  t.push(performance.now());
  if (t.length > 100000) t.splice(0, 50000);
  requestAnimationFrame(frame);
})();
"""


def click(chrome, sidecar, item, scale):
    """Clicks the toolbar item `item` ('ID' or 'ID@F': at the fraction F of its width) of the sidecar."""
    ident, _, frac = item.partition("@")
    frac = float(frac) if frac else 0.5
    rects = [t for t in (sidecar or {}).get("toolbar", []) if t.get("id") == ident]
    if not rects:
        raise RuntimeError(f"click:{item}: no toolbar item {ident!r} in the sidecar")
    r = rects[0]
    x = (r["x"] + r["w"] * frac) / scale   # the sidecar has device pixels; the mouse, CSS pixels
    y = (r["y"] + r["h"] * 0.5) / scale
    chrome.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
    chrome.send("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x, "y": y, "button": "left", "clickCount": 1})
    chrome.send("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x, "y": y, "button": "left", "clickCount": 1})


def frame_gaps(times, start, end):
    """The gaps (ms) between the window's start and its frames in (start, end], in order."""
    inside = [t for t in times if start < t <= end]
    points = [start] + inside
    return inside, [b - a for a, b in zip(points, points[1:])]


def lookup(j, path):
    """Values at a /-separated path; a list step matches every element (panels/id -> all ids)."""
    vals = [j]
    for part in path.split("/"):
        nxt = []
        for v in vals:
            if isinstance(v, list):
                for x in v:
                    if isinstance(x, dict) and part in x:
                        nxt.append(x[part])
            elif isinstance(v, dict) and part in v:
                nxt.append(v[part])
        vals = nxt
    return vals


def check(j, exp):
    """'' when the expectation holds, else why not."""
    for op in (">", "~", "="):
        if op in exp:
            path, want = exp.split(op, 1)
            break
    else:
        return f"bad expectation {exp!r}"
    vals = lookup(j, path)
    if op == "=":
        ok = any(str(v).lower() == want.lower() if isinstance(v, (bool,)) else str(v) == want for v in vals)
    elif op == ">":
        ok = any(isinstance(v, (int, float)) and v > float(want) for v in vals)
    else:
        ok = any(want in str(v) for v in vals)
    return "" if ok else f"{exp}: found {vals[:12]}"


def read_sidecar(chrome):
    text = chrome.eval("document.getElementById('warpscope-sidecar') ? document.getElementById('warpscope-sidecar').textContent : ''") or ""
    try:
        return json.loads(text) if text else None
    except json.JSONDecodeError:
        return None


def do_steps(chrome, a, sidecar):
    """Runs the --do steps; [] when every one held, else why not."""
    mark = None
    for step in a.do:
        kind, _, arg = step.partition(":")
        if kind == "click":
            sidecar = read_sidecar(chrome) or sidecar
            click(chrome, sidecar, arg, a.scale_factor)
            print(f"web_test: clicked {arg} at {chrome.eval('performance.now()'):.0f} ms")
        elif kind == "click-at":
            x, y = (float(v) for v in arg.split(","))
            for t in ("mouseMoved", "mousePressed", "mouseReleased"):
                ev = {"type": t, "x": x, "y": y}
                if t != "mouseMoved":
                    ev.update(button="left", clickCount=1)
                chrome.send("Input.dispatchMouseEvent", ev)
            print(f"web_test: clicked at {x:g},{y:g} at {chrome.eval('performance.now()'):.0f} ms")
        elif kind == "mark":
            if arg == "start":
                mark = chrome.eval("window.warpscopeStartedAt || 0")
                if not mark:
                    return ["mark:start: the page did not record when the program started (window.warpscopeStartedAt)"]
            else:
                mark = chrome.eval("performance.now()")
        elif kind == "wait":
            exps = [e for e in arg.split(";") if e]
            t0, why = time.time(), ["no sidecar yet"]
            while time.time() - t0 < a.timeout:
                chrome.pump(0.2)
                sidecar = read_sidecar(chrome)
                why = ["no sidecar yet"] if sidecar is None else [w for w in (check(sidecar, e) for e in exps) if w]
                if not why:
                    break
            if why:
                return [f"{step}: after {time.time() - t0:.1f} s: " + "; ".join(why)]
            print(f"web_test: {step} held after {time.time() - t0:.1f} s (state {sidecar.get('state')!r}, "
                  f"{sidecar.get('warp_instructions')} warp-instructions)")
        elif kind == "gaps":
            if mark is None:
                return [f"{step}: no mark before it"]
            limit, _, least = arg.partition(":")
            least = int(least) if least else 3
            now = chrome.eval("performance.now()")
            times = chrome.eval("window.warpscopeFrameTimes") or []
            inside, gaps = frame_gaps(times, mark, now)
            top = sorted(gaps, reverse=True)[:5]
            print(f"web_test: frame gaps over {now - mark:.0f} ms: {len(inside)} frames, longest "
                  + ", ".join(f"{g:.0f}" for g in top) + " ms" + (f", median {sorted(gaps)[len(gaps) // 2]:.0f} ms" if gaps else ""))
            if len(inside) < least:
                return [f"{step}: {len(inside)} frames in {now - mark:.0f} ms, fewer than {least}"]
            if top and top[0] > float(limit):
                return [f"{step}: the page drew no frame for {top[0]:.0f} ms (over {limit} ms)"]
        elif kind == "sleep":
            chrome.pump(float(arg))
        else:
            return [f"bad step {step!r}"]
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--web", required=True)
    ap.add_argument("--query", default="sidecar=1")
    ap.add_argument("--expect", action="append", default=[])
    ap.add_argument("--log-expect", action="append", default=[])
    ap.add_argument("--page-expect", action="append", default=[], help="TEXT the page shows (its status line)")
    ap.add_argument("--no-isolation", action="store_true", help="serve without the cross-origin isolation headers")
    ap.add_argument("--screenshot")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--scale-factor", type=float, default=1.0)
    ap.add_argument("--file", action="append", default=[], help="PAGE_PATH=LOCAL_FILE: put into the page's file system")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--server")
    ap.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser") or "chromium")
    ap.add_argument("--print-sidecar", action="store_true")
    ap.add_argument("--settle", type=float, default=0, help="seconds of frames after the expectations held (frame times)")
    ap.add_argument("--do", action="append", default=[], help="a step after the expectations held (see the usage)")
    a = ap.parse_args()
    width, height = (int(x) for x in a.size.split("x"))
    needed = ["index.html", "warpscope.js", "warpscope.wasm", "warpscope-st.js", "warpscope-st.wasm"]
    absent = [f for f in needed if not os.path.isfile(os.path.join(a.web, f))]
    if absent:
        print(f"web_test: the web build is not in {a.web} (missing: {', '.join(absent)}): the build's `web` target "
              "(scripts/build-web.sh) did not make it; its output says why", file=sys.stderr)
        return 1

    server = None
    base = a.server
    api = []
    if a.server and a.no_isolation:
        api, base = ["--api", a.server], None
    if not base:
        with tempfile.TemporaryDirectory() as tmp:
            port_file = os.path.join(tmp, "port")
            server = subprocess.Popen([sys.executable, os.path.join(HERE, "static_server.py"), a.web, "--port-file", port_file]
                                      + (["--no-isolation"] if a.no_isolation else []) + api,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for _ in range(100):
                if os.path.exists(port_file):
                    break
                time.sleep(0.1)
            else:
                print("web_test: the static server did not start", file=sys.stderr)
                server.kill()
                return 1
            base = f"http://127.0.0.1:{open(port_file).read().strip()}/"
    files = {}
    for f in a.file:
        page_path, local = f.split("=", 1)
        with open(local, encoding="utf-8") as fh:
            files[page_path] = fh.read()
    chrome = Chromium(a.chromium, width, height, a.scale_factor)
    chrome.eval_timeout = max(60, a.timeout)
    rc = 1
    try:
        url = base + "index.html?" + a.query
        chrome.open(url, width, height, a.scale_factor, files)
        t0 = time.time()
        sidecar, why, log = None, ["nothing yet"], ""
        while time.time() - t0 < a.timeout:
            chrome.pump(1.0)
            text = chrome.eval("document.getElementById('warpscope-sidecar') ? document.getElementById('warpscope-sidecar').textContent : ''") or ""
            log = chrome.eval("document.getElementById('warpscope-log') ? document.getElementById('warpscope-log').textContent : ''") or ""
            why = []
            if a.expect:
                try:
                    sidecar = json.loads(text) if text else None
                except json.JSONDecodeError:
                    sidecar = None
                if sidecar is None:
                    why.append("no sidecar yet")
                else:
                    why += [w for w in (check(sidecar, e) for e in a.expect) if w]
            why += [f"log lacks {t!r}" for t in a.log_expect if t not in log]
            if a.page_expect:
                shown = chrome.eval("document.getElementById('status') ? document.getElementById('status').innerText : ''") or ""
                why += [f"the page does not show {t!r} (it shows {shown[:200]!r})" for t in a.page_expect if t not in shown]
            if not why:
                break
        elapsed = time.time() - t0
        if not why and a.do:
            why = do_steps(chrome, a, sidecar)
        if a.settle > 0:
            chrome.pump(a.settle)
        frames = chrome.eval("document.getElementById('warpscope-frames') ? document.getElementById('warpscope-frames').textContent : ''")
        if why:
            print(f"web_test: FAILED after {elapsed:.1f} s ({url}):\n  " + "\n  ".join(why))
            print("page output:\n" + log[-3000:])
            print("console:\n" + "\n".join(chrome.console_lines()[-40:]))
        else:
            print(f"web_test: ok after {elapsed:.1f} s ({url})")
            rc = 0
        if a.print_sidecar and sidecar is not None:
            print(json.dumps(sidecar, indent=1)[:4000])
        if log and a.log_expect:
            print("page output:\n" + log)
        if frames:
            print("frames: " + frames)
        if a.screenshot:
            chrome.pump(1.0)   # a few more frames after the state settled
            png = base64.b64decode(chrome.send("Page.captureScreenshot", {"format": "png"})["data"])
            with open(a.screenshot, "wb") as f:
                f.write(png)
            print(f"web_test: wrote {a.screenshot} ({len(png)} bytes)")
    finally:
        chrome.close()
        if server:
            server.kill()
            server.wait()
    return rc


if __name__ == "__main__":
    sys.exit(main())
