// A cooperative yield for a program that has one thread (docs/web.md, "One thread").
//
// The web page's single-thread program runs every model "thread" as a fiber on the page's one
// thread, and a fiber gives the page back only where it waits. A long launch (To end on a large
// grid, Run at max speed, a grade, a Compare or Timeline run) has no wait inside, so the engine
// calls yieldHook() where it looks at a launch's cancel flag (Gpu::stopLaunch, every kCancelPoll
// warp-instructions of a launch that has one): that program sets the hook to a function that
// lets the page draw a frame when its time slice is over, and does nothing on the page's own
// thread. Everywhere else the hook is null and the engine calls nothing.
#pragma once

#include <atomic>

namespace warpscope::sim {

using YieldHook = void (*)();

// The process's one hook (a platform property, like the thread library it stands in for).
inline std::atomic<YieldHook>& yieldHookSlot() {
    static std::atomic<YieldHook> hook{nullptr};
    return hook;
}
inline void setYieldHook(YieldHook hook) { yieldHookSlot().store(hook, std::memory_order_relaxed); }
inline void yieldHook() {
    if (YieldHook h = yieldHookSlot().load(std::memory_order_relaxed)) h();
}

} // namespace warpscope::sim
