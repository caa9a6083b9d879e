// Markdown subset reader (see markdown.hpp). Line-based: each line is classified, consecutive
// paragraph lines are joined, fenced code is kept verbatim.
#include "gui/model/markdown.hpp"

#include <cctype>

namespace warpscope::gui {

namespace {
std::string trim(std::string_view s) {
    size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
    return std::string(s.substr(a, b - a));
}

size_t indentOf(std::string_view s) {
    size_t n = 0;
    while (n < s.size() && (s[n] == ' ' || s[n] == '\t')) ++n;
    return n;
}

// "- item", "* item", "+ item" or "12. item": returns the offset of the item text, or 0.
size_t listMarker(std::string_view s, bool& ordered, int& number) {
    size_t i = indentOf(s);
    if (i + 1 < s.size() && (s[i] == '-' || s[i] == '*' || s[i] == '+') && s[i + 1] == ' ') {
        ordered = false;
        return i + 2;
    }
    size_t j = i;
    int n = 0;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) n = n * 10 + (s[j++] - '0');
    if (j > i && j + 1 < s.size() && (s[j] == '.' || s[j] == ')') && s[j + 1] == ' ') {
        ordered = true;
        number = n;
        return j + 2;
    }
    return 0;
}

// A table row "| a | b |" split into trimmed cells ('|' inside `code` or escaped does not split).
std::vector<std::string> tableCells(std::string_view row) {
    std::string t = trim(row);
    if (!t.empty() && t.front() == '|') t.erase(0, 1);
    if (!t.empty() && t.back() == '|' && (t.size() < 2 || t[t.size() - 2] != '\\')) t.pop_back();
    std::vector<std::string> cells;
    std::string cur;
    bool inCode = false;
    for (size_t i = 0; i < t.size(); ++i) {
        char c = t[i];
        if (c == '\\' && i + 1 < t.size() && t[i + 1] == '|') {
            cur += '|';
            ++i;
            continue;
        }
        if (c == '`') inCode = !inCode;
        if (c == '|' && !inCode) {
            cells.push_back(trim(cur));
            cur.clear();
            continue;
        }
        cur += c;
    }
    cells.push_back(trim(cur));
    return cells;
}

// "| --- | :---: |": the line under a table's header.
bool isTableSeparator(std::string_view s) {
    std::string t = trim(s);
    if (t.empty() || t.find('-') == std::string::npos) return false;
    for (char c : t)
        if (c != '|' && c != '-' && c != ':' && c != ' ' && c != '\t') return false;
    return t.find('|') != std::string::npos;
}

bool isRule(std::string_view s) {
    std::string t = trim(s);
    if (t.size() < 3) return false;
    for (char c : t)
        if (c != '-' && c != '*' && c != '_') return false;
    return t.find_first_not_of(t[0]) == std::string::npos;
}
} // namespace

std::vector<MdSpan> parseInline(std::string_view t) {
    std::vector<MdSpan> out;
    std::string cur;
    auto flush = [&] {
        if (!cur.empty()) out.push_back({MdSpan::Kind::Text, cur});
        cur.clear();
    };
    for (size_t i = 0; i < t.size();) {
        char c = t[i];
        if (c == '\\' && i + 1 < t.size() && std::ispunct(static_cast<unsigned char>(t[i + 1]))) {
            cur += t[i + 1];
            i += 2;
            continue;
        }
        if (c == '`') {
            size_t ticks = 0;
            while (i + ticks < t.size() && t[i + ticks] == '`') ++ticks;
            std::string fence(ticks, '`');
            size_t end = t.find(fence, i + ticks);
            if (end != std::string_view::npos) {
                flush();
                out.push_back({MdSpan::Kind::Code, trim(t.substr(i + ticks, end - i - ticks))});
                i = end + ticks;
                continue;
            }
        }
        if ((c == '*' || c == '_') && i + 1 < t.size() && t[i + 1] == c) {
            std::string mark(2, c);
            size_t end = t.find(mark, i + 2);
            if (end != std::string_view::npos && end > i + 2) {
                flush();
                out.push_back({MdSpan::Kind::Bold, std::string(t.substr(i + 2, end - i - 2))});
                i = end + 2;
                continue;
            }
        }
        if ((c == '*' || c == '_') && i + 1 < t.size() && !std::isspace(static_cast<unsigned char>(t[i + 1]))) {
            bool wordStart = i == 0 || !std::isalnum(static_cast<unsigned char>(t[i - 1]));
            size_t end = t.find(c, i + 1);
            if (wordStart && end != std::string_view::npos && end > i + 1) {
                flush();
                out.push_back({MdSpan::Kind::Italic, std::string(t.substr(i + 1, end - i - 1))});
                i = end + 1;
                continue;
            }
        }
        cur += c;
        ++i;
    }
    flush();
    return out;
}

