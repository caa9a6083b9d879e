// Member-mask checks for warp-synchronous instructions and the global-memory race detector
// (see checkers.hpp for the model).
//
// Sections: 1. Member masks  2. Racecheck: shadow pages  3. Racecheck: happens-before
//           4. Racecheck: accesses and reports
#include "sim/checkers.hpp"

#include "sim/gpu.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace warpscope::sim {

// ---------------------------------------------------------------- 1. Member masks
namespace {
const char* intrinsicOf(const Instr& I) {
    switch (I.op) {
    case Op::Shfl: return "shfl.sync (__shfl_*_sync)";
    case Op::Vote: return "vote.sync (__ballot_sync, __all_sync, __any_sync)";
    case Op::Match: return "match.sync (__match_*_sync)";
    case Op::Redux: return "redux.sync (__reduce_*_sync)";
    default: return "bar.warp.sync (__syncwarp)";
    }
}

std::string hex(uint32_t m) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", m);
    return buf;
}
} // namespace

std::optional<MaskProblem> findMaskProblem(const Warp& w, const Instr& I, uint32_t exec, const uint64_t* maskPerLane) {
    // The common case in one pass: every executing lane passes the same mask, and it names exactly
    // the executing lanes (none of the three problems below can arise then).
    if (exec) {
        const uint32_t first = uint32_t(maskPerLane[std::countr_zero(exec)]);
        bool same = first == exec;
        for (uint32_t e = exec; e && same; e &= e - 1) same = uint32_t(maskPerLane[std::countr_zero(e)]) == first;
        if (same) return std::nullopt;
    }
    const std::string what = intrinsicOf(I);
    // An executing lane outside its own mask.
    for (uint32_t e = exec; e; e &= e - 1) {
        int l = std::countr_zero(e);
        uint32_t m = uint32_t(maskPerLane[l]);
        if (!((m >> l) & 1))
            return MaskProblem{"Lane " + std::to_string(l) + " executes " + what + " but is not in its member mask " + hex(m) +
                                   ": the result is undefined (PTX ISA). Every lane that executes a warp-synchronous "
                                   "primitive must be named in the mask it passes.",
                               l};
    }
    // Lanes that disagree about the mask. Each lane's mask names the lanes it synchronises with,
    // so disjoint groups that each pass their own mask (tiles of 16 threads in one warp, as
    // cooperative groups make them) are fine on sm_70 and later; a lane named in another lane's
    // mask must pass that same mask.
    for (uint32_t e = exec; e; e &= e - 1) {
        const int l = std::countr_zero(e);
        const uint32_t ml = uint32_t(maskPerLane[l]);
        for (uint32_t o = ml & exec; o; o &= o - 1) {
            const int k = std::countr_zero(o);
            const uint32_t m = uint32_t(maskPerLane[k]);
            if (m != ml)
                return MaskProblem{"Lanes " + std::to_string(l) + " and " + std::to_string(k) + " execute " + what +
                                       " with different member masks (" + hex(ml) + " and " + hex(m) +
                                       "): the lanes taking part must all pass the same mask.",
                                   k};
        }
    }
    // Lanes named in a mask that are not here.
    for (uint32_t e = exec; e; e &= e - 1) {
        const int lane = std::countr_zero(e);
        const uint32_t ml = uint32_t(maskPerLane[lane]);
        const uint32_t missing = ml & ~exec;
        if (!missing) continue;
        int k = std::countr_zero(missing);
        std::string why;
        if (!((w.validMask >> k) & 1))
            why = "which does not exist (this warp has only " + std::to_string(std::popcount(w.validMask)) +
                  " threads: the block size is not a multiple of 32)";
        else if ((w.exited >> k) & 1)
            why = "which has already exited";
        else
            why = "which does not execute this instruction together with lane " + std::to_string(lane) +
                  " (it took another path of a branch, e.g. an early return that has not finished yet, or its guard "
                  "predicate is false)";
        return MaskProblem{"The member mask " + hex(ml) + " of " + what + " executed by lane " + std::to_string(lane) +
                               " names lane " + std::to_string(k) + ", " + why +
                               ": the result is undefined (CUDA Programming Guide). Name only the lanes that reach this instruction, e.g. "
                               "with __ballot_sync or __activemask() before the branch.",
                           lane};
    }
    return std::nullopt;
}

