// The Async copies panel's model on real compiler output: the async-copy lesson (nvcc's PTX)
// stepped in a Session. Warp 0 of block 0 after issuing its two cp.async (64 copies, 256 bytes, not
// committed yet), after the commit (group 0, pending), after the wait (nothing in flight), and in
// the double-buffered kernel before the multiply of tile 0 (group 1, the next tile, in flight into
// the second buffers); in Timed mode each group says when the cycle model has its data back.
#include "gui/model/async_view.hpp"
#include "gui/model/session.hpp"

#include "runtime/lesson.hpp"
#include "timing/gpu_spec.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

using namespace warpscope;
using namespace warpscope::gui;
namespace fs = std::filesystem;

namespace {
std::shared_ptr<const Snapshot> atLine(Session& s, const runtime::Lesson& L, uint32_t line, bool timed = false) {
    s.setSpeed(0);
    s.load(L, runtime::resolveParams(L, {}));
    REQUIRE(s.waitIdle(60));
    if (timed) {
        TimingConfig tc;
        tc.timed = true;
        tc.spec = timing::findPreset("h100", {});
        s.setTiming(tc);
        REQUIRE(s.waitIdle(60));
    }
    s.select(0, 0);
    REQUIRE(s.waitIdle(60));
    s.runToLine(line);
    REQUIRE(s.waitIdle(120));
    auto snap = s.snapshot();
    REQUIRE(snap->selected);
    REQUIRE(snap->selected->warp.line == line);
    return snap;
}

uint32_t pendingWords(const AsyncView& v, SharedWord w) {
    return uint32_t(std::count(v.words.begin(), v.words.end(), w));
}
} // namespace

TEST_CASE("async view: matmul_async's warp 0 has 64 copies (256 bytes) in flight before its commit, group 0 after, none after the wait", "[async]") {
    auto L = runtime::loadLesson(fs::path(WARPSCOPE_SOURCE_DIR) / "lessons/async-copy");
    Session s;
    {
        auto snap = atLine(s, L, 38);   // __pipeline_commit(): both cp.async issued
        REQUIRE(snap->launchIndex == 1);
        AsyncView v = buildAsyncView(*snap);
        REQUIRE(v.valid);
        CHECK(v.copies == 64);
        CHECK(v.bytes == 256);
        CHECK(v.committedGroups == 0);
        REQUIRE(v.groups.size() == 1);
        const AsyncGroupRow& g = v.groups[0];
        CHECK(g.group == ~0u);   // issued, not committed yet
        CHECK(g.lanes == 0xffffffffu);
        CHECK(g.copies == 64);
        // Rows 0 and 1 of As (offsets 0..127) and of Bs (1024..1151): the range spans both.
        CHECK(g.dstLo == 0);
        CHECK(g.dstHi == 1024 + 128);
        CHECK(destinationText(g) == "[0, 128), [1024, 1152)");
        CHECK(g.state.find("not committed") != std::string::npos);
        // The global sources are in the lesson's buffers A and B: rows 0, 1 of A's first tile ...
        REQUIRE(g.sources.size() == 2);
        CHECK(g.sources[0].buffer == "A");
        CHECK(g.sources[1].buffer == "B");
        // The shared map: 2048 bytes = 512 words; this warp's 64 pending, hatched in its colour.
        REQUIRE(v.words.size() == 512);
        CHECK(v.pendingWordsThisWarp == 64);
        CHECK(pendingWords(v, SharedWord::PendingThisWarp) == 64);
        for (uint32_t w = 0; w < 32; ++w) CHECK(v.words[w] == SharedWord::PendingThisWarp);       // As rows 0, 1
        for (uint32_t w = 256; w < 288; ++w) CHECK(v.words[w] == SharedWord::PendingThisWarp);    // Bs rows 0, 1
        CHECK(v.words[32] != SharedWord::PendingThisWarp);
        CHECK(v.copyList.size() == 64);
        CHECK(asyncGroupText(g).rfind("not committed yet: 64 copies, 256 bytes, lanes 0-31", 0) == 0);
    }
    {
        auto snap = atLine(s, L, 39);   // __pipeline_wait_prior(0): committed, not waited for
        AsyncView v = buildAsyncView(*snap);
        CHECK(v.copies == 64);
        CHECK(v.committedGroups == 1);
        REQUIRE(v.groups.size() == 1);
        CHECK(v.groups[0].group == 0);
        CHECK(v.groups[0].state.find("pending") != std::string::npos);
    }
    {
        auto snap = atLine(s, L, 40);   // after the wait: the copies landed
        AsyncView v = buildAsyncView(*snap);
        CHECK(v.copies == 0);
        CHECK(v.groups.empty());
        CHECK(v.pendingWordsThisWarp == 0);
        CHECK(pendingWords(v, SharedWord::PendingThisWarp) == 0);
        CHECK(v.committedGroups == 1);
        CHECK(v.message.find("has landed") != std::string::npos);
    }
}

