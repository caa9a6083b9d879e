// Lesson text features: step actions (parse, validate, apply through the Session), hidden answers,
// tables, and a check of every bundled lesson's steps.md.
#include "gui/model/markdown.hpp"
#include "gui/model/session.hpp"
#include "gui/model/step_actions.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <set>
#include <fstream>
#include <sstream>

using namespace warpscope;
using namespace warpscope::gui;
namespace fs = std::filesystem;

namespace {
std::string readFile(const fs::path& p) {
    std::ifstream f(p);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}
std::string joined(const std::vector<MdSpan>& spans) {
    std::string s;
    for (auto& sp : spans) s += sp.text;
    return s;
}
} // namespace

TEST_CASE("step actions: every statement kind parses", "[actions]") {
    std::vector<std::string> errors;
    auto a = parseStepActions(" param N=1024 BLOCK=64 ; defaults; restart; select block 3 warp 1; run-to line 12; run-to barrier;"
                              "run-to end; steps 40; show line 7; layout memory; open occupancy; timed h100; timed off;",
                              9, errors);
    CHECK(errors.empty());
    REQUIRE(a.size() == 13);
    CHECK(a[0].kind == StepAction::Kind::Param);
    REQUIRE(a[0].params.size() == 2);
    CHECK(a[0].params[0] == std::make_pair(std::string("N"), 1024.0));
    CHECK(a[0].params[1] == std::make_pair(std::string("BLOCK"), 64.0));
    CHECK(a[0].mdLine == 9);
    CHECK(a[0].text == "param N=1024 BLOCK=64");
    CHECK(a[1].kind == StepAction::Kind::Defaults);
    CHECK(a[2].kind == StepAction::Kind::Restart);
    CHECK(a[3].kind == StepAction::Kind::Select);
    CHECK(a[3].block == 3);
    CHECK(a[3].warp == 1);
    CHECK(a[4].kind == StepAction::Kind::RunToLine);
    CHECK(a[4].line == 12);
    CHECK(a[5].kind == StepAction::Kind::RunToBarrier);
    CHECK(a[6].kind == StepAction::Kind::RunToEnd);
    CHECK(a[7].kind == StepAction::Kind::Steps);
    CHECK(a[7].count == 40);
    CHECK(a[8].kind == StepAction::Kind::ShowLine);
    CHECK(a[8].line == 7);
    CHECK(a[9].kind == StepAction::Kind::Layout);
    CHECK(a[9].name == "memory");
    CHECK(a[10].kind == StepAction::Kind::Open);
    CHECK(a[11].kind == StepAction::Kind::Timed);
    CHECK(a[11].name == "h100");
    CHECK(a[12].name == "off");
    CHECK(describeAction(a[0]) == "set N=1024, BLOCK=64");
    CHECK(describeAction(a[4]) == "run to line 12");
    CHECK(describeAction(a[3]) == "select warp 1 of block 3");
    std::vector<std::string> perr;
    auto p = parseStepActions("pin global line 7 load; pin shared line 16; pin local line 3; pin global line 7 both", 2, perr);
    REQUIRE(p.size() == 2);
    CHECK(p[0].kind == StepAction::Kind::Pin);
    CHECK(p[0].name == "global");
    CHECK(p[0].line == 7);
    CHECK(p[0].access == 1);
    CHECK(p[1].access == 0);
    CHECK(describeAction(p[0]) == "show the load on line 7 in Global access");
    CHECK(perr.size() == 2);
}

