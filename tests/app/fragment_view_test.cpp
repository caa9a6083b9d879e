// The Fragments panel's model on real compiler output: the tensor-cores lesson (nvcc's PTX)
// stepped in a Session to its wmma.load and wmma.mma; the view's element -> lane map must be the
// PTX ISA's m16n8 layouts (g = lane / 4, t = lane % 4) that an m16n16 wmma fragment is made of
// on the H100 (docs/tensor-cores.md), and its values must be the lesson's inputs.
#include "gui/model/fragment_view.hpp"
#include "gui/model/session.hpp"

#include "runtime/lesson.hpp"
#include "sim/arith.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <set>

using namespace warpscope;
using namespace warpscope::gui;
namespace fs = std::filesystem;

namespace {
struct Holder {
    int lane, reg;
};
// The PTX ISA's m16n8k16 A layout (rows g, g+8; columns 2t, 2t+1, +8) as the fragment's registers:
// a0: (g, 2t..2t+1), a1: (g+8, ...), a2: (g, 2t+8..), a3: (g+8, 2t+8..).
Holder isaA(int r, int c) {
    int g = r % 8, t = (c % 8) / 2;
    return {g * 4 + t, (r >= 8 ? 1 : 0) + (c >= 8 ? 2 : 0)};
}
// B (k x n = 16 x 16): the left half (columns 0..7) is an m16n8k16 B fragment (b0: rows 2t, 2t+1
// of column g; b1: rows +8), the right half the same in registers 2 and 3.
Holder isaB(int r, int c) {
    int g = c % 8, t = (r % 8) / 2;
    return {g * 4 + t, (r >= 8 ? 1 : 0) + (c >= 8 ? 2 : 0)};
}
// C/D (16 x 16 f32): c0, c1 (g, 2t..2t+1), c2, c3 (g+8, ...), then the right half in c4..c7.
Holder isaC(int r, int c) {
    int g = r % 8, t = (c % 8) / 2;
    return {g * 4 + t, (c % 2) + (r >= 8 ? 2 : 0) + (c >= 8 ? 4 : 0)};
}

std::shared_ptr<const Snapshot> atLine(Session& s, const runtime::Lesson& L, uint32_t line) {
    s.setSpeed(0);
    s.load(L, runtime::resolveParams(L, {}));
    REQUIRE(s.waitIdle(60));
    s.select(0, 0);
    REQUIRE(s.waitIdle(60));
    s.runToLine(line);
    REQUIRE(s.waitIdle(120));
    auto snap = s.snapshot();
    REQUIRE(snap->selected);
    REQUIRE(snap->selected->warp.line == line);
    return snap;
}

float halfAt(const runtime::Lesson& L, const std::string& buffer, size_t index, const Snapshot& s);
} // namespace

