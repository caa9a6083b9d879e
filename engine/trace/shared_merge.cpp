#include "trace/shared_merge.hpp"

#include <bit>

namespace warpscope::trace {

using sim::Instr;
using sim::Op;
using sim::Operand;

SharedLoadMerges findSharedLoadMerges(const std::vector<Instr>& code) {
    SharedLoadMerges m;
    m.leader.assign(code.size(), -1);
    m.bytes.assign(code.size(), 0);
    // Straight-line code only: a group never spans a branch target, a branch, a barrier or a call.
    std::vector<uint8_t> target(code.size(), 0);
    for (const auto& in : code)
        if (in.op == Op::Bra && in.target >= 0 && size_t(in.target) < code.size()) target[size_t(in.target)] = 1;
    auto scalarSharedLoad = [](const Instr& in) {
        return in.op == Op::Ld && in.space == ptx::StateSpace::Shared && in.vec == 1 && ptx::sizeOf(in.type) == 4 &&
               in.guard.kind == Operand::Kind::None;
    };
    auto writes = [](const Instr& in, const Operand& reg) {
        if (reg.kind != Operand::Kind::Reg) return false;
        auto is = [&](const Operand& o) { return o.kind == Operand::Kind::Reg && o.index == reg.index; };
        if (is(in.dst) || is(in.dst2)) return true;
        for (int k = 0; k < in.vec && k < 4; ++k)
            if (is(in.vecRegs[k])) return true;
        return false;
    };
    for (size_t i = 0; i < code.size(); ++i) {
        const Instr& lead = code[i];
        if (m.leader[i] >= 0 || !scalarSharedLoad(lead) || lead.addr.offset % 8 != 0) continue;
        if (writes(lead, lead.addr.base)) continue;
        int32_t member[4] = {int32_t(i), -1, -1, -1};
        for (size_t j = i + 1; j < code.size() && j < i + 64; ++j) {
            const Instr& in = code[j];
            if (target[j] || in.op == Op::Bra || in.op == Op::Bar || in.op == Op::Barrier || in.op == Op::Call ||
                in.op == Op::Ret || in.op == Op::Exit || in.op == Op::St || in.op == Op::Atom || in.op == Op::Red)
                break;
            if (scalarSharedLoad(in) && m.leader[j] < 0 && in.addr.base.kind == lead.addr.base.kind &&
                in.addr.base.index == lead.addr.base.index) {
                const int64_t d = in.addr.offset - lead.addr.offset;
                if (d > 0 && d <= 12 && d % 4 == 0 && member[d / 4] < 0) member[d / 4] = int32_t(j);
            }
            if (writes(in, lead.addr.base)) break;
        }
        int width = 0;
        if (lead.addr.offset % 16 == 0 && member[1] >= 0 && member[2] >= 0 && member[3] >= 0) width = 4;
        else if (member[1] >= 0) width = 2;
        if (!width) continue;
        m.bytes[i] = uint8_t(4 * width);
        for (int k = 0; k < width; ++k) m.leader[size_t(member[k])] = int32_t(i);
    }
    return m;
}

bool mergedAccessAligned(const uint64_t* addresses, uint32_t mask, uint32_t bytes) {
    // (bytes is 8 or 16: every address is aligned when their OR is)
    uint64_t any = 0;
    if (mask == 0xffffffffu) {
        for (int l = 0; l < 32; ++l) any |= addresses[l];   // (vectorised)
    } else {
        for (uint32_t k = mask; k; k &= k - 1) any |= addresses[std::countr_zero(k)];
    }
    return any % bytes == 0;
}

} // namespace warpscope::trace
