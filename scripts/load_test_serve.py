#!/usr/bin/env python3
"""A classroom at once against `warpscope serve`: N simulated students POST /api/compile together.

Each student is a thread that waits at a barrier, then sends one compile and times the answer.
With --distinct every student's kernel differs (a different constant and name), so the server's
sharing of identical compiles cannot hide the work; without it all send the same source.
Prints one summary line and, with --json, the raw results. Standard library only.
"""
import argparse
import http.client
import json
import statistics
import sys
import threading
import time

KERNEL = """// student {i}
__global__ void saxpy_{i}(float* y, const float* x, float a, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i] + {i}.0f;
}}

__global__ void reduce_{i}(const float* in, float* out, int n) {{
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x * 2 + t;
    float v = 0;
    if (i < n) v += in[i];
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    s[t] = v;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {{
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }}
    if (t == 0) out[blockIdx.x] = s[0] * {i};
}}
"""


def student(i, args, barrier, results):
    source = KERNEL.format(i=i if args.distinct else 0)
    body = json.dumps({"source": source, "file": "kernel.cu"})
    headers = {"Content-Type": "application/json"}
    if args.token:
        headers["Authorization"] = "Bearer " + args.token
    barrier.wait()
    t0 = time.monotonic()
    status, ok, error, cached = 0, False, "", False
    try:
        conn = http.client.HTTPConnection(args.host, args.port, timeout=args.timeout)
        conn.request("POST", "/api/compile", body=body, headers=headers)
        resp = conn.getresponse()
        status = resp.status
        reply = json.loads(resp.read() or b"{}")
        ok = bool(reply.get("ok"))
        cached = bool(reply.get("cached"))
        error = reply.get("error", "")
        conn.close()
    except Exception as e:  # a dropped connection counts as a failure, with its reason
        error = "client: " + repr(e)
    results[i] = {"student": i, "status": status, "ok": ok, "cached": cached,
                  "seconds": time.monotonic() - t0, "error": error}


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--token", default="")
    p.add_argument("--students", type=int, default=50)
    p.add_argument("--distinct", action="store_true", help="a different kernel per student")
    p.add_argument("--timeout", type=float, default=600)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()

    results = [None] * args.students
    barrier = threading.Barrier(args.students)
    threads = [threading.Thread(target=student, args=(i, args, barrier, results)) for i in range(args.students)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - t0

    times = sorted(r["seconds"] for r in results)
    by_status = {}
    for r in results:
        by_status[r["status"]] = by_status.get(r["status"], 0) + 1
    good = [r for r in results if r["status"] == 200 and r["ok"]]
    print("%d students, %s sources: %d compiled (PTX), statuses %s; latency median %.2f s, slowest %.2f s, "
          "fastest %.2f s; all answered in %.2f s"
          % (args.students, "distinct" if args.distinct else "identical", len(good),
             json.dumps(by_status, sort_keys=True), statistics.median(times), times[-1], times[0], wall))
    for r in results:
        if r["status"] != 200 or not r["ok"]:
            print("  student %d: HTTP %d %s" % (r["student"], r["status"], r["error"]))
    if args.json:
        print(json.dumps(results, indent=1))
    return 0 if len(good) == args.students else 1


if __name__ == "__main__":
    sys.exit(main())
