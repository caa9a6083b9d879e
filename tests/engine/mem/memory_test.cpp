#include "mem/memory.hpp"
#include "base/error.hpp"

#include <catch2/catch.hpp>

using namespace warpscope;

TEST_CASE("allocations are aligned, separated, found and described", "[mem]") {
    mem::GlobalMemory m;
    uint64_t a = m.allocate(1000, "a");
    uint64_t b = m.allocate(16, "b");
    CHECK(a % mem::kAllocationAlign == 0);
    CHECK(b % mem::kAllocationAlign == 0);
    CHECK(b >= a + 1000 + mem::kAllocationAlign);   // a gap: running off 'a' never lands in 'b'
    CHECK(m.find(a, 4) != nullptr);
    CHECK(m.find(a + 996, 4) != nullptr);
    CHECK(m.find(a + 997, 4) == nullptr);
    CHECK(m.find(a + 1000, 1) == nullptr);
    std::string name;
    std::optional<int64_t> off;
    CHECK(mem::describeAddress(m, a + 1004, &name, &off).find("4 bytes past the end of 'a'") != std::string::npos);
    CHECK(name == "a");
    CHECK(*off == 1004);
    CHECK(mem::windowOf(a) == mem::Window::Global);
    CHECK(mem::windowOf(mem::kSharedWindow + 12) == mem::Window::Shared);
    m.free(a);
    CHECK(m.find(a, 4) == nullptr);
    CHECK(mem::describeAddress(m, a + 8, nullptr, nullptr).find("freed") != std::string::npos);
    CHECK_THROWS_AS(m.free(a), Error);
    CHECK_THROWS_AS(m.free(b + 4), Error);
    CHECK_THROWS_AS(m.allocate(mem::kMaxAllocation + 1, "huge"), Error);
}