TEST_CASE("fragment view: gemm_wmma's mma, element by element, is the PTX ISA's m16n8 layout twice", "[fragments]") {
    auto L = runtime::loadLesson(fs::path(WARPSCOPE_SOURCE_DIR) / "lessons/tensor-cores");
    Session s;
    auto snap = atLine(s, L, 30);   // wmma::mma_sync: the warp's next instruction is the wmma.mma
    REQUIRE(snap->launchIndex == 1);
    FragmentView v = buildFragmentView(*snap);
    REQUIRE(v.valid);
    CHECK_FALSE(v.executed);
    CHECK(v.line == 30);
    CHECK(v.instruction.rfind("wmma.mma m16n16k16 f16 x f16 + f32 -> f32", 0) == 0);
    REQUIRE(v.tiles.size() == 4);
    const char* names[] = {"A", "B", "C", "D"};
    for (size_t i = 0; i < 4; ++i) {
        CHECK(v.tiles[i].name == names[i]);
        CHECK(v.tiles[i].rows == 16);
        CHECK(v.tiles[i].cols == 16);
    }
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) {
            INFO("element (" << r << ", " << c << ")");
            const FragmentCell& a = v.tiles[0].at(r, c);
            CHECK(a.lane == isaA(r, c).lane);
            CHECK(a.reg == isaA(r, c).reg);
            CHECK(a.sub == c % 2);
            CHECK(a.copies == 2);          // f16 A: registers 4..7 repeat 0..3 (H100)
            CHECK(a.copyReg == a.reg + 4);
            const FragmentCell& b = v.tiles[1].at(r, c);
            CHECK(b.lane == isaB(r, c).lane);
            CHECK(b.reg == isaB(r, c).reg);
            CHECK(b.sub == r % 2);
            for (int t : {2, 3}) {
                const FragmentCell& x = v.tiles[size_t(t)].at(r, c);
                CHECK(x.lane == isaC(r, c).lane);
                CHECK(x.reg == isaC(r, c).reg);
                CHECK(x.copies == 1);
            }
        }
    // Every lane holds 8 elements of A (in 4 registers, twice), 8 of B and 8 of C.
    for (int lane = 0; lane < 32; ++lane)
        for (const FragmentTile& t : v.tiles) CHECK(laneCells(t, lane).size() == 8);

    // Values: A and B are the lesson's inputs (the first 16 x 16 piece: tile row 0, k 0), C the
    // zeros of fill_fragment, D not computed yet.
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) {
            const FragmentCell& a = v.tiles[0].at(r, c);
            REQUIRE(a.hasValue);
            CHECK(float(a.value) == halfAt(L, "A", size_t(r) * 64 + size_t(c), *snap));
            const FragmentCell& b = v.tiles[1].at(r, c);
            REQUIRE(b.hasValue);
            CHECK(float(b.value) == halfAt(L, "B", size_t(r) * 64 + size_t(c), *snap));
            CHECK(v.tiles[2].at(r, c).hasValue);
            CHECK(v.tiles[2].at(r, c).value == 0.0);
            CHECK_FALSE(v.tiles[3].at(r, c).hasValue);
            CHECK(v.tiles[3].at(r, c).valueText == "not yet");
        }
    CHECK(fragmentCellText(v.tiles[0], 8, 9) == "A[8][9] = " + v.tiles[0].at(8, 9).valueText +
                                                       ", lane 0, register 3 (" + v.tiles[0].at(8, 9).regName + "), high half; again in register 7");

    // One instruction later the mma has run: D holds the products of the first k step.
    s.stepWarp();
    REQUIRE(s.waitIdle(60));
    auto after = s.snapshot();
    FragmentView w = buildFragmentView(*after);
    REQUIRE(w.valid);
    CHECK(w.executed);
    CHECK_FALSE(w.movedOn);
    CHECK(w.pc == v.pc);
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) {
            double sum = 0;
            for (int k = 0; k < 16; ++k) sum += double(v.tiles[0].at(r, k).value) * v.tiles[1].at(k, c).value;
            REQUIRE(w.tiles[3].at(r, c).hasValue);
            CHECK(std::fabs(w.tiles[3].at(r, c).value - sum) < 1e-5);
        }
}

TEST_CASE("fragment view: after the wmma.load.a the view shows the loaded A; outside wmma code it says why", "[fragments]") {
    auto L = runtime::loadLesson(fs::path(WARPSCOPE_SOURCE_DIR) / "lessons/tensor-cores");
    Session s;
    auto snap = atLine(s, L, 29);   // past line 28's wmma.load.a, on line 29's address arithmetic
    FragmentView v = buildFragmentView(*snap);
    REQUIRE(v.valid);
    CHECK(v.executed);
    CHECK(v.line == 28);
    CHECK(v.instruction == "wmma.load.a m16n16k16 f16 row-major");
    REQUIRE(v.tiles.size() == 1);
    CHECK(v.tiles[0].role == "loaded");
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) {
            CHECK(v.tiles[0].at(r, c).lane == isaA(r, c).lane);
            CHECK(v.tiles[0].at(r, c).hasValue);
        }

    // In the naive kernel (launch 1) the warp has no matrix instruction.
    Session n;
    auto naive = atLine(n, L, 13);
    REQUIRE(naive->launchIndex == 0);
    FragmentView none = buildFragmentView(*naive);
    CHECK_FALSE(none.valid);
    CHECK(none.message.find("has not reached a matrix instruction") != std::string::npos);
}

namespace {
float halfAt(const runtime::Lesson&, const std::string& buffer, size_t index, const Snapshot& s) {
    // The device buffer's contents as the snapshot's heat map copied them.
    REQUIRE(s.heat);
    for (const BufferHeat& b : s.heat->buffers)
        if (b.name == buffer) {
            REQUIRE(b.data.size() >= index * 2 + 2);
            uint16_t bits;
            std::memcpy(&bits, b.data.data() + index * 2, 2);
            return sim::arith::f16ToF32(bits);
        }
    FAIL("no buffer " << buffer);
    return 0;
}
} // namespace

