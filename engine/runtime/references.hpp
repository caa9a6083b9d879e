// Built-in CPU references that lesson checks can name ("reference": "vector_add").
#pragma once
#include "runtime/expr.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace warpscope::runtime {

struct HostBuffer {
    std::string type;              // "f32", ...
    std::vector<uint8_t> bytes;
    size_t count() const;
    double get(size_t i) const;    // element as double (exact for every type but 64-bit ints > 2^53)
    void set(size_t i, double v);

private:
    int code() const;              // the type as a small number, computed once (get/set are hot)
    mutable int code_ = -1;
};

struct ReferenceInputs {
    std::vector<const HostBuffer*> inputs;          // in the order the check lists them
    std::function<Value(const std::string&)> param; // lesson parameters
};

// Fills `out` (already sized and typed like the checked buffer) with the expected values.
using ReferenceFn = std::function<void(const ReferenceInputs&, HostBuffer& out)>;

struct ReferenceInfo {
    std::string name;
    std::string description;       // what it computes and which inputs/params it needs
    ReferenceFn fn;
};

const std::map<std::string, ReferenceInfo>& references();

} // namespace warpscope::runtime
