// Syntax colouring for CUDA C++ source, one line at a time (block comments carry over).
#pragma once
#include <string_view>
#include <vector>

namespace warpscope::gui {

enum class TokenKind { Plain, Keyword, Type, Builtin, Number, String, Comment, Preprocessor };

struct Token {
    size_t begin = 0, end = 0;   // byte range in the line
    TokenKind kind = TokenKind::Plain;
};

// Splits `line` into coloured tokens covering it completely. `inBlockComment` is the state at
// the start of the line and is updated for the next one.
std::vector<Token> highlightLine(std::string_view line, bool& inBlockComment);

} // namespace warpscope::gui
