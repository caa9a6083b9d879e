// The SIMT stack's one hot piece: settle(), run after every issue (issue.cpp's lean and general
// paths), inline there. The rest of the SIMT bookkeeping (exit, barriers) is in simt.cpp.
#pragma once
#include "sim/exec.hpp"

namespace warpscope::sim {
// Pops finished SIMT entries and finished call frames; marks the warp done when nothing is left.
// The top entry lives in the Warp (Warp::top); the frame's stack holds the entries below it.
inline void settle(const Program& prog, Warp& w) {
    for (;;) {
        Frame& f = w.frames.back();
        // An entry that reached its reconvergence point hands its lanes back to the entry below
        // (which already holds them); nothing to merge explicitly.
        while (w.top.mask == 0 || w.top.pc == w.top.rpc) {
            if (f.stack.empty()) {
                w.top = Warp::kNoEntry;
                break;
            }
            w.top = f.stack.back();
            f.stack.pop_back();
        }
        if (w.top.mask != 0) return;
        if (w.frames.size() == 1) {
            w.state = WarpState::Done;
            return;
        }
        // Return from a call: copy results of the lanes that returned (not exited). The caller's
        // top entry (last in its stack) becomes the flat top on the next turn of the loop.
        Frame callee = std::move(w.frames.back());
        w.frames.pop_back();
        w.setFrame();
        Frame& caller = w.frames.back();
        const Function& cf = prog.functions[callee.func];
        const Function& pf = prog.functions[caller.func];
        const CallSite& cs = pf.calls[static_cast<size_t>(callee.callSite)];
        uint32_t lanes = callee.returned & ~w.exited;
        for (size_t k = 0; k < cs.retOffsets.size() && k < cf.returnOffsets.size(); ++k) {
            size_t n = static_cast<size_t>(cf.returnSizes[k]);
            forLanes(lanes, [&](int l) {
                std::memcpy(caller.params.data() + size_t(l) * pf.paramBytes + size_t(cs.retOffsets[k]),
                            callee.params.data() + size_t(l) * cf.paramBytes + size_t(cf.returnOffsets[k]), n);
            });
        }
        w.localTop = callee.localBase;
    }
}

} // namespace warpscope::sim
