// Arithmetic expressions in lesson files ("ceil_div(N, BLOCK)"): integers stay exact 64-bit
// integers; any float operand makes the result a double.
#pragma once
#include <climits>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace warpscope::runtime {

struct Value {
    bool isFloat = false;
    int64_t i = 0;
    double d = 0;
    double asDouble() const { return isFloat ? d : static_cast<double>(i); }
    // Floats convert by truncation, saturating at the int64 range (NaN gives 0): converting an
    // out-of-range double directly would be undefined behaviour.
    int64_t asInt() const { return isFloat ? saturate(d) : i; }
    static int64_t saturate(double v) {
        if (v != v) return 0;
        if (v >= 9223372036854775807.0) return INT64_MAX;
        if (v <= -9223372036854775808.0) return INT64_MIN;
        return static_cast<int64_t>(v);
    }
    static Value ofInt(int64_t v) { return {false, v, 0}; }
    static Value ofFloat(double v) { return {true, 0, v}; }
};

// Looks a name up; returns nullopt when unknown.
using NameLookup = std::function<std::optional<Value>(std::string_view)>;

// Throws Error(Input) with `where` (a JSON path) in the message on any mistake.
Value evaluate(std::string_view text, const NameLookup& names, const std::string& where);

} // namespace warpscope::runtime
