// Fitting text into a width counted in characters (monospace) without losing any of it: wrapping a
// source line at spaces (the Source panel), a metric name at '_' and '.' (the Metrics panel), and
// ellipsizing a one-line message (the status bar, whose full text is in its tooltip).
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace warpscope::gui {

// One visual row of a wrapped line: the characters [begin, end) of the line, drawn `indent`
// columns in (continuation rows are indented past the line's own indentation).
struct WrapRow {
    size_t begin = 0, end = 0;
    size_t indent = 0;
};

// Splits `text` into rows of at most `columns` characters (indent included). A row breaks after
// the last of `breakAfter` that fits (a space is left at the row's end); a run with no break
// character is cut at the width. Continuation rows are indented by the line's leading spaces plus
// `extraIndent`, but never more than half the width. Every character of `text` lands in exactly
// one row, in order; `columns` below 8 is taken as 8. An empty text is one empty row.
std::vector<WrapRow> wrapColumns(const std::string& text, size_t columns, const std::string& breakAfter = " ", size_t extraIndent = 2);

// The widest row of wrapColumns' result, in columns: indent plus the characters drawn (a row's
// trailing spaces are not).
size_t widestRow(const std::string& text, const std::vector<WrapRow>& rows);

// The longest prefix of `text` (cut at a UTF-8 character boundary) that, with "…" appended, is at
// most `width` wide by `measure`; `text` itself when it fits.
std::string ellipsize(const std::string& text, float width, const std::function<float(const std::string&)>& measure);

} // namespace warpscope::gui
