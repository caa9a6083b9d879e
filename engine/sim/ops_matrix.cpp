// Tensor-core instructions over a warp: wmma.load/store/mma, mma, ldmatrix, movmatrix.
#include "sim/exec.hpp"

#include <memory>
#include <stdexcept>

namespace warpscope::sim {

namespace {

// Every lane's fragment elements of one operand (fragmentElements, lane 0's first), computed once
// per instruction shape and thread instead of on every issue. `first` lists the slots that are
// the first holder of their matrix element in lane order (f16 wmma A and B hold each twice; the
// hardware reads the first copy).
struct FragList {
    std::vector<FragElem> elems;
    std::vector<uint8_t> lane;
    std::vector<uint32_t> first;
};

struct FragKey {
    MatrixKind kind;
    Frag which;
    int m, n, k, count;
    bool trans;
    ElemType atype, btype, ctype, dtype;
    bool operator==(const FragKey&) const = default;
};

const FragList& fragList(const MatrixOp& M, Frag which) {
    const FragKey key{M.kind, which, M.m, M.n, M.k, M.count, M.trans, M.atype, M.btype, M.ctype, M.dtype};
    thread_local std::vector<std::pair<FragKey, std::unique_ptr<FragList>>> cache;
    for (auto& [k, list] : cache)
        if (k == key) return *list;
    auto list = std::make_unique<FragList>();
    const int cols = fragCols(M, which);
    std::vector<uint8_t> seen(size_t(fragRows(M, which)) * size_t(cols));
    for (int l = 0; l < 32; ++l)
        for (const FragElem& e : fragmentElements(M, which, l)) {
            const size_t i = size_t(e.row) * size_t(cols) + e.col;
            if (!seen[i]) seen[i] = 1, list->first.push_back(uint32_t(list->elems.size()));
            list->elems.push_back(e);
            list->lane.push_back(uint8_t(l));
        }
    cache.emplace_back(key, std::move(list));
    return *cache.back().second;
}

} // namespace

// Tensor-core instructions (sim/tensor.hpp): every lane's fragment elements move between its
// registers and memory (wmma.load/store, ldmatrix) or other lanes (mma, movmatrix) by the
// layout fragmentElements gives. They are warp-wide (.sync.aligned): all 32 lanes must execute
// them; the registers are written directly, not through Exec's staging (up to 16 of them).
void execMatrix(Exec& x) {
    const Instr& I = x.I;
    const MatrixOp& M = *I.matrix;
    if (x.exec != kFull) {
        const int missing = std::countr_zero(~x.exec);
        x.fault(Error::Kind::Fault,
                describe(M) + " is a warp-wide (.sync.aligned) instruction: all 32 lanes must execute it together, but lane " +
                    std::to_string(missing) + " does not (divergent code, a guard, or a partial warp). The result would be undefined.",
                missing);
    }
    const uint32_t* offsets = x.g.registerOffsets(x.f.func);
    auto regIn = [&](const Operand& o, uint32_t* out) {   // 32 lanes of a 32-bit register or immediate
        if (o.kind == Operand::Kind::Reg) {
            const uint32_t* v = x.f.narrow(offsets[o.index]);
            for (int l = 0; l < 32; ++l) out[l] = v[l];
        } else {
            for (int l = 0; l < 32; ++l) out[l] = uint32_t(o.imm);
        }
    };
    auto regOut = [&](const Operand& o, const uint32_t* in) {
        if (o.kind != Operand::Kind::Reg) return;
        uint32_t* v = x.f.narrow(offsets[o.index]);
        for (int l = 0; l < 32; ++l) v[l] = in[l];
    };
    // Register lists live in fixed arrays (no allocation per issue): the longest is 16 registers.
    using RegList = std::array<std::array<uint32_t, 32>, 16>;
    for (const auto* list : {&M.a, &M.b, &M.c, &M.d})
        if (list->size() > 16) throw std::logic_error("execMatrix: a register list above 16");
    auto readList = [&](const std::vector<Operand>& ops, RegList& out) {
        for (size_t i = 0; i < ops.size(); ++i) regIn(ops[i], out[i].data());
    };
    auto getSub = [](uint32_t word, int sub, ElemType t) -> uint32_t {
        const int eb = elemBytes(t);
        if (eb == 4) return word;
        if (eb == 2) return (word >> (16 * sub)) & 0xffffu;
        return (word >> (8 * sub)) & 0xffu;
    };
    auto putSub = [](uint32_t& word, int sub, ElemType t, uint32_t v) {
        const int eb = elemBytes(t);
        if (eb == 4) word = v;
        else if (eb == 2) word = (word & ~(0xffffu << (16 * sub))) | ((v & 0xffffu) << (16 * sub));
        else word = (word & ~(0xffu << (8 * sub))) | ((v & 0xffu) << (8 * sub));
    };

    switch (M.kind) {
    case MatrixKind::WmmaLoad:
    case MatrixKind::WmmaStore: {
        const bool store = M.kind == MatrixKind::WmmaStore;
        const Frag which = store ? Frag::D : M.frag;
        const ElemType t = M.memType();
        const int eb = elemBytes(t);
        x.computeAddresses();
        uint32_t stride[32];
        if (M.hasStride) regIn(I.src[0], stride);
        const uint32_t width = uint32_t(M.rowMajor ? fragCols(M, which) : fragRows(M, which));
        for (int l = 0; l < 32; ++l) {
            if (!M.hasStride) stride[l] = width;
            if (x.addrs[l] != x.addrs[0] || stride[l] != stride[0]) {
                std::ostringstream os;
                os << describe(M) << ": every lane must give the same address and stride, but lane " << l << " gives 0x" << std::hex << x.addrs[l]
                   << std::dec << " and " << stride[l] << " where lane 0 gives 0x" << std::hex << x.addrs[0] << std::dec << " and " << stride[0] << ".";
                x.fault(Error::Kind::Fault, os.str(), l, x.addrs[l]);
            }
        }
        // The CUDA Programming Guide asks for a 256-bit aligned pointer; the H100 runs 16-byte
        // aligned ones (tests/golden/wmma-gemm's s8 tiles), so 16 bytes is the fault line here.
        if (x.addrs[0] % 16 != 0) {
            std::ostringstream os;
            os << "Misaligned address: " << describe(M) << " needs a 16-byte aligned matrix pointer (the CUDA Programming Guide asks for 32 bytes), but the warp gave 0x" << std::hex
               << x.addrs[0] << std::dec << ".";
            x.fault(Error::Kind::Fault, os.str(), 0, x.addrs[0], I.space != StateSpace::Shared);
        }
        if ((uint64_t(stride[0]) * uint64_t(eb)) % 16 != 0 || stride[0] < width) {
            std::ostringstream os;
            os << describe(M) << ": the stride (leading dimension) is " << stride[0] << " elements; it must be at least " << width
               << " and a multiple of 16 bytes (" << 16 / eb << " elements of " << elemTypeName(t) << ").";
            x.fault(Error::Kind::Fault, os.str(), 0, x.addrs[0]);
        }
        std::vector<Operand> const& regs = store ? M.a : M.d;
        RegList vals;
        if (store) readList(regs, vals);
        else
            for (size_t i = 0; i < regs.size(); ++i) vals[i].fill(0);
        const FragList& fl = fragList(M, which);
        // A load whose whole tile lies in shared memory or one allocation reads it from one host
        // pointer (every lane gives the same address); anything else, each element through
        // resolve(), which reports a fault where it lies.
        const int rowsF = fragRows(M, which), colsF = fragCols(M, which);
        const uint64_t major = uint64_t(M.rowMajor ? rowsF : colsF), minor = uint64_t(M.rowMajor ? colsF : rowsF);
        const uint8_t* tile = store ? nullptr : x.extentFor(x.addrs[0], ((major - 1) * stride[0] + minor) * uint64_t(eb));
        if (tile) {
            const uint64_t st = stride[0];
            for (size_t j = 0; j < fl.elems.size(); ++j) {
                const FragElem& e = fl.elems[j];
                const uint64_t idx = M.rowMajor ? uint64_t(e.row) * st + e.col : uint64_t(e.col) * st + e.row;
                const uint8_t* p = tile + idx * uint64_t(eb);
                uint32_t v;
                if (eb == 2) {
                    uint16_t h;
                    std::memcpy(&h, p, 2);
                    v = h;
                } else if (eb == 4) {
                    std::memcpy(&v, p, 4);
                } else {
                    v = *p;
                }
                putSub(vals[e.reg][fl.lane[j]], e.sub, t, v);
            }
        }
        for (size_t j = 0; !tile && j < fl.elems.size(); ++j) {
            const FragElem& e = fl.elems[j];
            const int l = fl.lane[j];
            const uint64_t idx = M.rowMajor ? uint64_t(e.row) * stride[l] + e.col : uint64_t(e.col) * stride[l] + e.row;
            const uint64_t addr = x.addrs[l] + idx * uint64_t(eb);
            uint8_t* p = x.resolve(I.space, addr, uint32_t(eb), l, store, nullptr);
            if (store) {
                const uint32_t v = getSub(vals[e.reg][size_t(l)], e.sub, t);
                std::memcpy(p, &v, size_t(eb));
            } else {
                uint32_t v = 0;
                std::memcpy(&v, p, size_t(eb));
                putSub(vals[e.reg][size_t(l)], e.sub, t, v);
            }
        }
        if (!store)
            for (size_t i = 0; i < regs.size(); ++i) regOut(regs[i], vals[i].data());
        break;
    }
    case MatrixKind::WmmaMma:
    case MatrixKind::Mma: {
        RegList A, B, C;
        readList(M.a, A);
        readList(M.b, B);
        readList(M.c, C);
        const int rowsA = fragRows(M, Frag::A), colsA = fragCols(M, Frag::A), colsB = fragCols(M, Frag::B);
        // Gather the tiles: the first holder of each element (f16 wmma fragments hold theirs twice;
        // the hardware reads the first copy).
        uint32_t a[16 * 32], bm[32 * 16], cm[16 * 16], dm[16 * 16];
        if (size_t(rowsA * colsA) > std::size(a) || size_t(colsA * colsB) > std::size(bm) || size_t(rowsA * colsB) > std::size(cm))
            throw std::logic_error("execMatrix: an mma tile above 16 x 16 x 32");
        auto gather = [&](Frag which, const RegList& regs, ElemType t, uint32_t* out) {
            const FragList& fl = fragList(M, which);
            const int cols = fragCols(M, which);
            for (uint32_t j : fl.first) {
                const FragElem& e = fl.elems[j];
                out[size_t(e.row) * size_t(cols) + e.col] = getSub(regs[e.reg][fl.lane[j]], e.sub, t);
            }
        };
        gather(Frag::A, A, M.atype, a);
        gather(Frag::B, B, M.btype, bm);
        gather(Frag::C, C, M.ctype, cm);
        mmaTile(M, a, bm, cm, dm, rowsA, colsB, colsA);
        RegList D;
        for (size_t i = 0; i < M.d.size(); ++i) D[i].fill(0);
        const FragList& fd = fragList(M, Frag::D);
        for (size_t j = 0; j < fd.elems.size(); ++j) {
            const FragElem& e = fd.elems[j];
            putSub(D[e.reg][fd.lane[j]], e.sub, M.dtype, dm[size_t(e.row) * size_t(colsB) + e.col]);
        }
        for (size_t i = 0; i < M.d.size(); ++i) regOut(M.d[i], D[i].data());
        break;
    }
    case MatrixKind::Ldmatrix: {
        // Lanes 8i..8i+7 give the row addresses of matrix i (16 bytes each, 16-byte aligned, in
        // shared memory); every lane then receives its elements of each matrix.
        x.computeAddresses();
        uint16_t rows[4][8][8];
        for (int i = 0; i < M.count; ++i)
            for (int r = 0; r < 8; ++r) {
                const int l = i * 8 + r;
                const uint64_t addr = x.addrs[l];
                if (addr % 16 != 0) {
                    std::ostringstream os;
                    os << "Misaligned address: ldmatrix reads each matrix row as 16 bytes from a 16-byte aligned shared-memory address, but lane "
                       << l << " (row " << r << " of matrix " << i << ") gave 0x" << std::hex << addr << std::dec << ".";
                    x.fault(Error::Kind::Fault, os.str(), l, addr);
                }
                StateSpace resolved = I.space;
                uint8_t* p = x.resolve(I.space, addr, 16, l, false, &resolved);
                if (resolved != StateSpace::Shared) {
                    std::ostringstream os;
                    os << "ldmatrix reads shared memory, but lane " << l << "'s row address 0x" << std::hex << addr << std::dec
                       << " is not in the shared window.";
                    x.fault(Error::Kind::Fault, os.str(), l, addr);
                }
                std::memcpy(rows[i][r], p, 16);
            }
        RegList D;
        for (size_t i = 0; i < M.d.size(); ++i) D[i].fill(0);
        for (int l = 0; l < 32; ++l)
            for (const FragElem& e : fragmentElements(M, Frag::D, l))
                putSub(D[e.reg][size_t(l)], e.sub, ElemType::B16, rows[e.col / 8][e.row][e.col % 8]);
        for (size_t i = 0; i < M.d.size(); ++i) regOut(M.d[i], D[i].data());
        break;
    }
    case MatrixKind::Movmatrix: {
        uint32_t src[32], dst[32] = {};
        regIn(M.a[0], src);
        uint16_t mat[8][8];
        for (int l = 0; l < 32; ++l)
            for (const FragElem& e : fragmentElements(M, Frag::A, l)) mat[e.row][e.col] = uint16_t(getSub(src[l], e.sub, ElemType::B16));
        // The destination holds the transpose: element (r, c) of the result is (c, r) of the source.
        for (int l = 0; l < 32; ++l)
            for (const FragElem& e : fragmentElements(M, Frag::D, l)) putSub(dst[l], e.sub, ElemType::B16, mat[e.col][e.row]);
        regOut(M.d[0], dst);
        break;
    }
    }
}

} // namespace warpscope::sim
