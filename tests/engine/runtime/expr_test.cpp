#include "base/error.hpp"
#include "runtime/expr.hpp"

#include <catch2/catch.hpp>

using namespace warpscope;
using namespace warpscope::runtime;

namespace {
Value eval(const std::string& s) {
    return evaluate(s, [](std::string_view n) -> std::optional<Value> {
        if (n == "N") return Value::ofInt(1000);
        if (n == "BLOCK") return Value::ofInt(256);
        if (n == "X") return Value::ofFloat(0.5);
        return std::nullopt;
    }, "test");
}
} // namespace

TEST_CASE("lesson expressions", "[runtime]") {
    CHECK(eval("ceil_div(N, BLOCK)").i == 4);
    CHECK(eval("N * 4 + 1").i == 4001);
    CHECK(eval("-(3 - 5) * 2").i == 4);
    CHECK(eval("7 / 2").i == 3);
    CHECK(eval("7 % 4").i == 3);
    CHECK(eval("1 << 20").i == 1048576);
    CHECK(eval("0xff & 0x0f | 0x100").i == 0x10f);
    CHECK(eval("min(N, 64)").i == 64);
    CHECK(eval("max(N, 64)").i == 1000);
    CHECK(eval("pow2(10)").i == 1024);
    CHECK(eval("sizeof(f64) * 2").i == 16);
    CHECK(eval("X * 4").isFloat);
    CHECK(eval("X * 4").d == 2.0);
    CHECK(eval("1.5e2").d == 150.0);
}

TEST_CASE("lesson expressions: comparisons and logic for \"if\" conditions", "[runtime]") {
    CHECK(eval("N == 1000").i == 1);
    CHECK(eval("N != 1000").i == 0);
    CHECK(eval("BLOCK < N && N <= 1000").i == 1);
    CHECK(eval("N > 2000 || BLOCK >= 256").i == 1);
    CHECK(eval("N > 2000 || BLOCK > 256").i == 0);
    CHECK(eval("X < 1").i == 1);                 // float comparison
    CHECK(eval("1 << 2 < 5").i == 1);            // shifts bind tighter than comparisons
    CHECK(eval("3 | 4 == 7").i == 1);            // single | is bitwise and binds tighter
    CHECK(eval("(N == 1000) * 5").i == 5);
    CHECK(eval("6 & 3 && 1").i == 1);
    CHECK_THROWS_AS(eval("N ==="), Error);
    CHECK_THROWS_AS(eval("N &&"), Error);
}

TEST_CASE("expression errors name the place and the problem", "[runtime]") {
    auto msg = [](const std::string& s) -> std::string {
        try {
            eval(s);
        } catch (const Error& e) {
            return e.what();
        }
        return "";
    };
    CHECK(msg("NN + 1").find("unknown name 'NN'") != std::string::npos);
    CHECK(msg("N / 0").find("division by zero") != std::string::npos);
    CHECK(msg("(N + 1").find("missing ')'") != std::string::npos);
    CHECK(msg("foo(1)").find("unknown function") != std::string::npos);
    CHECK(msg("N +").find("test:") == 0);
    CHECK(msg(std::string(200, '(') + "1" + std::string(200, ')')).find("nested too deeply") != std::string::npos);
}
