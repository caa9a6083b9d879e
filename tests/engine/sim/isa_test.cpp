// The instruction table is complete and consistent.
#include "sim/isa.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace warpscope::sim;

TEST_CASE("every opcode has a unique name that maps back to it", "[sim]") {
    std::set<std::string> names;
    for (int i = 0; i < kOpCount; ++i) {
        const OpInfo& info = kOpTable[i];
        CHECK(static_cast<int>(info.op) == i);
        CHECK(!info.name.empty());
        CHECK(info.latency > 0);
        CHECK(names.insert(std::string(info.name)).second);
        Op back;
        REQUIRE(opFromName(info.name, back));
        CHECK(back == info.op);
    }
    Op dummy;
    CHECK_FALSE(opFromName("wgmma", dummy));
}