TEST_CASE("step actions: syntax errors name the line and the statement", "[actions]") {
    std::vector<std::string> errors;
    auto a = parseStepActions("jump 3; param N; select block x warp 0; select block 0 warp 32; run-to line 0; steps 0; layout; param OK=1", 4, errors);
    REQUIRE(a.size() == 1);   // only the last one
    CHECK(a[0].params[0].first == "OK");
    REQUIRE(errors.size() == 7);
    CHECK(errors[0] == "line 4: unknown action 'jump' (known: param, defaults, restart, select, run-to, steps, show, layout, open, timed, pin, check)");
    CHECK(errors[1].find("line 4: 'param N': expected NAME=VALUE") == 0);
    CHECK(errors[2].find("expected select block B warp W") != std::string::npos);
    CHECK(errors[3].find("W from 0 to 31") != std::string::npos);
    CHECK(errors[4].find("run-to line L") != std::string::npos);
    CHECK(errors[5].find("steps N") != std::string::npos);
    CHECK(errors[6].find("expected layout NAME") != std::string::npos);
}

TEST_CASE("step actions: check turns the checkers on or off", "[actions]") {
    std::vector<std::string> errors;
    auto a = parseStepActions("check racecheck; check initcheck racecheck; check off; check; check off racecheck; check memcheck", 9, errors);
    REQUIRE(a.size() == 3);
    CHECK((a[0].racecheck && !a[0].initcheck));
    CHECK((a[1].racecheck && a[1].initcheck));
    CHECK((!a[2].racecheck && !a[2].initcheck));
    CHECK(describeAction(a[0]) == "racecheck on");
    CHECK(describeAction(a[2]) == "checkers off");
    REQUIRE(errors.size() == 3);
    for (auto& e : errors) CHECK(e.find("expected check racecheck|initcheck") != std::string::npos);
}

TEST_CASE("step actions: validation against the lesson", "[actions]") {
    runtime::Lesson L = runtime::loadLesson(fs::path(WARPSCOPE_SOURCE_DIR) / "lessons/vector-add");
    ActionContext ctx = actionContextFor(L);
    CHECK(ctx.sourceLineCount == 12);
    CHECK(ctx.codeLines.count(10));   // c[i] = a[i] + b[i]
    CHECK_FALSE(ctx.codeLines.count(7));   // a comment
    CHECK(ctx.presets.count("h100"));
    std::vector<std::string> errors;
    auto a = parseStepActions("param NN=3; param BLOCK=100; param N=0; param N=2.5; run-to line 40; run-to line 7; show line 7;"
                              "layout fancy; open nothing; timed z80; param BLOCK=64 N=1000; run-to line 10; timed teaching",
                              20, errors);
    REQUIRE(errors.empty());
    auto v = validateStepActions(a, ctx);
    REQUIRE(v.size() == 9);
    CHECK(v[0] == "line 20: 'param NN=3': unknown parameter 'NN' (the lesson has BLOCK, N)");
    CHECK(v[1].find("BLOCK=100 is not one of the allowed choices (32, 64, 128, 256, 512, 1024)") != std::string::npos);
    CHECK(v[2].find("N=0 is outside 1..16777216") != std::string::npos);
    CHECK(v[3].find("N takes whole numbers, got 2.5") != std::string::npos);
    CHECK(v[4].find("line 40 is out of range (kernel.cu has 12 lines)") != std::string::npos);
    CHECK(v[5].find("no instruction comes from line 7") != std::string::npos);
    CHECK(v[6].find("unknown layout 'fancy' (known: stepping, memory, compare, checks, timing, streams, tensor, async, presenter)") != std::string::npos);
    CHECK(v[7].find("unknown panel 'nothing'") != std::string::npos);
    CHECK(v[8].find("unknown GPU preset 'z80'") != std::string::npos);
}