TEST_CASE("fragment view: ldmatrix .x4, .x4 .trans and movmatrix from the mma-sync golden kernel, lanes and loaded values", "[fragments]") {
    auto L = runtime::loadLesson(fs::path(WARPSCOPE_SOURCE_DIR) / "tests/golden/mma-sync/spec.json");
    Session s;
    s.setSpeed(0);
    s.load(L, runtime::resolveParams(L, {}));
    REQUIRE(s.waitIdle(60));
    s.select(0, 0);
    REQUIRE(s.waitIdle(60));
    s.runToLine(138);   // ldmatrix_dump's .x4 (launch 7)
    REQUIRE(s.waitIdle(300));
    REQUIRE(s.snapshot()->launchIndex == 6);
    // rows[i] = 3i + 1; lane 8m + j gives row j of matrix m: rows[((8m + j) * 7 + 3) % 64 * 8 ...].
    auto loaded = [](int m, int r, int c) {
        int row = ((8 * m + r) * 7 + 3) % 64;
        return sim::arith::f16ToF32(static_cast<uint16_t>((row * 8 + c) * 3 + 1));
    };
    std::set<std::string> seen;
    for (int i = 0; i < 200 && seen.size() < 3; ++i) {
        s.stepWarp();
        REQUIRE(s.waitIdle(60));
        FragmentView v = buildFragmentView(*s.snapshot());
        if (!v.valid || !v.executed || v.movedOn || seen.count(v.instruction)) continue;
        if (v.instruction == "ldmatrix m8n8 .x4" || v.instruction == "ldmatrix m8n8 .x4 .trans") {
            const bool trans = v.instruction.find(".trans") != std::string::npos;
            seen.insert(v.instruction);
            REQUIRE(v.tiles.size() == 1);
            const FragmentTile& t = v.tiles[0];
            CHECK(t.name == "D");
            CHECK(t.rows == 8);
            CHECK(t.cols == 32);
            CHECK(t.subTiles == 4);
            for (int r = 0; r < 8; ++r)
                for (int c = 0; c < 32; ++c) {
                    INFO(v.instruction << " (" << r << ", " << c << ")");
                    const FragmentCell& x = t.at(r, c);
                    const int m = c / 8, cc = c % 8;
                    CHECK(x.reg == m);   // register i holds matrix i
                    if (!trans) {
                        CHECK(x.lane == r * 4 + cc / 2);
                        CHECK(x.sub == cc % 2);
                        REQUIRE(x.hasValue);
                        CHECK(float(x.value) == loaded(m, r, cc));
                    } else {   // .trans: lane l holds rows 2(l%4), +1 of column l/4
                        CHECK(x.lane == cc * 4 + r / 2);
                        CHECK(x.sub == r % 2);
                        REQUIRE(x.hasValue);
                    }
                }
        } else if (v.instruction == "movmatrix m8n8 .trans") {
            seen.insert(v.instruction);
            REQUIRE(v.tiles.size() == 2);
            const FragmentTile& a = v.tiles[0];
            const FragmentTile& d = v.tiles[1];
            CHECK(a.name == "A");
            CHECK(d.name == "D");
            for (int r = 0; r < 8; ++r)
                for (int c = 0; c < 8; ++c) {
                    INFO("movmatrix (" << r << ", " << c << ")");
                    CHECK(a.at(r, c).lane == r * 4 + c / 2);
                    CHECK(d.at(r, c).lane == r * 4 + c / 2);
                    // The source: lane l holds l * 2 + 1 (low half) and l * 2 + 2 (high half).
                    REQUIRE(a.at(r, c).hasValue);
                    const int l = r * 4 + c / 2;
                    CHECK(float(a.at(r, c).value) == sim::arith::f16ToF32(static_cast<uint16_t>(l * 2 + 1 + c % 2)));
                    REQUIRE(d.at(r, c).hasValue);
                    CHECK(d.at(r, c).value == a.at(c, r).value);   // D is A transposed
                }
        }
    }
    CHECK(seen == std::set<std::string>{"ldmatrix m8n8 .x4", "ldmatrix m8n8 .x4 .trans", "movmatrix m8n8 .trans"});
}