// ---------------------------------------------------------------- 2. Racecheck: shadow pages
GlobalRaceCheck::Cell* GlobalRaceCheck::cellFor(const mem::Allocation& a, uint64_t word) {
    Shadow* s = lastShadow_;
    if (&a != lastAlloc_) {
        s = &shadows_[&a];   // element references survive rehashing
        if (s->pages.empty()) s->pages.resize(static_cast<size_t>((a.size + kPageWords * 4 - 1) / (kPageWords * 4)));
        lastAlloc_ = &a;
        lastShadow_ = s;
    }
    const size_t p = static_cast<size_t>(word / kPageWords);
    if (p >= s->pages.size()) return nullptr;
    auto& page = s->pages[p];
    if (!page) {
        if ((pagesMade_ + 1) * kPageWords * 4 > trackBytes_) {
            stopped_ = true;
            return nullptr;
        }
        page = std::make_unique<Cell[]>(kPageWords);
        ++pagesMade_;
    }
    return &page[word % kPageWords];
}

uint64_t GlobalRaceCheck::shadowBytes() const {
    uint64_t n = pagesMade_ * kPageWords * sizeof(Cell);
    for (auto& [a, s] : shadows_) n += s.pages.size() * sizeof(void*);
    for (auto& v : vars_) {
        n += sizeof(SyncVar) + v.links.size() * sizeof(Link);
        for (auto& [b, l] : v.bySource) n += 16 + l.size() * sizeof(ReleasePoint);
    }
    for (auto& [b, s] : blocks_) n += 16 + s.acquired.size() * sizeof(Acquired) + s.fencedAt.size() * 16;
    return n;
}

// ---------------------------------------------------------------- 3. Racecheck: happens-before
bool GlobalRaceCheck::covers(uint32_t var, uint32_t seq, const Rec& prev, int depth) const {
    const SyncVar& v = vars_[var];
    auto it = v.bySource.find(prev.block);
    if (it != v.bySource.end())
        for (const ReleasePoint& rp : it->second)
            if (rp.seq < seq && (prev.epoch < rp.epoch || (prev.epoch == rp.epoch && prev.thread == rp.thread))) return true;
    if (depth > 0)
        for (const Link& l : v.links)
            if (l.seq < seq && covers(l.var, l.varSeq, prev, depth - 1)) return true;
    return false;
}

const GlobalRaceCheck::BlockState* GlobalRaceCheck::stateOf(uint32_t block) const {
    if (block != cachedBlock_) {   // consecutive accesses come from one block: one lookup for all
        auto it = blocks_.find(block);
        cachedState_ = it == blocks_.end() ? nullptr : &it->second;
        cachedBlock_ = block;
    }
    return cachedState_;
}

GlobalRaceCheck::BlockState& GlobalRaceCheck::stateFor(uint32_t block) {
    cachedBlock_ = kNone;   // the cache may hold "none" for this block
    return blocks_[block];
}

bool GlobalRaceCheck::ordered(const Rec& prev, uint32_t block, uint32_t epoch, uint16_t thread) const {
    if (prev.block == block) return prev.epoch < epoch || prev.thread / 32 == thread / 32;
    const BlockState* bs = stateOf(block);
    if (!bs) return false;
    for (const Acquired& a : bs->acquired)
        if ((a.thread == thread || epoch > a.epoch) && covers(a.var, a.seq, prev, 3)) return true;
    return false;
}

