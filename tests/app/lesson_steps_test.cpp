// Every lesson step's "Do it" lands where its text says: the actions run through a Session (the
// app's model, no window), and the state the step's `expect:` comment states (the selected warp's
// line, its active lanes, the sectors or bank ways the memory panels show, a finished run) is what
// the snapshot holds. Each step is done in order, then again from the end backwards (its target is
// behind the machine: Do it must replay, not run past or do nothing).
#include "gui/model/markdown.hpp"
#include "gui/model/memory_model.hpp"
#include "gui/model/session.hpp"
#include "gui/model/step_actions.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <set>

using namespace warpscope;
using namespace warpscope::gui;
namespace fs = std::filesystem;

namespace {
std::string readText(const fs::path& p) {
    std::ifstream f(p);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

bool moves(const std::vector<StepAction>& acts) {
    for (auto& a : acts)
        if (a.kind == StepAction::Kind::RunToLine || a.kind == StepAction::Kind::RunToBarrier || a.kind == StepAction::Kind::RunToEnd ||
            a.kind == StepAction::Kind::Steps)
            return true;
    return false;
}

// What the model shows, for the failure message.
std::string shown(const Snapshot& s) {
    std::ostringstream os;
    os << runStateName(s.state) << ", launch " << s.launchIndex << ", block " << s.selBlock << " warp " << s.selWarp;
    if (s.selected) os << ", line " << s.selected->warp.line << ", " << std::popcount(s.selected->warp.masks.active) << " active";
    os << "; " << s.statusText;
    return os.str();
}

void doStep(Session& ses, SessionActionTarget& t, const std::vector<StepAction>& acts, const std::vector<StepExpect>& exps,
            const std::string& where) {
    applyStepActions(acts, t);
    REQUIRE(ses.waitIdle(120));
    auto snap = ses.snapshot();
    if (std::getenv("WARPSCOPE_SHOW_STEPS")) {   // authoring aid: what each step lands on
        std::printf("%s -> %s", where.c_str(), shown(*snap).c_str());
        const MemAccess* g = t.globalPin.line ? pinnedAccess(snap->memHistory, false, t.globalPin) : pickAccess(snap->memHistory, false, 0);
        const MemAccess* sh = t.sharedPin.line ? pinnedAccess(snap->memHistory, true, t.sharedPin) : pickAccess(snap->memHistory, true, 0);
        if (g) std::printf(" | global line %u %s: %u sectors", g->line, g->isLoad ? "load" : "store", buildGlobalDiagram(*g).sectorCount);
        if (sh) {
            uint32_t ways = 0;
            for (auto& ph : buildSharedDiagram(*sh).phases) ways = std::max(ways, ph.ways);
            std::printf(" | shared line %u %s: %u-way", sh->line, sh->isLoad ? "load" : "store", ways);
        }
        std::printf("\n");
    }
    INFO(where << " -> " << shown(*snap));
    for (auto& p : landingProblems(acts, *snap)) FAIL_CHECK(p);
    for (auto& p : unmetExpectations(exps, *snap, t.globalPin, t.sharedPin)) FAIL_CHECK(p);
}

// A lesson loaded into a Session, with the target step actions are applied through.
struct LessonRun {
    runtime::Lesson lesson;
    Session ses;
    SessionActionTarget t{ses, lesson};
    explicit LessonRun(const std::string& id) : lesson(runtime::loadLesson(fs::path(WARPSCOPE_SOURCE_DIR) / "lessons" / id)) {
        ses.load(lesson, t.params);
        REQUIRE(ses.waitIdle(60));
    }
    std::vector<StepAction> apply(const char* actions) {
        std::vector<std::string> errs;
        auto acts = parseStepActions(actions, 1, errs);
        REQUIRE(errs.empty());
        applyStepActions(acts, t);
        REQUIRE(ses.waitIdle(60));
        return acts;
    }
};
} // namespace

namespace {
// Every lesson folder with its text: the lesson, its steps and their checked actions.
struct LessonSteps {
    std::string id;
    runtime::Lesson lesson;
    MdDocument doc;
    StepsCheck check;
};
std::vector<LessonSteps> lessonsWithSteps() {
    std::vector<LessonSteps> out;
    for (auto& e : fs::directory_iterator(fs::path(WARPSCOPE_SOURCE_DIR) / "lessons")) {
        fs::path steps = e.path() / "steps.md";
        if (!fs::exists(e.path() / "lesson.json") || !fs::exists(steps)) continue;
        LessonSteps l{e.path().filename().string(), runtime::loadLesson(e.path()), parseMarkdown(readText(steps)), {}};
        l.check = checkSteps(l.doc, actionContextFor(l.lesson), l.id + "/steps.md");
        out.push_back(std::move(l));
    }
    return out;
}
} // namespace

TEST_CASE("every lesson step: Do it lands on the state its text describes, forwards and backwards", "[lesson-steps]") {
    int checkedSteps = 0;
    for (const LessonSteps& ls : lessonsWithSteps()) {
        const std::string& id = ls.id;
        const runtime::Lesson& L = ls.lesson;
        const MdDocument& d = ls.doc;
        const StepsCheck& c = ls.check;
        for (auto& err : c.errors) FAIL_CHECK(err);
        Session ses;
        SessionActionTarget t(ses, L);
        ses.load(L, t.params);
        REQUIRE(ses.waitIdle(60));
        std::vector<size_t> order;
        for (size_t k = 0; k < c.actions.size(); ++k) order.push_back(k);
        for (size_t k = c.actions.size(); k-- > 0;) order.push_back(k);
        for (size_t k : order) {
            const std::string where = id + " step " + std::to_string(k + 1) + " (" + d.sections[k].title + ")";
            if (c.actions[k].empty()) continue;
            // A step that moves the machine says where it lands.
            if (moves(c.actions[k])) {
                INFO(where);
                CHECK_FALSE(c.expects[k].empty());
            }
            doStep(ses, t, c.actions[k], c.expects[k], where);
            ++checkedSteps;
        }
    }
    CHECK(checkedSteps >= 2 * 35);
}

namespace {
// What a step's Do it leaves: the parameters, Timed mode, pins, the layout and the panel a step
// opened (the Presenter slot), the selected warp and where it is. Going back to a step must leave
// the same as going forward to it: each step states the whole state it needs.
struct RecordingTarget : SessionActionTarget {
    using SessionActionTarget::SessionActionTarget;
    std::string layout = "(start)", panel = "(none)";
    void ui(const StepAction& a) override {
        // As Presenter shows it: a layout puts its key panel in the slot, a later `open` its panel.
        if (a.kind == StepAction::Kind::Layout) {
            layout = a.name;
            panel = "key panel of " + a.name;
        }
        if (a.kind == StepAction::Kind::Open) panel = a.name;
    }
};
std::string landing(const RecordingTarget& t, const Snapshot& s) {
    std::ostringstream os;
    for (auto& [k, v] : t.params) os << k << "=" << v << " ";
    os << "| timed " << (t.timedPreset.empty() ? "off" : t.timedPreset) << " | pins " << t.globalPin.line << "/" << t.globalPin.access << " "
       << t.sharedPin.line << "/" << t.sharedPin.access << " | layout " << t.layout << " | panel " << t.panel << " | launch " << s.launchIndex
       << " block " << s.selBlock << " warp " << s.selWarp;
    if (s.selected) os << " line " << s.selected->warp.line << " active " << std::popcount(s.selected->warp.masks.active);
    os << " | " << runStateName(s.state);
    return os.str();
}
} // namespace

TEST_CASE("every lesson: back to a step lands on the same state as forward to it", "[lesson-steps]") {
    int compared = 0;
    for (const LessonSteps& ls : lessonsWithSteps()) {
        const std::string& id = ls.id;
        const runtime::Lesson& L = ls.lesson;
        const MdDocument& d = ls.doc;
        const StepsCheck& c = ls.check;
        Session ses;
        RecordingTarget t(ses, L);
        ses.load(L, t.params);
        REQUIRE(ses.waitIdle(60));
        std::vector<std::string> forward(c.actions.size());
        for (size_t k = 0; k < c.actions.size(); ++k) {
            if (c.actions[k].empty()) continue;
            applyStepActions(c.actions[k], t);
            REQUIRE(ses.waitIdle(120));
            forward[k] = landing(t, *ses.snapshot());
        }
        for (size_t k = c.actions.size(); k-- > 0;) {
            if (c.actions[k].empty()) continue;
            applyStepActions(c.actions[k], t);
            REQUIRE(ses.waitIdle(120));
            INFO(id << " step " << k + 1 << " (" << d.sections[k].title << ")");
            CHECK(landing(t, *ses.snapshot()) == forward[k]);
            ++compared;
        }
    }
    CHECK(compared >= 35);
}

TEST_CASE("Do it after a run to the end, and after stepping past the target, lands on the target", "[lesson-steps]") {
    LessonRun run("vector-add");
    Session& ses = run.ses;
    SessionActionTarget& t = run.t;
    std::vector<std::string> errs;
    auto acts = parseStepActions("select block 0 warp 0; run-to line 9", 1, errs);
    REQUIRE(errs.empty());
    // Past the target: the warp is on line 10 already.
    ses.select(0, 0, false);
    ses.runToLine(10);
    REQUIRE(ses.waitIdle(60));
    REQUIRE(ses.snapshot()->selected);
    REQUIRE(ses.snapshot()->selected->warp.line == 10);
    applyStepActions(acts, t);
    REQUIRE(ses.waitIdle(60));
    auto snap = ses.snapshot();
    REQUIRE(snap->selected);
    CHECK(snap->selected->warp.line == 9);
    CHECK(landingProblems(acts, *snap).empty());
    // After the whole program ran to its end.
    ses.runSteps(1u << 30);
    REQUIRE(ses.waitIdle(60));
    REQUIRE(ses.snapshot()->state == RunState::Finished);
    applyStepActions(acts, t);
    REQUIRE(ses.waitIdle(60));
    snap = ses.snapshot();
    REQUIRE(snap->selected);
    CHECK(snap->selected->warp.line == 9);
    CHECK(snap->launchIndex == 0);
}

TEST_CASE("an action that cannot be done says so", "[lesson-steps]") {
    LessonRun run("vector-add");
    Session& ses = run.ses;
    SessionActionTarget& t = run.t;
    // A block that does not exist: N = 1000 in blocks of 256 is a grid of 4 blocks.
    auto acts = run.apply("select block 99 warp 0; run-to line 9");
    std::vector<std::string> errs;
    auto probs = landingProblems(acts, *ses.snapshot());
    REQUIRE(probs.size() == 2);
    CHECK(probs[0].find("the grid has only") != std::string::npos);
    CHECK(probs[1].find("never got there") != std::string::npos);
    // An expectation the model does not meet is reported with what it shows instead.
    auto exps = parseStepExpects("line 12; sectors 4", 3, errs);
    REQUIRE(errs.empty());
    auto unmet = unmetExpectations(exps, *ses.snapshot(), t.globalPin, t.sharedPin);
    CHECK(unmet.size() == 2);
    // Bad expect syntax is an error with its line.
    parseStepExpects("lanes 8", 5, errs);
    REQUIRE(errs.size() == 1);
    CHECK(errs[0].find("line 5:") == 0);
}

TEST_CASE("pin: the memory panel shows the access on the pinned line, not the newest", "[lesson-steps]") {
    LessonRun run("coalescing");
    Session& ses = run.ses;
    SessionActionTarget& t = run.t;
    auto acts = run.apply("param OFFSET=1; select block 0 warp 0; run-to line 8; pin global line 7 load");
    CHECK(validateStepActions(acts, actionContextFor(run.lesson)).empty());
    std::vector<std::string> errs;
    auto snap = ses.snapshot();
    const MemAccess* newest = pickAccess(snap->memHistory, false, 0);
    const MemAccess* pinned = pinnedAccess(snap->memHistory, false, t.globalPin);
    REQUIRE(newest);
    REQUIRE(pinned);
    CHECK(newest->isStore);   // the store ran after the load
    CHECK(pinned->isLoad);
    CHECK(pinned->line == 7);
    // The misaligned load touches 5 sectors; the aligned store 4.
    CHECK(buildGlobalDiagram(*pinned).sectorCount == 5);
    CHECK(buildGlobalDiagram(*newest).sectorCount == 4);
    // A pin on a line with no shared access is a validation error.
    auto bad = parseStepActions("pin shared line 7", 2, errs);
    REQUIRE(errs.empty());
    CHECK(validateStepActions(bad, actionContextFor(run.lesson)).size() == 1);
}

TEST_CASE("step line goes by source statement: no line is revisited unless the code loops", "[lesson-steps]") {
    auto linesVisited = [](const char* lesson, int presses) {
        runtime::Lesson L = runtime::loadLesson(fs::path(WARPSCOPE_SOURCE_DIR) / "lessons" / lesson);
        Session ses;
        ses.load(L, runtime::resolveParams(L, {}));
        REQUIRE(ses.waitIdle(60));
        ses.select(0, 0, false);
        std::vector<uint32_t> seen;
        for (int k = 0; k < presses; ++k) {
            ses.stepLine();
            REQUIRE(ses.waitIdle(60));
            auto s = ses.snapshot();
            if (!s->selected || s->selected->warp.masks.done || s->launchIndex != 0) break;
            seen.push_back(s->selected->warp.line);
        }
        return seen;
    };
    // vector-add: the PTX interleaves lines 9, 5 and 10; stepping shows each line once, in order.
    std::vector<uint32_t> v = linesVisited("vector-add", 20);
    INFO("vector-add lines: " << Catch::Detail::stringify(v));
    REQUIRE(v.size() >= 3);
    for (size_t k = 1; k < v.size(); ++k) CHECK(v[k] > v[k - 1]);
    // matmul's naive kernel loops on lines 11 and 12: those come back, once per trip.
    std::vector<uint32_t> m = linesVisited("matmul", 12);
    INFO("matmul lines: " << Catch::Detail::stringify(m));
    CHECK(std::count(m.begin(), m.end(), 12u) >= 3);
    // Before the loop, the lines come in order, each once.
    REQUIRE(m.size() >= 4);
    CHECK(m[0] < m[1]);
    CHECK(m[1] < m[2]);
    CHECK(m[2] < m[3]);
}

namespace {
// The selected warp's values of a lesson variable, after running it to `line` (0: leave it).
std::vector<std::string> valuesOf(Session& ses, const std::string& name, uint32_t block, uint32_t warp, uint32_t line) {
    ses.select(block, warp, false);
    if (line) ses.runToLine(line);
    REQUIRE(ses.waitIdle(60));
    auto s = ses.snapshot();
    for (auto& r : variableRows(*s))
        if (r.name == name) {
            CHECK(r.set);
            return std::vector<std::string>(r.values.begin(), r.values.begin() + r.lanes);
        }
    FAIL("no variable " << name << " shown (" << shown(*s) << ")");
    return {};
}
std::vector<std::string> counting(int from, int n, int step = 1, int div = 1, int mod = 0) {
    std::vector<std::string> v;
    for (int k = 0; k < n; ++k) v.push_back(std::to_string(mod ? (k % mod) : from + (k / div) * step));
    return v;
}
} // namespace

TEST_CASE("lesson variables: Warp detail shows them by name, per lane, in decimal", "[lesson-steps]") {
    auto open = [](const char* id) {
        runtime::Lesson L = runtime::loadLesson(fs::path(WARPSCOPE_SOURCE_DIR) / "lessons" / id);
        auto info = makeLessonInfo(L);
        CHECK(info->variablesError.empty());
        return L;
    };
    Session ses;
    // vector-add: i = blockIdx.x * blockDim.x + threadIdx.x (line 5).
    runtime::Lesson L = open("vector-add");
    ses.load(L, runtime::resolveParams(L, {}));
    REQUIRE(ses.waitIdle(60));
    // Before line 5 has run, i is not set yet.
    ses.select(0, 0, false);
    REQUIRE(ses.waitIdle(60));
    auto rows = variableRows(*ses.snapshot());
    REQUIRE(rows.size() == 1);
    CHECK_FALSE(rows[0].set);
    CHECK(valuesOf(ses, "i", 0, 0, 9) == counting(0, 32));
    CHECK(valuesOf(ses, "i", 3, 7, 9) == counting(992, 32));
    // stencil: g = blockIdx.x * blockDim.x + threadIdx.x, l = threadIdx.x + RADIUS (3).
    L = open("stencil-1d");
    ses.load(L, runtime::resolveParams(L, {}));
    REQUIRE(ses.waitIdle(60));
    CHECK(valuesOf(ses, "g", 1, 1, 8) == counting(128 + 32, 32));
    CHECK(valuesOf(ses, "l", 1, 1, 0) == counting(32 + 3, 32));
    // matmul: 16 x 16 blocks, so warp 0 holds rows 0 and 1 of the block, columns 0 to 15.
    L = open("matmul");
    ses.load(L, runtime::resolveParams(L, {}));
    REQUIRE(ses.waitIdle(60));
    CHECK(valuesOf(ses, "row", 0, 0, 9) == counting(0, 32, 1, 16));
    CHECK(valuesOf(ses, "col", 0, 0, 0) == counting(0, 32, 1, 1, 16));
    // A variable of another kernel is not shown; the tiled kernel's row is (launch 2).
    CHECK(valuesOf(ses, "row", 0, 1, 27) == counting(2, 32, 1, 16));
    // reduction: t = threadIdx.x in each of the four kernels.
    L = open("reduction");
    ses.load(L, runtime::resolveParams(L, {}));
    REQUIRE(ses.waitIdle(60));
    CHECK(valuesOf(ses, "t", 0, 2, 62) == counting(64, 32));   // line 60 runs first: t (line 59) is set inside it
    // divergence and coalescing: i as in vector-add.
    L = open("divergence");
    ses.load(L, runtime::resolveParams(L, {}));
    REQUIRE(ses.waitIdle(60));
    CHECK(valuesOf(ses, "i", 0, 1, 9) == counting(32, 32));
    CHECK(valuesOf(ses, "i", 0, 1, 53) == counting(32, 32));
    L = open("coalescing");
    ses.load(L, runtime::resolveParams(L, {}));
    REQUIRE(ses.waitIdle(60));
    CHECK(valuesOf(ses, "i", 1, 0, 7) == counting(256, 32));
    CHECK(valuesOf(ses, "i", 1, 0, 13) == counting(256, 32));
}

TEST_CASE("lesson variables: a malformed entry is reported, not fatal", "[lesson-steps]") {
    fs::path dir = fs::temp_directory_path() / "warpscope-vars-test";
    fs::remove_all(dir);
    fs::copy(fs::path(WARPSCOPE_SOURCE_DIR) / "lessons/vector-add", dir);
    std::string j = readText(dir / "lesson.json");
    size_t at = j.find("\"register\": \"%r1\"");
    REQUIRE(at != std::string::npos);
    j.replace(at, std::string("\"register\": \"%r1\"").size(), "\"reg\": \"%r1\"");
    std::ofstream(dir / "lesson.json") << j;
    runtime::Lesson L = runtime::loadLesson(dir);
    auto info = makeLessonInfo(L);
    CHECK(info->variables.empty());
    CHECK(info->variablesError.find("variables[0] needs") != std::string::npos);
    // A line number too large for the source (it would wrap to another line): the same error.
    j = readText(dir / "lesson.json");
    j.replace(j.find("\"reg\": \"%r1\""), std::string("\"reg\": \"%r1\"").size(), "\"register\": \"%r1\"");
    const size_t line = j.find("\"line\": 5 }", j.find("\"variables\""));   // vector add's "i"
    REQUIRE(line != std::string::npos);
    j.replace(line, std::string("\"line\": 5").size(), "\"line\": 4294967296");
    std::ofstream(dir / "lesson.json") << j;
    auto wrapped = makeLessonInfo(runtime::loadLesson(dir));
    CHECK(wrapped->variables.empty());
    CHECK(wrapped->variablesError.find("variables[0] needs") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("stencil step 3: stepping warp 0 once more releases the barrier, as the text says", "[lesson-steps]") {
    LessonRun run("stencil-1d");
    Session& ses = run.ses;
    SessionActionTarget& t = run.t;
    std::vector<std::string> errs;
    auto acts = parseStepActions("defaults; select block 0 warp 0; run-to line 13", 1, errs);
    applyStepActions(acts, t);
    REQUIRE(ses.waitIdle(60));
    auto before = ses.snapshot();
    const BlockView* b = before->residentBlock(0);
    REQUIRE(b);
    int waiting = 0;
    for (auto& w : b->warps) waiting += w.masks.atBarrier;
    CHECK(waiting == 3);
    ses.stepWarp();
    REQUIRE(ses.waitIdle(60));
    auto after = ses.snapshot();
    b = after->residentBlock(0);
    REQUIRE(b);
    for (auto& w : b->warps) CHECK_FALSE(w.masks.atBarrier);
    CHECK(after->barriers == before->barriers + 1);
}

// A presenter's clicker sends only Page Down. Through turnPage (the Lessons panel's page turns),
// every step of the classroom lessons is done when it is shown (a prediction step on the press
// after it appears) and lands on the state its text describes, and the last press leaves the
// class on the last step.
TEST_CASE("Page Down only: every step of the classroom lessons is done and lands", "[lesson-steps][pager]") {
    const std::set<std::string> classroom = {"coalescing", "bank-conflicts", "streams-overlap"};
    int lessons = 0;
    for (const LessonSteps& ls : lessonsWithSteps()) {
        if (!classroom.count(ls.id)) continue;
        ++lessons;
        const StepsCheck& c = ls.check;
        const int n = static_cast<int>(ls.doc.sections.size());
        REQUIRE(n > 1);
        std::vector<PagerStep> pager(static_cast<size_t>(n));
        for (int k = 0; k < n; ++k) {
            pager[static_cast<size_t>(k)].asksPrediction = ls.doc.sections[static_cast<size_t>(k)].hasAnswer();
            pager[static_cast<size_t>(k)].hasActions = k < static_cast<int>(c.actions.size()) && !c.actions[static_cast<size_t>(k)].empty();
        }
        Session ses;
        SessionActionTarget t(ses, ls.lesson);
        ses.load(ls.lesson, t.params);
        REQUIRE(ses.waitIdle(60));
        std::set<int> done;
        auto doIt = [&](int k) {
            doStep(ses, t, c.actions[static_cast<size_t>(k)], c.expects[static_cast<size_t>(k)],
                   ls.id + " step " + std::to_string(k + 1) + " by Page Down");
            done.insert(k);
        };
        int cur = 0, presses = 0;
        if (pager[0].hasActions && !pager[0].asksPrediction) doIt(0);   // the lesson opens on step 1
        while (presses++ < 3 * n) {
            PageTurn turn = turnPage(pager, cur, +1, true);
            if (turn.doHere) {
                doIt(cur);
                pager[static_cast<size_t>(cur)].actionsPending = true;
                pager[static_cast<size_t>(cur)].revealed = true;   // the session is idle again: the answer shows
                continue;
            }
            if (turn.to == cur) break;   // the last page
            cur = turn.to;
            if (turn.doTo) doIt(cur);
        }
        INFO(ls.id);
        CHECK(cur == n - 1);
        for (int k = 0; k < n; ++k)
            if (pager[static_cast<size_t>(k)].hasActions) {
                INFO("step " << k + 1 << " was never done by Page Down");
                CHECK(done.count(k));
            }
        CHECK(presses <= n + static_cast<int>(std::count_if(pager.begin(), pager.end(), [](const PagerStep& p) { return p.asksPrediction; })) + 1);
    }
    CHECK(lessons == 3);
}
