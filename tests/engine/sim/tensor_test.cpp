// Tensor-core instructions: fragment layouts (the PTX ISA's for mma.sync, the H100's for wmma),
// the block arithmetic on a case where it differs from IEEE, and the mistakes the engine reports
// (tests/kernels/tensor.cu's bad_* kernels). Results against hardware: tests/golden/wmma-*, mma-sync.
#include "support.hpp"

#include "base/error.hpp"
#include "sim/tensor.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <set>

using namespace warpscope;
using namespace warpscope::sim;
using wst::arg;

namespace {
MatrixOp mma(int m, int n, int k, ElemType in, ElemType acc) {
    MatrixOp op;
    op.kind = MatrixKind::Mma;
    op.m = m, op.n = n, op.k = k;
    op.atype = op.btype = in;
    op.ctype = op.dtype = acc;
    return op;
}

Error expectError(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e;
    }
    FAIL("expected a warpscope::Error");
    throw std::logic_error("unreachable");
}
} // namespace

TEST_CASE("mma.sync m16n8k16 f16 fragments follow the PTX ISA's lane tables", "[sim][tensor]") {
    MatrixOp op = mma(16, 8, 16, ElemType::F16, ElemType::F32);
    // Lane 5: groupID 1, threadID_in_group 1.
    auto a = fragmentElements(op, Frag::A, 5);
    REQUIRE(a.size() == 8);
    const int want[8][4] = {{0, 0, 1, 2}, {0, 1, 1, 3}, {1, 0, 9, 2}, {1, 1, 9, 3}, {2, 0, 1, 10}, {2, 1, 1, 11}, {3, 0, 9, 10}, {3, 1, 9, 11}};
    for (int i = 0; i < 8; ++i) {
        INFO("element " << i);
        CHECK(int(a[size_t(i)].reg) == want[i][0]);
        CHECK(int(a[size_t(i)].sub) == want[i][1]);
        CHECK(int(a[size_t(i)].row) == want[i][2]);
        CHECK(int(a[size_t(i)].col) == want[i][3]);
    }
    auto b = fragmentElements(op, Frag::B, 5);   // b0,b1: rows 2t, 2t+1; b2,b3: rows 2t+8, 2t+9; column g
    REQUIRE(b.size() == 4);
    CHECK((b[0].row == 2 && b[1].row == 3 && b[2].row == 10 && b[3].row == 11));
    CHECK((b[0].col == 1 && b[3].col == 1));
    auto c = fragmentElements(op, Frag::C, 5);   // c0,c1: row g, columns 2t, 2t+1; c2,c3: row g+8
    REQUIRE(c.size() == 4);
    CHECK((c[0].row == 1 && c[0].col == 2 && c[3].row == 9 && c[3].col == 3));
}

TEST_CASE("every element of every fragment has exactly one holder (wmma f16 A and B: two)", "[sim][tensor]") {
    struct Shape {
        MatrixKind kind;
        int m, n, k;
        ElemType in, acc;
    };
    const Shape shapes[] = {
        {MatrixKind::Mma, 16, 8, 16, ElemType::F16, ElemType::F32},  {MatrixKind::Mma, 16, 8, 8, ElemType::BF16, ElemType::F32},
        {MatrixKind::Mma, 16, 8, 8, ElemType::TF32, ElemType::F32},  {MatrixKind::Mma, 16, 8, 4, ElemType::TF32, ElemType::F32},
        {MatrixKind::Mma, 16, 8, 32, ElemType::S8, ElemType::S32},   {MatrixKind::Mma, 16, 8, 16, ElemType::U8, ElemType::S32},
        {MatrixKind::Mma, 16, 8, 16, ElemType::F16, ElemType::F16},  {MatrixKind::WmmaMma, 16, 16, 16, ElemType::F16, ElemType::F32},
        {MatrixKind::WmmaMma, 16, 16, 16, ElemType::BF16, ElemType::F32}, {MatrixKind::WmmaMma, 16, 16, 8, ElemType::TF32, ElemType::F32},
        {MatrixKind::WmmaMma, 16, 16, 16, ElemType::S8, ElemType::S32}, {MatrixKind::WmmaMma, 16, 16, 16, ElemType::F16, ElemType::F16},
    };
    for (const Shape& s : shapes) {
        MatrixOp op = mma(s.m, s.n, s.k, s.in, s.acc);
        op.kind = s.kind;
        INFO(describe(op));
        for (Frag f : {Frag::A, Frag::B, Frag::C}) {
            std::map<std::pair<int, int>, int> holders;
            std::set<std::tuple<int, int, int>> slots;   // (lane, reg, sub) used once
            for (int l = 0; l < 32; ++l)
                for (const FragElem& e : fragmentElements(op, f, l)) {
                    ++holders[{e.row, e.col}];
                    CHECK(slots.insert({l, e.reg, e.sub}).second);
                    CHECK(int(e.row) < fragRows(op, f));
                    CHECK(int(e.col) < fragCols(op, f));
                }
            const int expect = (s.kind == MatrixKind::WmmaMma && s.in == ElemType::F16 && f != Frag::C) ? 2 : 1;
            CHECK(int(holders.size()) == fragRows(op, f) * fragCols(op, f));
            for (auto& [rc, n] : holders) CHECK(n == expect);
        }
    }
}