bool MdSection::hasAnswer() const {
    for (auto& b : blocks)
        if (b.kind == MdBlock::Kind::Answer) return true;
    return false;
}

MdDocument parseMarkdown(std::string_view text) {
    MdDocument doc;
    std::vector<std::string> lines;
    {
        size_t start = 0;
        while (start <= text.size()) {
            size_t nl = text.find('\n', start);
            std::string_view l = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
            std::string s(l);
            if (!s.empty() && s.back() == '\r') s.pop_back();
            lines.push_back(std::move(s));
            if (nl == std::string_view::npos) break;
            start = nl + 1;
        }
    }
    auto blocks = [&]() -> std::vector<MdBlock>& { return doc.sections.empty() ? doc.intro : doc.sections.back().blocks; };
    auto actions = [&]() -> std::vector<MdActionLine>& { return doc.sections.empty() ? doc.introActions : doc.sections.back().actions; };
    std::string para;          // paragraph or list item text being collected
    MdBlock pending;           // kind/level of what `para` belongs to
    bool collecting = false;
    auto flush = [&] {
        if (collecting) {
            pending.spans = parseInline(para);
            blocks().push_back(pending);
        }
        collecting = false;
        para.clear();
    };

    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string& raw = lines[i];
        std::string t = trim(raw);
        const int lineNo = static_cast<int>(i) + 1;
        if (t.rfind("<!--", 0) == 0) {   // HTML comment: a step's actions, or ignored
            flush();
            std::string body = t.substr(4);
            while (body.find("-->") == std::string::npos && i + 1 < lines.size()) body += ' ' + trim(lines[++i]);
            size_t end = body.find("-->");
            if (end != std::string::npos) body = body.substr(0, end);
            body = trim(body);
            if (body.rfind("do:", 0) == 0) actions().push_back({trim(std::string_view(body).substr(3)), lineNo});
            else if (body.rfind("expect:", 0) == 0 && !doc.sections.empty())
                doc.sections.back().expects.push_back({trim(std::string_view(body).substr(7)), lineNo});
            continue;
        }
        if (t.rfind(">", 0) == 0) {   // block quote (consecutive '>' lines); "> **Answer:** ..." is a hidden answer
            flush();
            MdBlock q;
            q.line = lineNo;
            std::string text;
            for (;; ++i) {
                std::string l = trim(lines[i]);
                l = trim(std::string_view(l).substr(1));
                if (!l.empty()) text += (text.empty() ? "" : " ") + l;
                if (i + 1 >= lines.size() || trim(lines[i + 1]).rfind(">", 0) != 0) break;
            }
            q.kind = text.rfind("**Answer:**", 0) == 0 || text.rfind("**Answer**:", 0) == 0 ? MdBlock::Kind::Answer : MdBlock::Kind::Quote;
            q.spans = parseInline(text);
            blocks().push_back(q);
            continue;
        }
        if (t.rfind("|", 0) == 0 && i + 1 < lines.size() && isTableSeparator(lines[i + 1])) {
            flush();
            MdBlock tb;
            tb.kind = MdBlock::Kind::Table;
            tb.line = lineNo;
            std::vector<std::string> header = tableCells(t);
            auto addRow = [&](const std::vector<std::string>& cells) {
                std::vector<std::vector<MdSpan>> row;
                for (size_t c = 0; c < header.size(); ++c) row.push_back(parseInline(c < cells.size() ? cells[c] : std::string()));
                tb.rows.push_back(std::move(row));
            };
            addRow(header);
            ++i;   // the separator
            while (i + 1 < lines.size() && trim(lines[i + 1]).rfind("|", 0) == 0) addRow(tableCells(lines[++i]));
            blocks().push_back(std::move(tb));
            continue;
        }
        if (t.rfind("```", 0) == 0 || t.rfind("~~~", 0) == 0) {
            flush();
            std::string fence = t.substr(0, 3);
            MdBlock code;
            code.kind = MdBlock::Kind::Code;
            code.line = lineNo;
            std::string body;
            for (++i; i < lines.size(); ++i) {
                if (trim(lines[i]).rfind(fence, 0) == 0) break;
                if (!body.empty()) body += '\n';
                body += lines[i];
            }
            code.code = body;
            blocks().push_back(code);
            continue;
        }
        if (t.empty()) {
            flush();
            continue;
        }
        if (t[0] == '#') {
            size_t level = 0;
            while (level < t.size() && t[level] == '#') ++level;
            if (level < t.size() && t[level] == ' ') {
                flush();
                std::string title = trim(t.substr(level));
                while (!title.empty() && title.back() == '#') title.pop_back();
                title = trim(title);
                if (level == 1 && doc.title.empty() && doc.sections.empty()) {
                    doc.title = title;
                } else if (level == 2) {
                    MdSection sec;
                    sec.title = title;
                    sec.line = lineNo;
                    doc.sections.push_back(std::move(sec));
                } else {
                    MdBlock h;
                    h.kind = MdBlock::Kind::Heading;
                    h.level = static_cast<int>(level);
                    h.line = lineNo;
                    h.spans = parseInline(title);
                    blocks().push_back(h);
                }
                continue;
            }
        }
        if (isRule(raw)) {
            flush();
            MdBlock r;
            r.kind = MdBlock::Kind::Rule;
            blocks().push_back(r);
            continue;
        }
        bool ordered = false;
        int number = 0;
        if (size_t off = listMarker(raw, ordered, number)) {
            flush();
            pending = MdBlock{};
            pending.kind = MdBlock::Kind::ListItem;
            pending.ordered = ordered;
            pending.number = number;
            pending.line = lineNo;
            pending.level = static_cast<int>(indentOf(raw) / 2);
            para = trim(std::string_view(raw).substr(off));
            collecting = true;
            continue;
        }
        if (indentOf(raw) >= 4 && !collecting) {   // indented code block
            MdBlock code;
            code.kind = MdBlock::Kind::Code;
            code.line = lineNo;
            code.code = raw.substr(4);
            while (i + 1 < lines.size() && (indentOf(lines[i + 1]) >= 4 || trim(lines[i + 1]).empty())) {
                if (trim(lines[i + 1]).empty()) {
                    // keep blank lines inside the block only if more code follows
                    size_t k = i + 1;
                    while (k < lines.size() && trim(lines[k]).empty()) ++k;
                    if (k >= lines.size() || indentOf(lines[k]) < 4) break;
                }
                ++i;
                code.code += '\n';
                code.code += lines[i].size() >= 4 ? lines[i].substr(4) : std::string();
            }
            blocks().push_back(code);
            continue;
        }
        if (collecting) {
            para += ' ';
            para += t;
        } else {
            pending = MdBlock{};
            pending.kind = MdBlock::Kind::Paragraph;
            pending.line = lineNo;
            para = t;
            collecting = true;
        }
    }
    flush();
    return doc;
}

} // namespace warpscope::gui
