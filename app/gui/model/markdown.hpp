// A small reader for the Markdown that lessons' steps.md files use: headings, paragraphs,
// bullet and numbered lists, fenced code, tables, block quotes, and inline `code`, **bold** and
// *emphasis*. A lesson "step" is a `##` section. Two lesson conventions (docs/authoring.md):
// - a block quote that starts with **Answer:** is a hidden answer (MdBlock::Kind::Answer), shown
//   collapsed until the student has run the step or presses Reveal;
// - an HTML comment `<!-- do: action; action -->` lists the step's actions (step_actions.hpp);
//   `<!-- expect: ... -->` what the model shows after them (checked by tests/app);
//   other HTML comments are ignored.
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
    enum class Kind { Heading, Paragraph, ListItem, Code, Rule, Quote, Answer, Table };
    Kind kind = Kind::Paragraph;
    int level = 0;              // heading level, or list nesting
    bool ordered = false;       // numbered list item
    int number = 0;             // its number
    std::vector<MdSpan> spans;  // heading, paragraph, list item
    std::string code;           // code block text (lines joined with '\n')
    // Table: the header row first; every row has the header's number of cells.
    std::vector<std::vector<std::vector<MdSpan>>> rows;
    int line = 0;               // 1-based line in the text where the block starts
};

// The body of one `<!-- do: ... -->` comment and the line it is on.
struct MdActionLine {
    std::string text;
    int line = 0;
};

struct MdSection {
    std::string title;          // the `##` heading text
    std::vector<MdBlock> blocks;
    std::vector<MdActionLine> actions;   // in order of appearance
    std::vector<MdActionLine> expects;   // `<!-- expect: ... -->`: what Do it must land on (tests check it)
    int line = 0;                        // line of the `##` heading
    bool hasAnswer() const;              // any hidden answer block
};

struct MdDocument {
    std::string title;                 // the `#` heading, if any
    std::vector<MdBlock> intro;        // blocks before the first `##`
    std::vector<MdSection> sections;   // the lesson's steps
    std::vector<MdActionLine> introActions;   // `do:` comments before the first `##` (not allowed in lessons)
};

std::vector<MdSpan> parseInline(std::string_view text);
MdDocument parseMarkdown(std::string_view text);

} // namespace warpscope::gui
