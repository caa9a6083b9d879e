// Hand-written lexer and recursive-descent parser for PTX as nvcc 12.x/13.x emits it.
// Malformed input throws warpscope::Error(Kind::Input) naming the line and column; the parser
// never crashes and never loops forever (every step consumes a token or stops).
#pragma once
#include "ptx/ast.hpp"

#include <string_view>

namespace warpscope::ptx {

Module parse(std::string_view text, std::string_view displayName = "<ptx>");

} // namespace warpscope::ptx
