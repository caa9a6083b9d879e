// PTX scalar types and the helpers every module uses to reason about them.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace warpscope::ptx {

// Scalar data types as PTX spells them (".u32" -> U32). Pred is the 1-bit predicate type.
enum class Type : uint8_t {
    None,
    Pred,
    B8, B16, B32, B64, B128,
    U8, U16, U32, U64,
    S8, S16, S32, S64,
    F16, F16x2, BF16, BF16x2, F32, F64,
};

// Size in bytes (Pred counts as 1; None as 0).
constexpr int sizeOf(Type t) {
    switch (t) {
    case Type::None: return 0;
    case Type::Pred: case Type::B8: case Type::U8: case Type::S8: return 1;
    case Type::B16: case Type::U16: case Type::S16: case Type::F16: case Type::BF16: return 2;
    case Type::B32: case Type::U32: case Type::S32: case Type::F32: case Type::F16x2: case Type::BF16x2: return 4;
    case Type::B64: case Type::U64: case Type::S64: case Type::F64: return 8;
    case Type::B128: return 16;
    }
    return 0;
}
constexpr int bitsOf(Type t) { return sizeOf(t) * 8; }
constexpr bool isSigned(Type t) { return t == Type::S8 || t == Type::S16 || t == Type::S32 || t == Type::S64; }
constexpr bool isUnsigned(Type t) { return t == Type::U8 || t == Type::U16 || t == Type::U32 || t == Type::U64; }
constexpr bool isBits(Type t) { return t == Type::B8 || t == Type::B16 || t == Type::B32 || t == Type::B64 || t == Type::B128; }
constexpr bool isInteger(Type t) { return isSigned(t) || isUnsigned(t) || isBits(t); }
constexpr bool isFloat(Type t) { return t == Type::F16 || t == Type::BF16 || t == Type::F32 || t == Type::F64; }

std::string_view typeName(Type t);              // "u32"
std::optional<Type> typeFromName(std::string_view s); // accepts "u32" or ".u32"

// Rounding modifiers. RN..RP round floating results; RNI..RPI round to an integral value
// (cvt float->int and cvt float->float with integer rounding).
enum class Round : uint8_t { None, RN, RZ, RM, RP, RNA, RNI, RZI, RMI, RPI };
std::string_view roundName(Round r);

} // namespace warpscope::ptx
