#include "base/error.hpp"
#include "base/parse_number.hpp"

#include <catch2/catch.hpp>

using namespace warpscope;

TEST_CASE("parseCount takes positive whole numbers and names the option otherwise", "[base]")
{
    CHECK(parseCount("1", "--budget") == 1);
    CHECK(parseCount("4096", "--budget") == 4096);
    CHECK(parseCount("18446744073709551615", "--budget") == 18446744073709551615ull);
    for (const char* bad : {"", "0", "-1", "+3", "12x", "1e9", " 5", "3.0"}) {
        INFO(bad);
        try {
            parseCount(bad, "--budget");
            FAIL("accepted");
        } catch (const Error& e) {
            CHECK(e.kind() == Error::Kind::Input);
            CHECK(std::string(e.what()).find("--budget") != std::string::npos);
        }
    }
    CHECK_THROWS_WITH(parseCount("18446744073709551616", "--steps"), Catch::Contains("too large"));
}

TEST_CASE("parseSize reads binary units in either case", "[base]")
{
    CHECK(parseSize("4096", "--device-memory") == 4096);
    CHECK(parseSize("512K", "--device-memory") == 512ull << 10);
    CHECK(parseSize("512m", "--device-memory") == 512ull << 20);
    CHECK(parseSize("16G", "--device-memory") == 16ull << 30);
    CHECK(parseSize("1T", "--device-memory") == 1ull << 40);
    CHECK_THROWS_WITH(parseSize("G", "--device-memory"), Catch::Contains("such as 4096, 512M or 16G"));
    CHECK_THROWS_WITH(parseSize("16GB", "--device-memory"), Catch::Contains("'16GB'"));
    CHECK_THROWS_WITH(parseSize("0M", "--device-memory"), Catch::Contains("--device-memory"));
    CHECK_THROWS_WITH(parseSize("16777216T", "--device-memory"), Catch::Contains("too large"));
}
