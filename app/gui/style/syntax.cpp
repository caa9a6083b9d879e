// CUDA C++ tokenizer for colouring (not a parser): words are looked up in small keyword sets.
#include "gui/style/syntax.hpp"

#include <algorithm>
#include <iterator>
#include <cctype>

namespace warpscope::gui {

namespace {
constexpr std::string_view kKeywords[] = {
    "if", "else", "for", "while", "do", "return", "break", "continue", "switch", "case",
    "default", "goto", "struct", "class", "union", "enum", "template", "typename", "namespace", "using",
    "static", "extern", "inline", "const", "constexpr", "volatile", "restrict", "__restrict__", "sizeof",
    "typedef", "true", "false", "nullptr", "public", "private", "operator", "auto", "static_cast",
    "reinterpret_cast", "__global__", "__device__", "__host__", "__shared__", "__constant__",
    "__forceinline__", "__noinline__", "__launch_bounds__"};
constexpr std::string_view kTypes[] = {
    "void", "bool", "char", "short", "int", "long", "float", "double", "unsigned",
    "signed", "size_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
    "uint64_t", "half", "__half", "float2", "float3", "float4", "int2", "int3", "int4", "uint2", "uint3",
    "uint4", "dim3"};
constexpr std::string_view kBuiltins[] = {
    "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "__syncthreads",
    "__syncwarp", "__shfl_sync", "__shfl_down_sync", "__shfl_up_sync", "__shfl_xor_sync", "__ballot_sync",
    "__any_sync", "__all_sync", "__activemask", "__popc", "__clz", "__ffs", "atomicAdd", "atomicSub",
    "atomicMin", "atomicMax", "atomicCAS", "atomicExch", "atomicAnd", "atomicOr", "atomicXor",
    "__threadfence", "__ldg", "fmaf", "sqrtf", "expf", "logf", "sinf", "cosf", "fabsf", "min", "max"};

template <size_t N>
bool contains(const std::string_view (&a)[N], std::string_view w) {
    return std::find(std::begin(a), std::end(a), w) != std::end(a);
}
bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
} // namespace

std::vector<Token> highlightLine(std::string_view s, bool& inBlock) {
    std::vector<Token> out;
    auto emit = [&](size_t b, size_t e, TokenKind k) {
        if (e <= b) return;
        if (!out.empty() && out.back().kind == k && out.back().end == b) out.back().end = e;
        else out.push_back({b, e, k});
    };
    size_t i = 0;
    if (inBlock) {
        size_t end = s.find("*/");
        if (end == std::string_view::npos) {
            emit(0, s.size(), TokenKind::Comment);
            return out;
        }
        emit(0, end + 2, TokenKind::Comment);
        i = end + 2;
        inBlock = false;
    }
    size_t firstNonSpace = s.find_first_not_of(" \t");
    if (firstNonSpace != std::string_view::npos && s[firstNonSpace] == '#' && i == 0) {
        size_t c = s.find("//");
        size_t end = c == std::string_view::npos ? s.size() : c;
        emit(0, end, TokenKind::Preprocessor);
        if (c != std::string_view::npos) emit(c, s.size(), TokenKind::Comment);
        return out;
    }
    while (i < s.size()) {
        char c = s[i];
        if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
            emit(i, s.size(), TokenKind::Comment);
            break;
        }
        if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
            size_t end = s.find("*/", i + 2);
            if (end == std::string_view::npos) {
                emit(i, s.size(), TokenKind::Comment);
                inBlock = true;
                break;
            }
            emit(i, end + 2, TokenKind::Comment);
            i = end + 2;
            continue;
        }
        if (c == '"' || c == '\'') {
            size_t j = i + 1;
            while (j < s.size() && s[j] != c) j += s[j] == '\\' ? 2 : 1;
            j = std::min(j + 1, s.size());
            emit(i, j, TokenKind::String);
            i = j;
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
            size_t j = i + 1;
            while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '.' ||
                                    ((s[j] == '+' || s[j] == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E'))))
                ++j;
            emit(i, j, TokenKind::Number);
            i = j;
            continue;
        }
        if (identStart(c)) {
            size_t j = i + 1;
            while (j < s.size() && identChar(s[j])) ++j;
            std::string_view w = s.substr(i, j - i);
            TokenKind k = contains(kKeywords, w) ? TokenKind::Keyword
                        : contains(kTypes, w)    ? TokenKind::Type
                        : contains(kBuiltins, w) ? TokenKind::Builtin
                                                 : TokenKind::Plain;
            emit(i, j, k);
            i = j;
            continue;
        }
        emit(i, i + 1, TokenKind::Plain);
        ++i;
    }
    return out;
}

} // namespace warpscope::gui