void GlobalRaceCheck::acquire(uint64_t word, uint32_t block, uint32_t epoch, uint16_t thread) {
    auto it = varOf_.find(word);
    if (it == varOf_.end() || vars_[it->second].seq == 0) return;
    const uint32_t id = it->second, seq = vars_[id].seq;
    BlockState& bs = stateFor(block);
    for (Acquired& a : bs.acquired)
        if (a.var == id && a.thread == thread) {   // a spin loop re-reading one flag: one entry
            a.seq = std::max(a.seq, seq);
            return;
        }
    bs.acquired.push_back({id, seq, epoch, thread});
}

void GlobalRaceCheck::release(uint64_t word, uint32_t block, uint32_t epoch, uint16_t thread, bool explicitRelease) {
    BlockState& bs = stateFor(block);
    uint32_t at = epoch;
    if (!explicitRelease) {
        auto f = bs.fencedAt.find(thread);
        if (f == bs.fencedAt.end()) return;   // a relaxed atomic with no fence before it releases nothing
        at = f->second;
    }
    auto [it, fresh] = varOf_.try_emplace(word, static_cast<uint32_t>(vars_.size()));
    if (fresh) vars_.emplace_back();
    SyncVar& v = vars_[it->second];
    auto& list = v.bySource[block];
    // A block releasing into one location over and over (a loop) keeps a few points, not one per pass.
    if (list.size() >= 8) list.back() = {v.seq, at, thread};
    else list.push_back({v.seq, at, thread});
    // What this thread had acquired goes along (A -> B -> C orders A before C).
    for (const Acquired& a : bs.acquired) {
        if (!(a.thread == thread || epoch > a.epoch) || a.var == it->second) continue;
        bool known = false;
        for (const Link& l : v.links) known = known || (l.var == a.var && l.varSeq >= a.seq);
        if (!known && v.links.size() < 256) v.links.push_back({v.seq, a.var, a.seq});
    }
    ++v.seq;
}

void GlobalRaceCheck::fence(const Block& b, const Warp& w, uint32_t lanes, const Instr& I) {
    if (I.order & kOrderCta) return;   // membar.cta / fence.*.cta order only within the block
    BlockState& bs = stateFor(b.linear);
    for (uint32_t m = lanes; m; m &= m - 1)
        bs.fencedAt[static_cast<uint16_t>(w.indexInBlock * 32 + std::countr_zero(m))] = b.barrierEpoch;
}

// ---------------------------------------------------------------- 4. Racecheck: accesses and reports
std::string GlobalRaceCheck::describe(const Gpu& g, const Rec& r) const {
    const base::Dim3& gd = g.config().grid;
    const base::Dim3& bd = g.config().block;
    std::ostringstream os;
    os << "block (" << r.block % gd.x << "," << (r.block / gd.x) % gd.y << "," << r.block / (gd.x * gd.y) << ") thread ("
       << r.thread % bd.x << "," << (r.thread / bd.x) % bd.y << "," << r.thread / (bd.x * bd.y) << ")";
    const Instr& in = g.program().code[r.pc];
    os << " (";
    if (in.line) os << "source line " << in.line << ", ";
    os << "PTX line " << in.ptxLine << ": " << in.text << ")";
    return os.str();
}

void GlobalRaceCheck::accessWarp(Gpu& g, const Block& b, const Warp& w, const Instr& I, const uint64_t* addrs, uint32_t lanes,
                                 uint32_t bytes, bool before) {
    // A plain load has nothing to do after the access: skip the lanes altogether.
    if (!before && (I.op == Op::Ld || I.op == Op::Ldu || I.op == Op::CpAsync) && !(I.order & kOrderStrong)) return;
    for (uint32_t m = lanes; m; m &= m - 1) {
        int l = std::countr_zero(m);
        access(g, b, w, l, I, addrs[l], bytes, before);
    }
}

