// Window-free pieces of the app: steps.md parsing, syntax colouring, lane states, settings.
#include "gui/model/markdown.hpp"
#include "gui/model/settings.hpp"
#include "gui/model/snapshot.hpp"
#include "gui/style/syntax.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace warpscope::gui;

TEST_CASE("markdown: headings split the steps; blocks and inline spans", "[text]") {
    const char* md = "# Title\n\nIntro `a` text.\n\n## First\nline one\nline two with **bold** and *it*.\n\n"
                     "- item `x`\n- item two\n  continued\n\n```\ncode  here\n  indented\n```\n\n## Second\n1. one\n2. two\n### Sub\n---\n";
    MdDocument d = parseMarkdown(md);
    CHECK(d.title == "Title");
    REQUIRE(d.intro.size() == 1);
    REQUIRE(d.intro[0].spans.size() == 3);
    CHECK(d.intro[0].spans[1].kind == MdSpan::Kind::Code);
    CHECK(d.intro[0].spans[1].text == "a");
    REQUIRE(d.sections.size() == 2);
    CHECK(d.sections[0].title == "First");
    const auto& b = d.sections[0].blocks;
    REQUIRE(b.size() == 4);
    CHECK(b[0].kind == MdBlock::Kind::Paragraph);
    std::string joined;
    for (auto& s : b[0].spans) joined += s.text;
    CHECK(joined == "line one line two with bold and it.");
    CHECK(b[0].spans[1].kind == MdSpan::Kind::Bold);
    CHECK(b[0].spans[3].kind == MdSpan::Kind::Italic);
    CHECK(b[1].kind == MdBlock::Kind::ListItem);
    CHECK(b[2].kind == MdBlock::Kind::ListItem);
    CHECK(b[2].spans[0].text == "item two continued");
    CHECK(b[3].kind == MdBlock::Kind::Code);
    CHECK(b[3].code == "code  here\n  indented");
    const auto& c = d.sections[1].blocks;
    REQUIRE(c.size() == 4);
    CHECK(c[0].ordered);
    CHECK(c[1].number == 2);
    CHECK(c[2].kind == MdBlock::Kind::Heading);
    CHECK(c[2].level == 3);
    CHECK(c[3].kind == MdBlock::Kind::Rule);
}

TEST_CASE("markdown: every bundled lesson's steps.md has 2 or more steps", "[text]") {
    namespace fs = std::filesystem;
    for (auto& e : fs::directory_iterator(fs::path(WARPSCOPE_SOURCE_DIR) / "lessons")) {
        fs::path p = e.path() / "steps.md";
        if (!fs::exists(p)) continue;
        std::ifstream f(p);
        std::stringstream ss;
        ss << f.rdbuf();
        MdDocument d = parseMarkdown(ss.str());
        INFO(p.string());
        CHECK(d.sections.size() >= 2);
        CHECK_FALSE(d.title.empty());
    }
}

TEST_CASE("syntax: tokens cover the line and classify words", "[text]") {
    bool inBlock = false;
    std::string line = "    int i = blockIdx.x * 32; // index";
    auto toks = highlightLine(line, inBlock);
    REQUIRE_FALSE(toks.empty());
    CHECK(toks.front().begin == 0);
    CHECK(toks.back().end == line.size());
    for (size_t k = 1; k < toks.size(); ++k) CHECK(toks[k].begin == toks[k - 1].end);
    auto kindAt = [&](size_t pos) {
        for (auto& t : toks)
            if (pos >= t.begin && pos < t.end) return t.kind;
        return TokenKind::Plain;
    };
    CHECK(kindAt(line.find("int")) == TokenKind::Type);
    CHECK(kindAt(line.find("blockIdx")) == TokenKind::Builtin);
    CHECK(kindAt(line.find("32")) == TokenKind::Number);
    CHECK(kindAt(line.find("//")) == TokenKind::Comment);
    // block comments carry over lines
    auto t1 = highlightLine("x /* start", inBlock);
    CHECK(inBlock);
    auto t2 = highlightLine("still */ if", inBlock);
    CHECK_FALSE(inBlock);
    CHECK(t2.front().kind == TokenKind::Comment);
    CHECK(t2.back().kind == TokenKind::Keyword);
    bool b2 = false;
    CHECK(highlightLine("#define TILE 16", b2).front().kind == TokenKind::Preprocessor);
}

TEST_CASE("lane states follow masks, barriers and predication", "[text]") {
    LaneMasks m;
    m.valid = 0x00ffffff;   // 24 lanes exist
    m.exited = 0x3;
    m.active = 0x0000fff0;
    auto s = laneStates(m);
    CHECK(s[0] == LaneState::Exited);
    CHECK(s[2] == LaneState::Masked);
    CHECK(s[4] == LaneState::Active);
    CHECK(s[16] == LaneState::Masked);
    CHECK(s[24] == LaneState::None);
    m.hasLast = true;
    m.lastActive = 0x0000fff0;
    m.lastExec = 0x000000f0;
    s = laneStates(m);
    CHECK(s[4] == LaneState::Active);
    CHECK(s[8] == LaneState::Predicated);
    m.lastWasBranch = true;   // a branch's unselected lanes are not "predicated off"
    CHECK(laneStates(m)[8] == LaneState::Active);
    m.atBarrier = true;
    s = laneStates(m);
    CHECK(s[4] == LaneState::AtBarrier);
    CHECK(s[2] == LaneState::AtBarrier);
    CHECK(s[0] == LaneState::Exited);
}

TEST_CASE("settings round-trip and persistence can be disabled", "[text]") {
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / ("warpscope-settings-test-" + std::to_string(::getpid()));
    Settings s;
    s.uiScale = 1.5f;
    s.darkTheme = false;
    s.registerFormat = 2;
    s.lastLesson = "divergence";
    s.panelsOpen["grid"] = false;
    REQUIRE(saveSettings(s, dir / "settings.json"));
    Settings r = loadSettings(dir / "settings.json");
    CHECK(r.uiScale == Approx(1.5f));
    CHECK_FALSE(r.darkTheme);
    CHECK(r.registerFormat == 2);
    CHECK(r.lastLesson == "divergence");
    CHECK(r.panelsOpen.at("grid") == false);
    fs::remove_all(dir);
    // WARPSCOPE_NO_SETTINGS is set for this test by CTest
    if (std::getenv("WARPSCOPE_NO_SETTINGS")) CHECK(configDir().empty());
    // a missing or damaged file gives defaults
    CHECK(loadSettings(dir / "nope.json").uiScale == Approx(1.0f));
}

TEST_CASE("registers: integers in decimal and floats as numbers by default, hex on request", "[text]") {
    Settings fresh;
    CHECK(fresh.registerFormat == kRegByType);
    CHECK(formatRegister(992, "b32", fresh.registerFormat) == "992");          // i = 31 * 32 as a beginner reads it
    CHECK(formatRegister(0xffffffffu, "s32", kRegByType) == "-1");
    CHECK(formatRegister(0xffffffffu, "u32", kRegByType) == "4294967295");
    CHECK(formatRegister(0x3fc00000u, "f32", kRegByType) == "1.5");
    CHECK(formatRegister(992, "b32", kRegHex) == "000003e0");
    CHECK(formatRegister(0x3fc00000u, "b32", kRegFloat) == "1.5");
    CHECK(formatRegister(40, "b64", kRegByType) == "40");
}