TEST_CASE("async view: matmul_double_buffered before the multiply of tile 0 has group 1 (tile 1, the second buffers) in flight", "[async]") {
    auto L = runtime::loadLesson(fs::path(WARPSCOPE_SOURCE_DIR) / "lessons/async-copy");
    Session s;
    auto snap = atLine(s, L, 67);   // the __syncthreads() before the multiply
    REQUIRE(snap->launchIndex == 2);
    AsyncView v = buildAsyncView(*snap);
    CHECK(v.copies == 64);
    CHECK(v.bytes == 256);
    CHECK(v.committedGroups == 2);
    REQUIRE(v.groups.size() == 1);
    CHECK(v.groups[0].group == 1);
    CHECK(v.groups[0].dstLo == 1024);          // As[1] rows 0, 1
    CHECK(v.groups[0].dstHi == 3072 + 128);    // Bs[1] rows 0, 1
    REQUIRE(v.groups[0].dstRuns.size() == 2);
    CHECK(destinationText(v.groups[0]) == "[1024, 1152), [3072, 3200)");
    // Sources: tile 1 of A (rows 0, 1, columns 16..31) and of B (rows 16, 17), by buffer.
    REQUIRE(v.groups[0].sourcesKnown == 64);
    REQUIRE(v.groups[0].sources.size() == 2);
    CHECK(v.groups[0].sources[0].buffer == "A");
    CHECK(v.groups[0].sources[1].buffer == "B");
    const uint64_t n = 128, a = v.groups[0].sources[0].lo, b = v.groups[0].sources[1].lo;
    CHECK(v.groups[0].sources[0].hi - a == (n + 16) * 4);   // A[0][16] .. A[1][31]
    CHECK(v.groups[0].sources[1].hi - b == (n + 16) * 4);   // B[16][0] .. B[17][15]
    REQUIRE(v.words.size() == 1024);
    for (uint32_t w = 256; w < 288; ++w) CHECK(v.words[w] == SharedWord::PendingThisWarp);
    for (uint32_t w = 768; w < 800; ++w) CHECK(v.words[w] == SharedWord::PendingThisWarp);
    CHECK(v.words[0] != SharedWord::PendingThisWarp);   // tile 0 (buffer 0) has landed
}

TEST_CASE("async view: in Timed mode a group says when the cycle model has its data back", "[async]") {
    auto L = runtime::loadLesson(fs::path(WARPSCOPE_SOURCE_DIR) / "lessons/async-copy");
    Session s;
    auto snap = atLine(s, L, 39, true);   // committed, not waited for
    AsyncView v = buildAsyncView(*snap);
    REQUIRE(v.timed);
    REQUIRE(v.groups.size() == 1);
    const AsyncGroupRow& g = v.groups[0];
    CHECK(g.group == 0);
    REQUIRE(g.timed);
    // Issued a moment ago: a trip to memory is hundreds of cycles, so the data is not back yet.
    CHECK(g.readyCycle > v.cycle);
    CHECK_FALSE(g.arrived);
    CHECK(g.state.find("in flight: data back at cycle " + std::to_string(g.readyCycle)) == 0);
}
