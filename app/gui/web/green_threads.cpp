// Threads without threads: the single-thread web program's pthreads (docs/web.md, "One thread").
//
// A page that is not cross-origin isolated gets no SharedArrayBuffer, so WebAssembly has one
// thread. The app's models still start threads (the Session's worker, the background runners of
// the editor, the grader, Compare and Timeline) and talk to them through mutexes and condition
// variables. In this program (linked without -pthread, with -sASYNCIFY and the --wrap options
// of web.cmake) every std::thread becomes a fiber (emscripten_fiber_*, which Asyncify implements) on
// the browser's one thread, and the waits switch fibers:
//  - pthread_create makes a fiber; it first runs at the next pump;
//  - a fiber that waits (pthread_cond_wait, a timed wait, join, sleep, sched_yield) goes back to
//    the main context, which resumes it at a later pump: the wait returns early (a spurious
//    wake-up, which every caller allows: they loop on their condition), or with ETIMEDOUT once
//    its time has passed;
//  - the main context pumps before every frame (web_platform.cpp) and whenever it waits itself
//    (the app's waitIdle, a join): a pump resumes every live fiber once, and again while any of
//    them signalled, created or finished something, for at most ~30 ms;
//  - mutexes are emscripten's single-thread no-ops: fibers switch only inside the waits above,
//    where a condition variable's mutex is released anyway.
// Work runs inline between frames, and a fiber also goes back to the page inside long engine
// work: the engine calls sim::yieldHook() every few thousand warp-instructions of a launch
// (engine/sim/yield.hpp), which this program sets to engineYield below: once the fiber has run
// kSliceMs since the pump began, it switches to the main context, which draws the next frame and
// resumes it at the next pump. So To end, Run at max speed, a grade and a Compare or Timeline run
// leave the page a frame every few tens of milliseconds, and the stop button's click reaches the
// model (Pause and Cancel are a command and the engine's cancel flag, seen at the fiber's next
// turn). A compile is still a synchronous request the page waits for.
//
// Asyncify unwinds the main context's stack to the outermost call from JavaScript into the
// program. Inside main() that is main itself; inside a frame (the browser's callback) a pump goes
// through a fresh call from JavaScript (warpscope_green_run, exported), so only its own frames
// are unwound and the frame's stack stays as it is.
#include "sim/yield.hpp"

#include <emscripten.h>
#include <emscripten/fiber.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <pthread.h>
#include <sched.h>
#include <vector>

// Linked only into the single-thread program (web.cmake: warpscope-web-st); compiled with the
// web build's other objects (with -pthread: the same objects serve both programs).

namespace {

constexpr size_t kCStack = 4u << 20;        // each fiber's C stack (the threaded build's thread stack)
constexpr size_t kAsyncifyStack = 1u << 20;  // where Asyncify keeps an unwound fiber's locals
constexpr size_t kMainAsyncifyStack = 1u << 20;
// How long a fiber may run inside engine work before it gives the page a frame: kSliceMs, or as
// long as the page took outside the last pump (its frame: a few ms with a GPU; ~100 ms where
// WebGL is rasterised in software), at most kMaxSliceMs. So a frame comes at least every
// kSliceMs plus the frame's own work, and a long run keeps at least half of the time.
constexpr double kSliceMs = 25.0;
constexpr double kMaxSliceMs = 100.0;

struct Green {
    emscripten_fiber_t fiber;
    void* (*start)(void*) = nullptr;
    void* arg = nullptr;
    void* result = nullptr;
    bool finished = false, detached = false;
    void* cstack = nullptr;
    void* astack = nullptr;
};

std::vector<Green*> g_threads;
Green* g_current = nullptr;   // the fiber running now; null: the main context
emscripten_fiber_t g_main;
void* g_mainAstack = nullptr;
uint64_t g_progress = 0;      // bumped by signals, creations and ends: a pump goes round again
double g_pumpStart = 0;       // when the current pump began (emscripten_get_now, ms)
double g_pumpEnd = 0;         // when the last one ended
double g_slice = kSliceMs;    // this pump's slice (engineYield)

double nowMs() { return emscripten_get_now(); }

bool passed(const timespec* abs) {
    if (!abs) return false;
    timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return now.tv_sec > abs->tv_sec || (now.tv_sec == abs->tv_sec && now.tv_nsec >= abs->tv_nsec);
}

void release(Green* g) {
    std::free(g->cstack);
    std::free(g->astack);
    delete g;
}

void fiberEntry(void* p) {
    Green* g = static_cast<Green*>(p);
    g->result = g->start(g->arg);
    g->finished = true;
    ++g_progress;
    // A fiber must not return: back to the main context, which never resumes a finished fiber.
    emscripten_fiber_swap(&g->fiber, &g_main);
    std::abort();
}

// Resumes every live fiber once, and again while they make progress (at most ~30 ms).
// Main context only.
void schedule() {
    if (!g_mainAstack) g_mainAstack = std::malloc(kMainAsyncifyStack);
    emscripten_fiber_init_from_current_context(&g_main, g_mainAstack, kMainAsyncifyStack);
    const double start = g_pumpStart = nowMs();
    g_slice = g_pumpEnd > 0 ? std::clamp(start - g_pumpEnd, kSliceMs, kMaxSliceMs) : kSliceMs;
    for (int round = 0; round < 64; ++round) {
        const uint64_t before = g_progress;
        for (size_t i = 0; i < g_threads.size(); ++i) {
            Green* g = g_threads[i];
            if (g->finished) continue;
            g_current = g;
            emscripten_fiber_swap(&g_main, &g->fiber);
            g_current = nullptr;
        }
        // Detached fibers that ended are freed here (their stacks are no longer in use).
        for (size_t i = 0; i < g_threads.size();) {
            Green* g = g_threads[i];
            if (g->finished && g->detached) {
                g_threads.erase(g_threads.begin() + static_cast<std::ptrdiff_t>(i));
                release(g);
            } else {
                ++i;
            }
        }
        if (g_progress == before || nowMs() - start > 30.0) break;
    }
    g_pumpEnd = nowMs();
}

} // namespace