TEST_CASE("step actions: checkSteps reports file and line; the do: comment is not text", "[actions]") {
    runtime::Lesson L = runtime::loadLesson(fs::path(WARPSCOPE_SOURCE_DIR) / "lessons/vector-add");
    const char* md = "# T\n<!-- do: restart -->\n\n## One\nText.\n<!-- do: param N=64;\n   run-to line 10 -->\nMore.\n\n"
                     "## Two\n<!-- a plain comment -->\n<!-- do: run-to line 99; frobnicate -->\n";
    MdDocument d = parseMarkdown(md);
    REQUIRE(d.sections.size() == 2);
    REQUIRE(d.sections[0].blocks.size() == 2);   // "Text." and "More.": the comment is neither
    CHECK(joined(d.sections[0].blocks[0].spans) == "Text.");
    REQUIRE(d.sections[0].actions.size() == 1);
    CHECK(d.sections[0].actions[0].line == 6);
    CHECK(d.sections[1].blocks.empty());
    StepsCheck c = checkSteps(d, actionContextFor(L), "lessons/x/steps.md");
    REQUIRE(c.actions.size() == 2);
    CHECK(c.actions[0].size() == 2);
    REQUIRE(c.errors.size() == 3);
    CHECK(c.errors[0] == "lessons/x/steps.md:2: a 'do:' comment before the first step (## heading) belongs to no step");
    CHECK(c.errors[1].find("lessons/x/steps.md:12: unknown action 'frobnicate'") == 0);
    CHECK(c.errors[2].find("lessons/x/steps.md:12: 'run-to line 99': line 99 is out of range") == 0);
}

TEST_CASE("markdown: hidden answers, quotes and tables", "[actions]") {
    const char* md = "## S\n**Predict:** how many?\n\n> **Answer:** 32, because\n> every lane has a sector.\n\n> just a quote\n\n"
                     "| a | `b|c` |\n| --- | ---: |\n| 1 | **2** |\n| 3 |\nafter\n";
    MdDocument d = parseMarkdown(md);
    REQUIRE(d.sections.size() == 1);
    const auto& b = d.sections[0].blocks;
    REQUIRE(b.size() == 5);
    CHECK(b[0].kind == MdBlock::Kind::Paragraph);
    CHECK(b[1].kind == MdBlock::Kind::Answer);
    CHECK(joined(b[1].spans) == "Answer: 32, because every lane has a sector.");
    CHECK(b[1].line == 4);
    CHECK(b[2].kind == MdBlock::Kind::Quote);
    REQUIRE(b[3].kind == MdBlock::Kind::Table);
    REQUIRE(b[3].rows.size() == 3);
    CHECK(joined(b[3].rows[0][1]) == "b|c");
    CHECK(b[3].rows[1][1][0].kind == MdSpan::Kind::Bold);
    CHECK(b[3].rows[2].size() == 2);   // short rows are padded to the header's width
    CHECK(joined(b[3].rows[2][1]).empty());
    CHECK(joined(b[4].spans) == "after");
    CHECK(d.sections[0].hasAnswer());
}

TEST_CASE("hidden answers: revealed by a run after the step appeared, by Do it, or by Reveal", "[actions]") {
    AnswerGate g;
    CHECK_FALSE(updateAnswerGate(g, {1, 10, false}, false));   // busy: no baseline yet
    CHECK_FALSE(updateAnswerGate(g, {1, 10, false}, true));    // baseline 10
    CHECK_FALSE(updateAnswerGate(g, {1, 10, false}, true));
    CHECK_FALSE(updateAnswerGate(g, {2, 0, false}, true));     // restarted (a parameter changed), not run yet
    CHECK(updateAnswerGate(g, {2, 3, false}, true));           // stepped after the restart
    CHECK(updateAnswerGate(g, {3, 0, false}, true));           // stays revealed

    AnswerGate same;
    updateAnswerGate(same, {1, 10, false}, true);
    CHECK(updateAnswerGate(same, {1, 11, false}, true));       // one step in the same run

    AnswerGate done;
    updateAnswerGate(done, {4, 0, false}, true);
    done.actionsPending = true;                                // Do it pressed
    CHECK_FALSE(updateAnswerGate(done, {4, 0, false}, false)); // still running
    CHECK(updateAnswerGate(done, {5, 100, true}, true));

    AnswerGate reveal;
    reveal.revealed = true;
    CHECK(updateAnswerGate(reveal, {0, 0, false}, false));
}

