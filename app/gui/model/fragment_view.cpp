// The fragment view's model: sim::fragmentMap's element -> (lane, register) tables for the
// selected warp's matrix instruction, with the values its registers hold (fragment_view.hpp).
#include "gui/model/fragment_view.hpp"

#include "sim/arith.hpp"
#include "sim/tensor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace warpscope::gui {

namespace {

const char* fragName(sim::Frag f) {
    switch (f) {
    case sim::Frag::A: return "A";
    case sim::Frag::B: return "B";
    case sim::Frag::C: return "C";
    case sim::Frag::D: return "D";
    }
    return "?";
}

// The registers that hold operand `which` of the instruction, and whether the instruction
// writes them (a loaded fragment, a result) or reads them.
const std::vector<sim::Operand>& operandRegs(const sim::MatrixOp& op, sim::Frag which, bool& written) {
    using sim::MatrixKind;
    written = false;
    switch (op.kind) {
    case MatrixKind::WmmaLoad: written = true; return op.d;
    case MatrixKind::WmmaStore: return op.a;
    case MatrixKind::Ldmatrix: written = true; return op.d;
    case MatrixKind::Movmatrix:
        if (which == sim::Frag::D) {
            written = true;
            return op.d;
        }
        return op.a;
    case MatrixKind::WmmaMma:
    case MatrixKind::Mma:
        switch (which) {
        case sim::Frag::A: return op.a;
        case sim::Frag::B: return op.b;
        case sim::Frag::C: return op.c;
        case sim::Frag::D: written = true; return op.d;
        }
    }
    return op.d;
}

std::string roleOf(const sim::MatrixOp& op, sim::Frag which) {
    using sim::MatrixKind;
    switch (op.kind) {
    case MatrixKind::WmmaLoad: return "loaded";
    case MatrixKind::WmmaStore: return "stored";
    case MatrixKind::Ldmatrix: return "loaded";
    case MatrixKind::Movmatrix: return which == sim::Frag::A ? "source" : "transposed";
    default: break;
    }
    switch (which) {
    case sim::Frag::A: case sim::Frag::B: return "input";
    case sim::Frag::C: return "accumulator";
    case sim::Frag::D: return "result";
    }
    return "";
}

// The element's bits out of its register word: 16-bit halves, bytes, or the whole word.
uint32_t subWord(uint32_t word, sim::ElemType t, int sub) {
    int bytes = sim::elemBytes(t);
    if (bytes == 2) return (word >> (16 * sub)) & 0xffffu;
    if (bytes == 1) return (word >> (8 * sub)) & 0xffu;
    return word;
}

void formatValue(FragmentCell& c, sim::ElemType t, uint32_t bits) {
    char buf[64];
    switch (t) {
    case sim::ElemType::F16:
    case sim::ElemType::B16:   // ldmatrix / movmatrix move 16-bit words; a course's are halves
        c.value = sim::arith::f16ToF32(static_cast<uint16_t>(bits));
        break;
    case sim::ElemType::BF16: c.value = sim::arith::bf16ToF32(static_cast<uint16_t>(bits)); break;
    case sim::ElemType::F32:
    case sim::ElemType::TF32: {
        float f;
        std::memcpy(&f, &bits, 4);
        c.value = f;
        break;
    }
    case sim::ElemType::S8: c.value = static_cast<int8_t>(bits); break;
    case sim::ElemType::U8: c.value = static_cast<uint8_t>(bits); break;
    case sim::ElemType::S32: c.value = static_cast<int32_t>(bits); break;
    case sim::ElemType::None: c.value = bits; break;
    }
    c.hasValue = true;
    if (t == sim::ElemType::S8 || t == sim::ElemType::U8 || t == sim::ElemType::S32) std::snprintf(buf, sizeof buf, "%.0f", c.value);
    else std::snprintf(buf, sizeof buf, "%.6g", c.value);
    c.valueText = buf;
    if (t == sim::ElemType::B16) {
        std::snprintf(buf, sizeof buf, " (0x%04x)", bits);
        c.valueText += buf;
    }
}

} // namespace

