// Planted bugs (tests/kernels/faults.cu): each stops the launch with a report that names the
// kernel, block, thread, lane, source line, PTX line and, for memory, address and allocation.
#include "support.hpp"

#include "runtime/error.hpp"

#include <catch2/catch.hpp>

using namespace warpscope;
using wst::arg;

namespace {
constexpr const char* kFaults = "tests/kernels/faults.ptx";

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

TEST_CASE("out-of-bounds store names the allocation, offset, thread and line", "[sim]") {
    wst::Sim sim(kFaults);
    auto out = sim.upload(std::vector<float>(100, 0.f), "out");
    Error e = expectError([&] { sim.launch("oob_store", 2, 64, {arg(out), arg(int32_t(100))}); });
    CHECK(e.kind() == Error::Kind::Fault);
    const FaultSite& s = e.site();
    CHECK(s.kernel == "oob_store");
    CHECK(s.allocation == "out");
    REQUIRE(s.offset.has_value());
    CHECK(*s.offset == 400);                  // element 100: the first one past the end
    REQUIRE(s.blockX.has_value());
    CHECK(*s.blockX == 1);
    CHECK(*s.threadX == 36);                  // 64 + 36 = 100
    CHECK(*s.lane == 4);
    CHECK(*s.sourceLine == 7);
    CHECK(s.ptxLine.has_value());
    std::string msg = e.what();
    CHECK(msg.find("past the end of 'out'") != std::string::npos);
    CHECK(msg.find("source line 7") != std::string::npos);
}

TEST_CASE("misaligned access is reported, not silently allowed", "[sim]") {
    wst::Sim sim(kFaults);
    auto base = sim.upload(std::vector<char>(256, 0), "bytes");
    auto out = sim.upload(std::vector<float>(32, 0.f), "out");
    Error e = expectError([&] { sim.launch("misaligned", 1, 32, {arg(base), arg(out)}); });
    CHECK(e.kind() == Error::Kind::Fault);
    CHECK(std::string(e.what()).find("Misaligned") != std::string::npos);
    CHECK(e.site().allocation == "bytes");
}

TEST_CASE("__syncthreads in divergent code is detected", "[sim]") {
    wst::Sim sim(kFaults);
    auto out = sim.upload(std::vector<int>(64, 0));
    Error e = expectError([&] { sim.launch("divergent_barrier", 1, 64, {arg(out)}); });
    CHECK(e.kind() == Error::Kind::Deadlock);
    CHECK(std::string(e.what()).find("divergent") != std::string::npos);
    CHECK(*e.site().sourceLine == 23);
}

TEST_CASE("a barrier that can never complete is a deadlock, not a hang", "[sim]") {
    wst::Sim sim(kFaults);
    auto out = sim.upload(std::vector<int>(64, 0));
    Error e = expectError([&] { sim.launch("barrier_deadlock", 1, 64, {arg(out)}); });
    CHECK(e.kind() == Error::Kind::Deadlock);
    CHECK(std::string(e.what()).find("never complete") != std::string::npos);
}

TEST_CASE("a runaway loop stops at the instruction budget", "[sim]") {
    sim::LaunchOptions opt;
    opt.instructionBudget = 200000;
    wst::Sim sim(kFaults, opt);
    auto flag = sim.upload(std::vector<int>(1, 0)), out = sim.upload(std::vector<int>(32, 0));
    Error e = expectError([&] { sim.launch("runaway", 1, 32, {arg(flag), arg(out)}); });
    CHECK(e.kind() == Error::Kind::Budget);
    CHECK(std::string(e.what()).find("200000") != std::string::npos);
    CHECK(e.site().sourceLine.has_value());
}

TEST_CASE("shared-memory index out of range", "[sim]") {
    wst::Sim sim(kFaults);
    auto out = sim.upload(std::vector<int>(64, 0));
    Error e = expectError([&] { sim.launch("shared_oob", 1, 64, {arg(out), arg(int32_t(8))}); });
    CHECK(e.kind() == Error::Kind::Fault);
    CHECK(std::string(e.what()).find("shared") != std::string::npos);
    CHECK(*e.site().threadX == 56);   // 56 + 8 = 64, the first index past s[64]
    // The same kernel with an in-range offset runs cleanly.
    sim.launch("shared_oob", 1, 56, {arg(out), arg(int32_t(8))});
}

TEST_CASE("trap stops the launch at the lane that trapped", "[sim]") {
    wst::Sim sim(kFaults);
    auto out = sim.upload(std::vector<int>(32, 0));
    Error e = expectError([&] { sim.launch("trap_kernel", 1, 32, {arg(out)}); });
    CHECK(e.kind() == Error::Kind::Fault);
    CHECK(*e.site().lane == 5);
}

TEST_CASE("bad launches are input errors", "[sim]") {
    wst::Sim sim(kFaults);
    auto out = sim.upload(std::vector<int>(32, 0));
    CHECK_THROWS_AS(sim.launch("trap_kernel", 1, 2048, {arg(out)}), Error);
    CHECK_THROWS_AS(sim.launch("trap_kernel", 1, 32, {}), Error);
    CHECK_THROWS_AS(sim.launch("no_such_kernel", 1, 32, {arg(out)}), Error);
    CHECK_THROWS_AS(sim.launch("trap_kernel", 0, 32, {arg(out)}), Error);
}