TEST_CASE("every lesson's steps.md: actions valid, 4 to 8 steps, actions on every step, a Predict with its hidden answer, a Recap", "[actions]") {
    int lessons = 0, courseLessons = 0;
    for (auto& e : fs::directory_iterator(fs::path(WARPSCOPE_SOURCE_DIR) / "lessons")) {
        fs::path steps = e.path() / "steps.md";
        if (!fs::exists(e.path() / "lesson.json") || !fs::exists(steps)) continue;
        ++lessons;
        runtime::Lesson L = runtime::loadLesson(e.path());
        MdDocument d = parseMarkdown(readFile(steps));
        std::string rel = "lessons/" + e.path().filename().string() + "/steps.md";
        StepsCheck c = checkSteps(d, actionContextFor(L), rel);
        INFO(rel);
        for (auto& err : c.errors) FAIL_CHECK(err);
        // The content conventions below hold for the course lessons written with step actions.
        static const std::set<std::string> course = {"vector-add", "divergence", "coalescing", "stencil-1d", "matmul",
                                                     "bank-conflicts", "reduction", "occupancy-and-latency", "streams-overlap"};
        if (!course.count(e.path().filename().string())) continue;
        ++courseLessons;
        size_t total = 0;
        for (auto& a : c.actions) total += a.size();
        CHECK(total >= 2);
        // Every step before the Recap can select what it talks about in the app.
        for (size_t k = 0; k + 1 < c.actions.size() && k < d.sections.size(); ++k) {
            INFO("step " << k + 1 << ": " << d.sections[k].title);
            CHECK_FALSE(c.actions[k].empty());
        }
        // 4 to 8 steps (## sections), the Recap included (docs/authoring.md).
        CHECK(d.sections.size() >= 4);
        CHECK(d.sections.size() <= 8);
        // A hidden answer belongs to a question asked earlier in the same step; no bare "**Answer:**" paragraphs remain.
        int answeredPredictions = 0;
        for (auto& sec : d.sections) {
            bool predicted = false, answered = false;
            for (auto& b : sec.blocks) {
                std::string t = joined(b.spans);
                if (b.kind == MdBlock::Kind::Paragraph && t.rfind("Predict:", 0) == 0) predicted = true;
                if (b.kind == MdBlock::Kind::Answer) {
                    CHECK(predicted);
                    answered = answered || predicted;
                }
                if (b.kind == MdBlock::Kind::Paragraph) CHECK(t.rfind("Answer:", 0) != 0);
            }
            answeredPredictions += answered;
        }
        // At least one "Predict, then run" question whose answer stays hidden until the run.
        CHECK(answeredPredictions >= 1);
        // The last step is a short Recap: bullet points, no actions of its own.
        REQUIRE_FALSE(d.sections.empty());
        const MdSection& last = d.sections.back();
        CHECK(last.title == "Recap");
        CHECK_FALSE(last.blocks.empty());
        CHECK(c.actions.back().empty());
    }
    CHECK(lessons >= 8);
    CHECK(courseLessons == 9);
}

