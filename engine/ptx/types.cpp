#include "ptx/types.hpp"

#include <array>
#include <utility>

namespace warpscope::ptx {
namespace {
constexpr std::array<std::pair<Type, std::string_view>, 21> kTypeNames{{
    {Type::Pred, "pred"}, {Type::B8, "b8"}, {Type::B16, "b16"}, {Type::B32, "b32"}, {Type::B64, "b64"},
    {Type::B128, "b128"}, {Type::U8, "u8"}, {Type::U16, "u16"}, {Type::U32, "u32"}, {Type::U64, "u64"},
    {Type::S8, "s8"}, {Type::S16, "s16"}, {Type::S32, "s32"}, {Type::S64, "s64"}, {Type::F16, "f16"},
    {Type::F16x2, "f16x2"}, {Type::BF16, "bf16"}, {Type::BF16x2, "bf16x2"}, {Type::F32, "f32"},
    {Type::F64, "f64"}, {Type::None, ""},
}};
} // namespace

std::string_view typeName(Type t) {
    for (auto& [type, name] : kTypeNames)
        if (type == t) return name;
    return "";
}

std::optional<Type> typeFromName(std::string_view s) {
    if (!s.empty() && s.front() == '.') s.remove_prefix(1);
    if (s.empty()) return std::nullopt;
    for (auto& [type, name] : kTypeNames)
        if (name == s) return type;
    return std::nullopt;
}

std::string_view roundName(Round r) {
    switch (r) {
    case Round::None: return "";
    case Round::RN: return "rn";
    case Round::RZ: return "rz";
    case Round::RM: return "rm";
    case Round::RP: return "rp";
    case Round::RNA: return "rna";
    case Round::RNI: return "rni";
    case Round::RZI: return "rzi";
    case Round::RMI: return "rmi";
    case Round::RPI: return "rpi";
    }
    return "";
}

} // namespace warpscope::ptx
