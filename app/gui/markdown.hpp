// A small reader for the Markdown that lessons' steps.md files use: headings, paragraphs,
// bullet and numbered lists, fenced code, and inline `code`, **bold** and *emphasis*.
// A lesson "step" is a `##` section.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::gui {

struct MdSpan {
    enum class Kind { Text, Code, Bold, Italic };
    Kind kind = Kind::Text;
    std::string text;
};

struct MdBlock {
    enum class Kind { Heading, Paragraph, ListItem, Code, Rule };
    Kind kind = Kind::Paragraph;
    int level = 0;              // heading level, or list nesting
    bool ordered = false;       // numbered list item
    int number = 0;             // its number
    std::vector<MdSpan> spans;  // heading, paragraph, list item
    std::string code;           // code block text (lines joined with '\n')
};

struct MdSection {
    std::string title;          // the `##` heading text
    std::vector<MdBlock> blocks;
};

struct MdDocument {
    std::string title;                 // the `#` heading, if any
    std::vector<MdBlock> intro;        // blocks before the first `##`
    std::vector<MdSection> sections;   // the lesson's steps
};

std::vector<MdSpan> parseInline(std::string_view text);
MdDocument parseMarkdown(std::string_view text);

} // namespace warpscope::gui
