// The SIMT stack's one hot piece: settle(), run after every issue (issue.cpp's lean and general
// paths), inline there. The rest of the SIMT bookkeeping (exit, barriers) is in simt.cpp.
#pragma once
#include "sim/exec.hpp"

namespace warpscope::sim {
// A call's arguments into the callee's frame, or its results back into the caller's: for each
// lane in `lanes`, value k (sizes[k] bytes) from `from` at fromOffsets[k] to `to` at toOffsets[k]
// (each frame's .param space holds one area of paramBytes per lane).
inline void copyParams(uint32_t lanes, Frame& to, uint32_t toBytes, const std::vector<int64_t>& toOffsets, const Frame& from,
                       uint32_t fromBytes, const std::vector<int64_t>& fromOffsets, const std::vector<int>& sizes) {
    for (size_t k = 0; k < toOffsets.size() && k < fromOffsets.size(); ++k) {
        const size_t n = static_cast<size_t>(sizes[k]);
        forLanes(lanes, [&](int l) {
            std::memcpy(to.params.data() + size_t(l) * toBytes + size_t(toOffsets[k]),
                        from.params.data() + size_t(l) * fromBytes + size_t(fromOffsets[k]), n);
        });
    }
}

// Pops finished SIMT entries and finished call frames; marks the warp done when nothing is left.
// The top entry lives in the Warp (Warp::top); the frame's stack holds the entries below it.
[[gnu::always_inline]] inline void settle(const Program& prog, Warp& w) {
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
        copyParams(lanes, caller, pf.paramBytes, cs.retOffsets, callee, cf.paramBytes, cf.returnOffsets, cf.returnSizes);
        w.localTop = callee.localBase;
    }
}

} // namespace warpscope::sim
