#include "gui/model/text_fit.hpp"

#include <algorithm>

namespace warpscope::gui {

std::vector<WrapRow> wrapColumns(const std::string& text, size_t columns, const std::string& breakAfter, size_t extraIndent) {
    columns = std::max<size_t>(columns, 8);
    std::vector<WrapRow> rows;
    size_t lead = text.find_first_not_of(' ');
    if (lead == std::string::npos) lead = 0;
    const size_t contIndent = std::min(lead + extraIndent, columns / 2);
    size_t at = 0;
    do {
        size_t indent = rows.empty() ? 0 : contIndent;
        if (!rows.empty())
            while (at < text.size() && text[at] == ' ') ++at;   // a continuation does not start with spaces
        size_t room = columns - indent;
        if (text.size() - at <= room) {
            rows.push_back({at, text.size(), indent});
            break;
        }
        // The last break character inside the room; past the leading indentation on the first row.
        size_t cut = std::string::npos;
        for (size_t i = at + room; i-- > at;) {
            if (breakAfter.find(text[i]) != std::string::npos && (!rows.empty() || i >= lead)) {
                cut = i + 1;
                break;
            }
        }
        if (cut == std::string::npos || cut <= at) cut = at + room;
        rows.push_back({at, cut, indent});
        at = cut;
    } while (at < text.size());
    // Spaces skipped between rows belong to the row before (nothing of the text is lost).
    for (size_t r = 0; r + 1 < rows.size(); ++r) rows[r].end = rows[r + 1].begin;
    return rows;
}

size_t widestRow(const std::string& text, const std::vector<WrapRow>& rows) {
    size_t w = 0;
    for (auto& r : rows) {
        size_t end = r.end;
        while (end > r.begin && text[end - 1] == ' ') --end;   // spaces at a row's end are not drawn
        w = std::max(w, r.indent + (end - r.begin));
    }
    return w;
}

std::string ellipsize(const std::string& text, float width, const std::function<float(const std::string&)>& measure) {
    if (measure(text) <= width) return text;
    static const std::string dots = "\xE2\x80\xA6";
    size_t lo = 0, hi = text.size();   // the answer's prefix length lies in [lo, hi)
    while (lo + 1 < hi) {
        size_t mid = (lo + hi) / 2;
        if (measure(text.substr(0, mid) + dots) <= width) lo = mid;
        else hi = mid;
    }
    while (lo > 0 && (static_cast<unsigned char>(text[lo]) & 0xC0) == 0x80) --lo;   // not inside a UTF-8 sequence
    return text.substr(0, lo) + dots;
}

} // namespace warpscope::gui