TEST_CASE("tensor-core sums truncate: 1 + (2^-24 + 2^-26) is 1, where IEEE rounding gives 1 + 2^-23", "[sim][tensor]") {
    MatrixOp op = mma(16, 8, 16, ElemType::F16, ElemType::F32);
    uint32_t a[16] = {}, b[16] = {};
    a[0] = 0x0d00;   // 1.25 * 2^-12 in f16
    b[0] = 0x0c00;   // 2^-12
    const uint32_t one = std::bit_cast<uint32_t>(1.0f);
    CHECK(dotProduct(op, a, b, 16, one) == one);
    // Sixteen products of 1 sum exactly.
    for (int i = 0; i < 16; ++i) a[i] = b[i] = 0x3c00;
    CHECK(dotProduct(op, a, b, 16, 0) == std::bit_cast<uint32_t>(16.0f));
    // A NaN anywhere gives the canonical NaN; inf * 0 too.
    a[3] = 0x7e00;
    CHECK(dotProduct(op, a, b, 16, 0) == 0x7fffffffu);
    a[3] = 0x7c00;
    b[3] = 0;
    CHECK(dotProduct(op, a, b, 16, 0) == 0x7fffffffu);
    // Integers: exact, wrapping; saturating with .satfinite.
    MatrixOp iop = mma(16, 8, 16, ElemType::S8, ElemType::S32);
    uint32_t x[16], y[16];
    for (int i = 0; i < 16; ++i) x[i] = 0x80, y[i] = 0x80;   // (-128)^2 * 16 = 262144
    CHECK(dotProductInt(iop, x, y, 16, 0x7fffffffu) == uint32_t(0x7fffffffu + 262144u));
    iop.satfinite = true;
    CHECK(dotProductInt(iop, x, y, 16, 0x7fffffffu) == 0x7fffffffu);
}

TEST_CASE("a warp-wide matrix load in divergent code is an error at the lane, not a silent result", "[sim][tensor]") {
    wst::Sim sim("tests/kernels/tensor.ptx");
    auto a = sim.upload(std::vector<uint16_t>(256, 0x3c00), "a");
    auto out = sim.upload(std::vector<float>(32, 0.f), "out");
    Error e = expectError([&] { sim.launch("bad_divergent", 1, 32, {arg(a), arg(out)}); });
    CHECK(e.kind() == Error::Kind::Fault);
    CHECK(std::string(e.what()).find("warp-wide") != std::string::npos);
    REQUIRE(e.site().lane.has_value());
    CHECK(*e.site().lane == 16);
}

TEST_CASE("a misaligned ldmatrix row address is a fault naming the lane", "[sim][tensor]") {
    wst::Sim sim("tests/kernels/tensor.ptx");
    auto out = sim.upload(std::vector<uint32_t>(32, 0), "out");
    Error e = expectError([&] { sim.launch("bad_ldmatrix", 1, 32, {arg(out)}); });
    CHECK(e.kind() == Error::Kind::Fault);
    CHECK(std::string(e.what()).find("Misaligned") != std::string::npos);
    REQUIRE(e.site().lane.has_value());
    CHECK(*e.site().lane == 3);
}

TEST_CASE("an mma shape the engine does not model is an error naming it and the PTX line", "[sim][tensor]") {
    wst::Sim sim("tests/kernels/tensor.ptx");
    auto in = sim.upload(std::vector<uint32_t>(4, 0x3c003c00u), "in");
    auto out = sim.upload(std::vector<float>(256, 0.f), "out");
    Error e = expectError([&] { sim.launch("bad_shape", 1, 32, {arg(in), arg(out)}); });
    CHECK(e.kind() == Error::Kind::Unsupported);
    const std::string msg = e.what();
    CHECK(msg.find("m8n8k4") != std::string::npos);
    CHECK(msg.find("PTX line") != std::string::npos);
}

TEST_CASE("fragment view: the wmma f16 A tile from the H100 dump, ldmatrix .trans, and an instruction's operands", "[sim][tensor]") {
    MatrixOp op = mma(16, 16, 16, ElemType::F16, ElemType::F32);
    op.kind = MatrixKind::WmmaMma;
    FragmentMap a = fragmentMap(op, Frag::A);
    CHECK(a.rows == 16);
    CHECK(a.cols == 16);
    // tests/golden/wmma-fragments: lane 0 holds (0,0),(0,1),(8,0),(8,1),(0,8),... in registers 0..3 and again in 4..7.
    REQUIRE(a.at(8, 1).size() == 2);
    CHECK(int(a.at(8, 1)[0].lane) == 0);
    CHECK(int(a.at(8, 1)[0].reg) == 1);
    CHECK(int(a.at(8, 1)[0].sub) == 1);
    CHECK(int(a.at(8, 1)[1].reg) == 5);
    CHECK(int(a.at(15, 15)[0].lane) == 31);
    FragmentMap d = fragmentMap(op, Frag::D);   // right half of the tile in registers 4..7
    REQUIRE(d.at(0, 8).size() == 1);
    CHECK(int(d.at(0, 8)[0].lane) == 0);
    CHECK(int(d.at(0, 8)[0].reg) == 4);
    CHECK(fragmentsOf(op).size() == 4);
    MatrixOp ld;
    ld.kind = MatrixKind::Ldmatrix;
    ld.count = 2;
    ld.trans = true;
    FragmentMap l = fragmentMap(ld, Frag::D);
    CHECK(l.cols == 16);
    // .trans: lane 1 receives rows 2 and 3 of column 0 of each matrix.
    REQUIRE(l.at(2, 0).size() == 1);
    CHECK(int(l.at(2, 0)[0].lane) == 1);
    CHECK(int(l.at(3, 8)[0].lane) == 1);
    CHECK(int(l.at(3, 8)[0].reg) == 1);
}