// Called from JavaScript (a fresh entry into the program, so Asyncify unwinds only this).
extern "C" EMSCRIPTEN_KEEPALIVE void warpscope_green_run() { schedule(); }

namespace {

// 1: the pump ran through warpscope_green_run; 0: the program was entered from JavaScript through
// an export that is still on the stack (main): schedule() in place, Asyncify unwinds to it.
EM_JS(int, warpscope_green_pump_js, (), {
    if (typeof Asyncify !== 'undefined' && Asyncify.exportCallStack.length) return 0;
    Module['_warpscope_green_run']();
    return 1;
});

void pumpFromMain() {
    if (!warpscope_green_pump_js()) schedule();
}

// A wait's one turn: a fiber goes back to the main context; the main context pumps.
void yieldOnce() {
    if (Green* g = g_current) emscripten_fiber_swap(&g->fiber, &g_main);
    else pumpFromMain();
}

// The engine's yield (sim::yieldHook): a fiber inside a long launch goes back to the page once its
// slice of this pump is used up; the page's own thread (the main context: ?bench= before the
// app, or a launch the page runs itself) has no one to give way to.
void engineYield() {
    Green* g = g_current;
    if (!g || nowMs() - g_pumpStart < g_slice) return;
    emscripten_fiber_swap(&g->fiber, &g_main);
}

// Set before main (this file is linked only into the single-thread program).
[[maybe_unused]] const bool g_hookSet = (warpscope::sim::setYieldHook(engineYield), true);

Green* find(pthread_t t) {
    for (Green* g : g_threads)
        if (reinterpret_cast<pthread_t>(g) == t) return g;
    return nullptr;
}

} // namespace

// Before every frame (web_platform.cpp): the fibers' work since the last frame. These replace
// web_platform.cpp's weak definitions (the threaded program's: nothing to do, threads).
extern "C" void warpscope_green_pump() {
    if (!g_threads.empty()) pumpFromMain();
}
extern "C" bool warpscope_green_threads() { return true; }

extern "C" {

int __wrap_pthread_create(pthread_t* thread, const pthread_attr_t*, void* (*start)(void*), void* arg) {
    Green* g = new Green;
    g->start = start;
    g->arg = arg;
    g->cstack = std::aligned_alloc(16, kCStack);
    g->astack = std::malloc(kAsyncifyStack);
    if (!g->cstack || !g->astack) {
        release(g);
        return EAGAIN;
    }
    emscripten_fiber_init(&g->fiber, fiberEntry, g, g->cstack, kCStack, g->astack, kAsyncifyStack);
    g_threads.push_back(g);
    ++g_progress;
    *thread = reinterpret_cast<pthread_t>(g);
    return 0;
}

int __wrap_pthread_join(pthread_t thread, void** result) {
    Green* g = find(thread);
    if (!g || g->detached) return ESRCH;
    if (g == g_current) return EDEADLK;
    while (!g->finished) yieldOnce();
    if (result) *result = g->result;
    for (size_t i = 0; i < g_threads.size(); ++i)
        if (g_threads[i] == g) g_threads.erase(g_threads.begin() + static_cast<std::ptrdiff_t>(i));
    release(g);
    return 0;
}

int __wrap_pthread_detach(pthread_t thread) {
    Green* g = find(thread);
    if (!g) return ESRCH;
    g->detached = true;
    return 0;
}

int __wrap_pthread_cond_wait(pthread_cond_t*, pthread_mutex_t*) {
    yieldOnce();
    return 0;
}

int __wrap_pthread_cond_timedwait(pthread_cond_t*, pthread_mutex_t*, const struct timespec* abs) {
    if (passed(abs)) return ETIMEDOUT;
    yieldOnce();
    return passed(abs) ? ETIMEDOUT : 0;
}

int __wrap_pthread_cond_signal(pthread_cond_t*) {
    ++g_progress;
    return 0;
}

int __wrap_pthread_cond_broadcast(pthread_cond_t*) {
    ++g_progress;
    return 0;
}

int __wrap_sched_yield() {
    yieldOnce();
    return 0;
}

int __wrap_nanosleep(const struct timespec* req, struct timespec* rem) {
    if (!req || req->tv_nsec < 0 || req->tv_nsec >= 1000000000L) return errno = EINVAL, -1;
    const double until = nowMs() + static_cast<double>(req->tv_sec) * 1e3 + static_cast<double>(req->tv_nsec) / 1e6;
    do yieldOnce();
    while (nowMs() < until);
    if (rem) rem->tv_sec = 0, rem->tv_nsec = 0;
    return 0;
}

} // extern "C"
