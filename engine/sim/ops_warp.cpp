// Warp-wide instructions: shfl, vote, activemask, match, redux.
#include "sim/exec.hpp"

namespace warpscope::sim {

void execWarp(Exec& x) {
    const Instr& I = x.I;
    // Each lane's member mask (.sync forms; the executing lanes otherwise), limited to the lanes
    // executing: a vote, match or reduction is over the lanes of that mask, so two tiles of one
    // warp (cooperative groups' tiled_partition<16>) each get their own result.
    uint32_t members[32];
    {
        const uint64_t* m = I.maskSync ? x.src(I.op == Op::Shfl ? 3 : 1) : nullptr;
        if (I.maskSync) x.g.checkMemberMask(x.b, x.w, I, x.exec, m);
        for (int l = 0; l < 32; ++l) members[l] = (m ? uint32_t(m[l]) : kFull) & x.exec;
    }
    switch (I.op) {
    case Op::Shfl: {
        const uint64_t* a = x.src(0);
        const uint64_t* bb = x.src(1);
        const uint64_t* cc = x.src(2);
        uint64_t av[32];
        std::memcpy(av, a, sizeof av);   // sources are read before any lane writes
        uint64_t* d = x.dst();
        uint32_t valid = 0;
        uint64_t res[32];
        forLanes(x.exec, [&](int l) {
            uint32_t lane = uint32_t(l);
            uint32_t bval = uint32_t(bb[l]) & 31;
            uint32_t c = uint32_t(cc[l]);
            uint32_t cval = c & 31, segmask = (c >> 8) & 31;
            uint32_t maxLane = (lane & segmask) | (cval & ~segmask);
            uint32_t minLane = lane & segmask;
            int32_t j = 0;
            bool pval = false;
            switch (I.shfl) {
            case ShflMode::Up: j = int32_t(lane) - int32_t(bval); pval = j >= int32_t(maxLane); break;
            case ShflMode::Down: j = int32_t(lane + bval); pval = j <= int32_t(maxLane); break;
            case ShflMode::Bfly: j = int32_t(lane ^ bval); pval = j <= int32_t(maxLane); break;
            case ShflMode::Idx: j = int32_t(minLane | (bval & ~segmask)); pval = j <= int32_t(maxLane); break;
            }
            if (!pval) j = int32_t(lane);
            res[l] = av[j & 31] & 0xffffffffu;
            if (pval) valid |= 1u << l;
        });
        forLanes(x.exec, [&](int l) { d[l] = res[l]; });
        x.setPred(I.dst2, valid, x.exec);
        break;
    }
    case Op::Vote: {
        const uint32_t p = x.predMask(I.src[0]) & x.exec;
        if (I.vote == VoteMode::Ballot) {
            uint64_t* d = x.dst();
            forLanes(x.exec, [&](int l) { d[l] = p & members[l]; });
        } else {
            uint32_t yes = 0;
            forLanes(x.exec, [&](int l) {
                const uint32_t m = members[l], q = p & m;
                bool v = false;
                if (I.vote == VoteMode::All) v = q == m;
                else if (I.vote == VoteMode::Any) v = q != 0;
                else v = q == 0 || q == m;
                if (v) yes |= 1u << l;
            });
            x.setPred(I.dst, yes, x.exec);
        }
        break;
    }
    case Op::Activemask: {
        uint64_t* d = x.dst();
        forLanes(x.exec, [&](int l) { d[l] = x.exec; });
        break;
    }
    case Op::Match: {
        const uint64_t* a = x.src(0);
        const uint64_t m = mask(ptx::bitsOf(I.type));
        uint64_t* d = x.dst();
        uint32_t allTrue = 0;
        uint64_t res[32];
        forLanes(x.exec, [&](int l) {
            uint32_t same = 0;
            forLanes(members[l], [&](int k) {
                if ((a[k] & m) == (a[l] & m)) same |= 1u << k;
            });
            if (I.matchAll) {
                const bool all = same == members[l];
                res[l] = all ? members[l] : 0u;
                if (all) allTrue |= 1u << l;
            } else {
                res[l] = same;
            }
        });
        forLanes(x.exec, [&](int l) { d[l] = res[l]; });
        if (I.matchAll) x.setPred(I.dst2, allTrue, x.exec);
        break;
    }
    case Op::Redux: {
        // Each lane gets the reduction over the lanes of its member mask (checked above: each
        // named lane executes this instruction).
        const uint64_t* a = x.src(0);
        const bool isSigned = I.type == Type::S32;
        auto reduceOver = [&](uint32_t lanes) {
            uint32_t acc = 0;
            bool first = true;
            forLanes(lanes, [&](int l) {
                const uint32_t v = uint32_t(a[l]);
                if (first) {
                    acc = v;
                    first = false;
                    return;
                }
                switch (I.atom) {
                case AtomOp::Add: acc += v; break;
                case AtomOp::Min: acc = isSigned ? uint32_t(std::min(int32_t(acc), int32_t(v))) : std::min(acc, v); break;
                case AtomOp::Max: acc = isSigned ? uint32_t(std::max(int32_t(acc), int32_t(v))) : std::max(acc, v); break;
                case AtomOp::And: acc &= v; break;
                case AtomOp::Or: acc |= v; break;
                case AtomOp::Xor: acc ^= v; break;
                default: break;
                }
            });
            return acc;
        };
        uint64_t res[32];
        forLanes(x.exec, [&](int l) { res[l] = reduceOver(members[l]); });
        uint64_t* d = x.dst();
        forLanes(x.exec, [&](int l) { d[l] = res[l]; });
        break;
    }
    default: break;
    }
}

} // namespace warpscope::sim