TEST_CASE("session: run to line stops the selected warp on that line, across launches", "[actions]") {
    Session s;
    runtime::Lesson L = runtime::loadLesson(fs::path(WARPSCOPE_SOURCE_DIR) / "lessons/divergence");
    s.load(L, runtime::resolveParams(L, {}));
    REQUIRE(s.waitIdle(60));
    s.select(0, 1, false);
    s.runToLine(20);   // out[i] = v, in diverge (launch 1)
    REQUIRE(s.waitIdle(60));
    auto snap = s.snapshot();
    REQUIRE(snap->selected);
    CHECK(snap->selBlock == 0);
    CHECK(snap->selWarp == 1);
    REQUIRE(snap->selected->warp.pc >= 0);
    CHECK(snap->program->code[static_cast<size_t>(snap->selected->warp.pc)].line == 20);
    CHECK(snap->launchIndex == 0);
    uint64_t at = snap->totalSteps;
    CHECK(at > 0);
    // A line of a later kernel: the loop body of collatz (launch 3), past the whole of uniform.
    s.runToLine(54);
    REQUIRE(s.waitIdle(60));
    snap = s.snapshot();
    CHECK(snap->launchIndex == 2);
    REQUIRE(snap->selected);
    CHECK(snap->program->code[static_cast<size_t>(snap->selected->warp.pc)].line == 54);
    CHECK(snap->totalSteps > at);
    // Already there: it leaves the line and comes back (the loop's next iteration).
    at = snap->totalSteps;
    s.runToLine(54);
    REQUIRE(s.waitIdle(60));
    snap = s.snapshot();
    CHECK(snap->launchIndex == 2);
    CHECK(snap->program->code[static_cast<size_t>(snap->selected->warp.pc)].line == 54);
    CHECK(snap->totalSteps > at);

    // The reduction's second kernel: line 31 is in reduce_strided, launch 2.
    runtime::Lesson R = runtime::loadLesson(fs::path(WARPSCOPE_SOURCE_DIR) / "lessons/reduction");
    s.load(R, runtime::resolveParams(R, {{"BLOCKS", "2"}}));
    REQUIRE(s.waitIdle(60));
    s.select(0, 0, false);
    s.runToLine(31);
    REQUIRE(s.waitIdle(60));
    snap = s.snapshot();
    INFO(runStateName(snap->state) << ": " << snap->statusText);
    CHECK(snap->launchIndex == 1);
    REQUIRE(snap->selected);
    CHECK(snap->program->code[static_cast<size_t>(snap->selected->warp.pc)].line == 31);
}

TEST_CASE("turning the page: Next does it, except forward onto an unanswered prediction", "[step-actions][pager]") {
    // 0: plain step, 1: asks a prediction, 2: plain step without actions, 3: plain step.
    std::vector<PagerStep> steps(4);
    for (auto& s : steps) s.hasActions = true;
    steps[1].asksPrediction = true;
    steps[2].hasActions = false;

    PageTurn t = turnPage(steps, 0, +1, true);
    CHECK_FALSE(t.doHere);
    CHECK(t.to == 1);
    CHECK_FALSE(t.doTo);   // the class predicts first

    t = turnPage(steps, 1, +1, true);   // a clicker's next Page Down: do the step, stay
    CHECK(t.doHere);
    CHECK(t.to == 1);

    steps[1].actionsPending = true;     // ... while its run is going, or after it revealed the answer
    t = turnPage(steps, 1, +1, true);
    CHECK_FALSE(t.doHere);
    CHECK(t.to == 2);
    CHECK_FALSE(t.doTo);                // nothing to do there

    t = turnPage(steps, 2, +1, true);
    CHECK(t.to == 3);
    CHECK(t.doTo);

    t = turnPage(steps, 3, +1, true);   // the last page stays
    CHECK(t.to == 3);
    CHECK_FALSE(t.doTo);
    CHECK_FALSE(t.doHere);

    steps[1] = PagerStep{true, false, false, true};   // back onto a prediction: it lands
    t = turnPage(steps, 2, -1, true);
    CHECK(t.to == 1);
    CHECK(t.doTo);

    t = turnPage(steps, 0, +1, false);   // Next does it off: pages only
    CHECK(t.to == 1);
    CHECK_FALSE(t.doTo);
    t = turnPage(steps, 1, +1, false);
    CHECK_FALSE(t.doHere);
    CHECK(t.to == 2);

    steps[1].revealed = true;            // answered (Reveal or a run): forward onto it does it
    t = turnPage(steps, 0, +1, true);
    CHECK(t.doTo);

    CHECK(turnPage({}, 0, +1, true).to == 0);   // no steps
    CHECK(turnPage(steps, 9, -1, true).to == 2);   // a stale index is clamped first
}