FragmentView buildFragmentView(const Snapshot& s) {
    FragmentView v;
    if (!s.program) {
        v.message = "No launch yet.";
        return v;
    }
    if (!s.selected) {
        v.message = "The selected warp is not resident (not started yet, or finished).";
        if (s.lastMatrixPc < 0) return v;
    }
    const auto& code = s.program->code;
    auto isMatrix = [&](int32_t pc) { return pc >= 0 && static_cast<size_t>(pc) < code.size() && code[static_cast<size_t>(pc)].matrix; };
    const int32_t cur = s.selected ? s.selected->warp.pc : -1;
    if (isMatrix(cur)) {
        v.pc = cur;
        v.executed = false;
    } else if (isMatrix(s.lastMatrixPc)) {
        v.pc = s.lastMatrixPc;
        v.executed = true;
        // Right after it the pc is the next instruction; anything else ran something in between.
        v.movedOn = cur != s.lastMatrixPc + 1;
    } else {
        v.message = "The selected warp has not reached a matrix instruction (wmma, mma.sync, ldmatrix, movmatrix) in this launch yet.";
        return v;
    }
    const InstrInfo& in = code[static_cast<size_t>(v.pc)];
    const sim::MatrixOp& op = *in.matrix;
    v.valid = true;
    v.line = in.line;
    v.ptxLine = in.ptxLine;
    v.ptx = in.text;
    v.instruction = sim::describe(op);

    // Register values: the innermost frame's registers (matrix instructions run in the kernel).
    const std::vector<uint64_t>* regs = s.selected ? &s.selected->regs : nullptr;
    const FunctionInfo* fn = s.selected && s.selected->func < s.program->functions.size() ? &s.program->functions[s.selected->func] : nullptr;
    if (s.selected && s.selected->func != in.func) regs = nullptr;   // the warp is inside a call: not this frame's registers

    // Registers the instruction writes (to tell an input that the result overwrote).
    std::vector<uint32_t> writes = op.writes();
    for (sim::Frag f : sim::fragmentsOf(op)) {
        sim::FragmentMap m = sim::fragmentMap(op, f);
        bool written = false;
        const std::vector<sim::Operand>& ops = operandRegs(op, f, written);
        FragmentTile t;
        t.name = fragName(f);
        t.role = roleOf(op, f);
        t.rows = m.rows;
        t.cols = m.cols;
        t.type = std::string(sim::elemTypeName(m.type));
        if (op.kind == sim::MatrixKind::Ldmatrix) t.subTiles = op.count;
        t.cells.resize(size_t(m.rows) * size_t(m.cols));
        for (int r = 0; r < m.rows; ++r)
            for (int c = 0; c < m.cols; ++c) {
                const auto& hs = m.at(r, c);
                FragmentCell& cell = t.cells[size_t(r) * size_t(m.cols) + size_t(c)];
                if (hs.empty()) continue;
                const sim::FragHolder& h = hs.front();
                cell.lane = h.lane;
                cell.reg = h.reg;
                cell.sub = h.sub;
                cell.copies = static_cast<int>(hs.size());
                if (hs.size() > 1) cell.copyReg = hs[1].reg;
                if (h.reg >= ops.size()) {
                    cell.valueText = "?";
                    continue;
                }
                const sim::Operand& o = ops[h.reg];
                uint32_t word = 0;
                bool have = false;
                if (o.kind == sim::Operand::Kind::Imm) {
                    cell.regName = "constant";
                    word = static_cast<uint32_t>(o.imm);
                    have = true;
                } else if (o.kind == sim::Operand::Kind::Reg) {
                    cell.regName = fn && o.index < fn->regNames.size() ? fn->regNames[o.index] : "%reg" + std::to_string(o.index);
                    const bool overwritten = !written && v.executed && std::find(writes.begin(), writes.end(), o.index) != writes.end();
                    if (written && !v.executed) {
                        cell.valueText = "not yet";
                    } else if (overwritten) {
                        cell.valueText = "overwritten by the result";
                    } else if (regs && size_t(o.index) * 32 + h.lane < regs->size()) {
                        word = static_cast<uint32_t>((*regs)[size_t(o.index) * 32 + h.lane]);
                        have = true;
                    } else {
                        cell.valueText = "not available";
                    }
                } else {
                    cell.regName = "_";
                    cell.valueText = "discarded";
                }
                if (have) formatValue(cell, m.type, subWord(word, m.type, h.sub));
            }
        v.tiles.push_back(std::move(t));
    }
    return v;
}

std::string fragmentCellText(const FragmentTile& t, int row, int col) {
    if (row < 0 || col < 0 || row >= t.rows || col >= t.cols) return "";
    const FragmentCell& c = t.at(row, col);
    std::string s = t.name + "[" + std::to_string(row) + "][" + std::to_string(col) + "] = " + (c.valueText.empty() ? "?" : c.valueText);
    if (c.lane < 0) return s + ", held by no lane";
    s += ", lane " + std::to_string(c.lane) + ", register " + std::to_string(c.reg);
    if (!c.regName.empty()) s += " (" + c.regName + ")";
    int bytes = t.type == "f32" || t.type == "tf32" || t.type == "s32" ? 4 : t.type == "s8" || t.type == "u8" ? 1 : 2;
    if (bytes == 2) s += c.sub ? ", high half" : ", low half";
    else if (bytes == 1) s += ", byte " + std::to_string(c.sub);
    if (c.copies > 1) s += "; again in register " + std::to_string(c.copyReg);
    return s;
}

std::vector<int> laneCells(const FragmentTile& t, int lane) {
    std::vector<int> out;
    for (size_t i = 0; i < t.cells.size(); ++i)
        if (t.cells[i].lane == lane) out.push_back(static_cast<int>(i));
    return out;
}

Rgb fragmentLaneColor(int lane) {
    // 8 hues for the groups, spread so that neighbouring groups differ strongly; 4 shades inside.
    static const Rgb hues[8] = {{0, 114, 178}, {230, 159, 0}, {0, 158, 115}, {204, 121, 167},
                                {86, 180, 233}, {213, 94, 0}, {240, 228, 66}, {120, 120, 120}};
    lane &= 31;
    Rgb h = hues[lane / 4];
    const float k[4] = {1.0f, 0.78f, 0.58f, 0.40f};   // lighter toward t = 3 (mixed with white)
    float f = k[lane % 4];
    auto mix = [f](uint8_t x) { return static_cast<uint8_t>(std::lround(x * f + 255.0f * (1.0f - f))); };
    return Rgb{mix(h.r), mix(h.g), mix(h.b)};
}

} // namespace warpscope::gui