void GlobalRaceCheck::access(Gpu& g, const Block& b, const Warp& w, int lane, const Instr& I, uint64_t addr, uint32_t bytes,
                             bool before) {
    const bool isAtomic = I.op == Op::Atom || I.op == Op::Red;
    const bool isLoad = I.op == Op::Ld || I.op == Op::Ldu || I.op == Op::CpAsync, isStore = I.op == Op::St;   // (cp.async reads its source)
    const bool strong = isAtomic || (I.order & kOrderStrong);
    if ((!isAtomic && !isLoad && !isStore) || bytes == 0 || bytes > 16 || (!before && isLoad && !strong)) return;
    mem::Allocation* a = g.memory().find(addr, bytes);
    if (!a) return;   // memcheck reports it
    const uint64_t off = addr - a->base;
    const uint32_t block = b.linear, epoch = b.barrierEpoch & kEpochMask;
    const uint16_t thread = static_cast<uint16_t>(w.indexInBlock * 32 + static_cast<uint32_t>(lane));
    const uint32_t pc = static_cast<uint32_t>(&I - g.program().code.data());
    if (before && isStore) std::memcpy(old_[lane], a->data.get() + off, bytes);

    auto hazard = [&](const char* kind, const char* name, const Rec& other, const char* verbMine, const char* verbTheirs) {
        if (!g.reportWanted("racecheck", name, &I)) return;
        const bool sameBlock = other.block == block;
        std::ostringstream os;
        os << kind << " on global memory: this thread " << verbMine << " " << bytes << " bytes that " << describe(g, other) << " "
           << verbTheirs << (other.strong ? " atomically" : "") << ", with nothing ordering the two accesses ("
           << (sameBlock ? "no __syncthreads() between them"
                         : "different blocks are ordered only by the end of the kernel, or by a __threadfence() before an "
                           "atomic that the other block's atomic then reads")
           << ").";
        g.report("racecheck", name, os.str(), b, w, lane, &I, addr);
    };
    auto conflicts = [&](const Rec& prev, uint8_t m) {
        return prev.block != kNone && (prev.bytes & m) && !(prev.strong && strong) && !ordered(prev, block, epoch, thread);
    };

    for (uint64_t word = off / 4; word <= (off + bytes - 1) / 4; ++word) {
        const uint64_t lo = std::max(off, word * 4) - word * 4, hi = std::min(off + bytes, word * 4 + 4) - word * 4;
        const uint8_t m = static_cast<uint8_t>(((1u << hi) - 1) & ~((1u << lo) - 1));
        Cell* c = cellFor(*a, word);
        if (!c) break;   // past the tracking limit
        const Rec cur{block, epoch, m, pc, thread, strong};
        if (before) {
            if ((isLoad || isAtomic) && conflicts(c->write, m))
                hazard("Read-after-write hazard", "global read-after-write", c->write, isAtomic ? "atomically updates" : "reads", "wrote");
            if (isLoad) {
                // Keep two reads that are not ordered one after the other (e.g. the reads of two
                // blocks), so a later write is checked against both; an ordered one is replaced.
                auto after = [&](const Rec& r) { return r.block == kNone || ordered(r, block, epoch, thread); };
                if (after(c->read[0])) c->read[0] = cur;
                else c->read[1] = cur;
            }
            continue;
        }
        if (!isStore && !isAtomic) continue;
        for (const Rec& r : c->read)
            if (conflicts(r, m)) hazard("Write-after-read hazard", "global write-after-read", r, "overwrites", "read");
        if (conflicts(c->write, m)) {
            // The same value stored again (a flag many threads set) changes nothing: benign.
            const uint64_t base = word * 4 - off;   // this word's first byte relative to the access
            bool same = isStore;
            for (uint64_t k = lo; k < hi && same; ++k) same = old_[lane][base + k] == a->data[off + base + k];
            if (!same) hazard("Write-after-write hazard", "global write-after-write", c->write, "overwrites", "wrote");
        }
        c->write = cur;
    }
    if (!before && strong) {
        const uint64_t word = addr / 4;
        if (isLoad || isAtomic) acquire(word, block, epoch, thread);
        if (isStore || isAtomic) release(word, block, epoch, thread, (I.order & kOrderRelease) != 0);
    }
}

} // namespace warpscope::sim
