// The Exercise panel: the current lesson's exercises, the goal, hints one at a time, the file to
// grade (the editor's saved file, or a copy of the starter), the Grade button, each criterion with
// its measured value next to the target, and "Show why", which opens the panel that explains a
// failure at the line it names. Grading runs on the model's worker (gui/model/exercise_model.hpp).
//
// "Show why" runs the learner's file in the session (grade::learnerLesson) on the parameter set
// that failed, with the checkers or Timed mode the criterion needs, takes the machine to the line
// the criterion names (planShowWhy), and opens the explaining panel in the Exercise layout's slot.
//
// Sections: 1. state and helpers  2. Show why  3. the Lessons panel's line  4. the panel
//           5. command line and screenshot sidecar
#include "gui/model/exercise_model.hpp"
#include "gui/model/memory_model.hpp"
#include "gui/panels/frame.hpp"
#include "gui/panels/panels.hpp"
#include "base/error.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>

namespace warpscope::gui {

// ---------------------------------------------------------------- 1. state and helpers
namespace {

// The last "Show why": what it pointed at, and what it could not do.
struct WhyState {
    bool active = false;
    std::string lesson;           // the lesson whose exercise it is about
    grade::Criterion criterion;
    WhyPlan plan;
    std::filesystem::path file;   // the learner's file the session runs
    grade::Exercise exercise;
    uint64_t request = 0;         // the learner's lesson being built (ExerciseModel::prepareWhy), 0 none
    bool reportPending = false;   // go to the first checker report once the run is done
    std::optional<grade::WrongResult> wrong;   // a wrong result: its first wrong elements and who wrote them
    bool writerPending = false;   // go to the store that wrote the first wrong element once the run is done
    bool scrollTo = false;        // bring the note into view on the next frame (it is below the criteria)
    std::string note;             // why it could not run the file, ...
};

struct ExerciseUi {
    std::unique_ptr<ExerciseModel> model;
    char path[1024] = {};
    int pathFor = -1;              // exercise the path was set for
    std::string solution;          // shown model solution ("" = hidden)
    std::string note;
    std::string focusTitle;        // "Show why": focus that window on the next frames
    int focusFrames = 0;
    WhyState why;
    int drawnFrame = -1;           // the last frame the panel was drawn (ImGui frame count)
    std::string lesson;            // the lesson whose exercises are shown: kept while the learner's kernel runs as "editor"
};

ExerciseUi& state() {
    static ExerciseUi u;
    return u;
}

// A copy of the starter the learner can edit, in the settings folder (never over an earlier copy).
std::filesystem::path starterCopyPath(const grade::Exercise& ex) {
    std::filesystem::path dir = configDir();
    if (dir.empty()) dir = std::filesystem::temp_directory_path() / "warpscope";
    return dir / "exercises" / (ex.lesson + "-" + ex.id + ex.starter.extension().string());
}

// The learner's copy of the starter: made once, then kept (a second press never overwrites it).
std::filesystem::path starterCopy(const grade::Exercise& ex) {
    std::filesystem::path file = starterCopyPath(ex);
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    if (!std::filesystem::exists(file)) std::filesystem::copy_file(ex.starter, file, ec);
    return file;
}

ExerciseModel& model(AppContext& app) {
    ExerciseUi& u = state();
    if (!u.model) u.model = std::make_unique<ExerciseModel>(app.ui.lessonsDir, progressFile());
    return *u.model;
}

void focusPanel(const std::string& id) {
    for (auto& p : panels())
        if (id == p.id) {
            state().focusTitle = p.title;
            state().focusFrames = 3;
        }
}

// The learner's file opens in the editor beside the Exercise panel (asking first if the editor
// holds other unsaved text): in the Exercise layout the editor takes Source's place; in Presenter
// it is the slot's panel.
void placeEditorBesideExercise(AppContext& app) {
    bool wasExercise = app.ui.layout == "exercise" || app.ui.layout == "presenter";
    if (wasExercise || app.ui.pendingLayout == "editor") {
        app.ui.pendingLayout = app.ui.layout == "presenter" ? std::string() : "exercise";
        app.ui.slotPanels = {"editor"};
        if (app.ui.layout == "presenter") presentPanels(app, {"editor"});
        app.settings.panelsOpen["editor"] = true;
        app.ui.resetLayout = true;
    }
    focusPanel("editor");
}

void editBesideExercise(AppContext& app, const std::string& path) {
    // Already in the editor (perhaps with unsaved changes): nothing is left, so nothing is asked.
    std::error_code ec;
    if (app.editor->active() && !app.editor->file().empty() && std::filesystem::equivalent(app.editor->file(), path, ec)) {
        placeEditorBesideExercise(app);
        return;
    }
    app.askBeforeLeaving("open your kernel", [&app, path] {
        if (app.openPath(path)) placeEditorBesideExercise(app);
    });
}

// ---------------------------------------------------------------- 2. Show why
// Puts `panel` where the current arrangement has room for it: the Presenter layout's slot, else
// the Exercise layout's slot under Source (the layout is chosen when it is not the current one).
void placeWhyPanel(AppContext& app, const std::string& panel) {
    if (app.ui.layout == "presenter") {
        presentPanels(app, {panel});
    } else if (panel != "source" && panel != "exercise" && panel != "lessons") {
        app.ui.slotPanels = {panel};
        app.ui.pendingLayout = "exercise";
    } else if (app.ui.layout != "exercise") {
        app.ui.pendingLayout = "exercise";
    }
    app.settings.panelsOpen[panel] = true;
    focusPanel(panel);
}

void showWhy(AppContext& app, const grade::Exercise& ex, const grade::Criterion& c, const std::filesystem::path& file) {
    WhyState& w = state().why;
    w = WhyState{};
    w.active = true;
    w.lesson = ex.lesson;
    w.criterion = c;
    w.file = file;
    w.plan = planShowWhy(ex, c);
    const WhyPlan& p = w.plan;
    if (!p.runLearner) {
        if (p.panel == "editor") {
            // The editor builds the file and marks the compiler's messages at their lines.
            if (app.openPath(file.string())) {
                app.editorUi.jumpLine = p.line;
                placeWhyPanel(app, "editor");
            } else {
                w.note = app.editorUi.message;
            }
        } else {
            w.scrollTo = true;   // a whole program's failure: the details below the criteria say why
        }
        return;
    }
    // The learner's file compiles on the exercise model's worker; applyShowWhy runs it once built.
    w.exercise = ex;
    w.request = model(app).prepareWhy(WhyRequest{ex, file, p.params, p.explainWrong, p.racecheck, p.initcheck});
    w.note = "Building " + file.filename().string() + "...";
}

// Once Show why's lesson is built: runs the learner's file in the session as the plan says.
void applyShowWhy(AppContext& app) {
    WhyState& w = state().why;
    if (!w.request) return;
    std::shared_ptr<const WhyLesson> built = model(app).whyLesson();
    if (!built || built->request != w.request) return;
    w.request = 0;
    w.note.clear();
    if (!built->ok) {
        w.note = built->error;
        return;
    }
    const grade::Exercise& ex = w.exercise;
    const grade::Criterion& c = w.criterion;
    const WhyPlan& p = w.plan;
    const runtime::Lesson& L = built->lesson;
    const runtime::ParamValues& pv = built->params;
    app.session.setCheckers(p.initcheck, p.racecheck);
    bool wantTimed = false;
    if (p.timed)
        for (size_t i = 0; i < app.ui.presets.size(); ++i)
            if (app.ui.presets[i].name == ex.gpu) {
                app.ui.preset = int(i);
                wantTimed = true;
            }
    if (wantTimed || app.ui.timed) {
        app.ui.timed = wantTimed;
        app.applyTiming();
    }
    app.ui.params = pv;
    app.ui.globalPin = {};
    app.ui.sharedPin = {};
    app.ui.globalPick = app.ui.sharedPick = 0;
    app.ui.highlight = {};
    app.session.load(L, pv);
    if (p.move == WhyPlan::Move::ToLine) {
        // Warp 0 of block 0 runs to the line and executes it: its access there is the newest.
        app.settings.followIssuing = false;
        app.session.select(0, 0, false);
        app.session.runToLine(p.line);
        app.session.stepLine();
        MemPin pin{p.line, 0, true};
        (p.pin == 2 ? app.ui.sharedPin : app.ui.globalPin) = pin;
    } else if (p.move == WhyPlan::Move::Program) {
        app.session.runSteps(uint64_t(1) << 50);   // to the end of the host program (the budget still applies)
    }
    if (p.line) {
        app.ui.clickedLine = p.line;
        app.ui.scrollToLine = p.line;
    }
    w.reportPending = p.goToReport;
    w.wrong = built->wrong;
    w.scrollTo = true;
    w.writerPending = w.wrong && !w.wrong->elements.empty();
    // A wrong result: the heat map shows the buffer whose check failed ("out: element 17: got ..."),
    // not the first buffer (the input).
    if (c.kind == "correctness" && !c.detail.empty()) {
        size_t colon = c.detail.find(':');
        if (colon != std::string::npos && colon > 0) app.ui.heatBuffer = c.detail.substr(0, colon);
    }
    if (!p.panel.empty()) placeWhyPanel(app, p.panel);
}

// Once the run Show why started is done: "go to line" of the checker report it is about (the
// one on the criterion's line, else the first), or of the fault that stopped the run.
void goToWriter(AppContext& app, const grade::WrongElement& e) {
    if (!e.written) return;
    const uint32_t grid[3] = {e.grid.x, e.grid.y, e.grid.z}, block[3] = {e.block.x, e.block.y, e.block.z};
    app.goToSite(e.site, grid, block);
}

void finishShowWhy(AppContext& app) {
    WhyState& w = state().why;
    if (w.writerPending && !app.session.busy() && app.session.snapshot()->state != RunState::Loading) {
        // The line that wrote the first wrong element some kernel wrote (none: nothing to point at).
        w.writerPending = false;
        for (const grade::WrongElement& e : w.wrong->elements)
            if (e.written) {
                goToWriter(app, e);
                break;
            }
    }
    if (!w.reportPending || app.session.busy()) return;
    std::shared_ptr<const Snapshot> s = app.session.snapshot();   // this frame's may predate the run's end
    if (s->state == RunState::Loading) return;
    w.reportPending = false;
    const ReportView* pick = nullptr;
    for (const ReportView& r : s->reports)
        if (!pick || (r.site.sourceLine && *r.site.sourceLine == w.plan.line && !(pick->site.sourceLine && *pick->site.sourceLine == w.plan.line)))
            pick = &r;
    if (pick) app.goToSite(pick->site, pick->grid, pick->block);
    else if (s->error) app.goToSite(s->error->site, s->grid, s->block);   // a fault stops the run without a report
}

std::string paramText(const std::map<std::string, std::string>& p) {
    std::string s;
    for (auto& [k, v] : p) s += (s.empty() ? "" : ", ") + k + "=" + v;
    return s.empty() ? "the defaults" : s;
}

// A wrong result: the first wrong elements, each with the store that wrote it (Go: its line, block
// and lane in the panels).
void drawWrongElements(AppContext& app, const grade::WrongResult& r) {
    if (!r.error.empty()) {
        ImGui::TextColored(colv(okabe_ito::Vermillion), "%s", r.error.c_str());
        return;
    }
    if (r.elements.empty()) return;
    ImGui::TextUnformatted("First wrong elements:");
    int i = 0;
    for (const grade::WrongElement& e : r.elements) {
        ImGui::PushID(i++);
        ImGui::Bullet();
        ImGui::SameLine();
        if (e.written && e.site.sourceLine) {
            if (ImGui::SmallButton(("line " + std::to_string(*e.site.sourceLine)).c_str())) goToWriter(app, e);
            ImGui::SameLine();
        }
        ImGui::TextWrapped("%s", e.text().c_str());
        ImGui::PopID();
    }
}

// What the last Show why did, and the way back to the lesson's own kernel.
void drawWhyNote(AppContext& app) {
    WhyState& w = state().why;
    if (!w.active) return;
    ImGui::Separator();
    if (w.scrollTo) {
        ImGui::SetScrollHereY(0.0f);
        w.scrollTo = false;
    }
    ImGui::TextDisabled("Show why: %s", w.criterion.name.c_str());
    if (!w.note.empty()) {
        ImGui::TextColored(colv(okabe_ito::Vermillion), "%s", w.note.c_str());
        return;
    }
    if (!w.plan.runLearner) {
        ImGui::TextWrapped("%s", w.plan.panel == "editor" ? "The editor shows the compiler's messages at their lines."
                                                           : "Your whole program ran in the sandbox: the criterion's detail above has its "
                                                             "output and the model solution's, or the report that stopped it.");
        return;
    }
    std::string where = w.plan.line ? ", line " + std::to_string(w.plan.line) : "";
    ImGui::TextWrapped("Your file runs with %s%s%s%s.", paramText(w.plan.params).c_str(), where.c_str(),
                       w.plan.racecheck ? ", racecheck on" : "", w.plan.timed ? ", in Timed mode" : "");
    if (w.wrong) drawWrongElements(app, *w.wrong);
    // Back to typing: the learner's file in the editor beside this panel, the grade kept.
    if (ImGui::Button("Edit your kernel")) editBesideExercise(app, w.file.string());
    const char* back = "Back to the lesson's kernel";
    sameLineIfFits(ImGui::CalcTextSize(back).x + 2 * ImGui::GetStyle().FramePadding.x);   // on a line of its own at 1280x720, scale 1.5
    if (ImGui::Button(back)) {
        w = WhyState{};
        app.session.setCheckers(false, false);
        app.loadLesson(app.ui.current);
    }
}

} // namespace

// ---------------------------------------------------------------- 3. the Lessons panel's line
void drawExerciseProgressLine(AppContext& app) {
    if (app.ui.current < 0 || size_t(app.ui.current) >= app.ui.lessons.size()) return;
    ExerciseModel& m = model(app);
    const std::string& lesson = app.ui.lessons[size_t(app.ui.current)].id;
    size_t n = m.exercisesOf(lesson).size();
    if (n == 0) return;
    ImGui::Text("Exercises: %d of %zu solved", m.progress().solvedIn(lesson), n);
    ImGui::SameLine();
    if (ImGui::SmallButton("Open##exercises")) placeWhyPanel(app, "exercise");
}

// ---------------------------------------------------------------- 4. the panel
void drawExercisePanel(AppContext& app) {
    ExerciseUi& u = state();
    ExerciseModel& m = model(app);
    if (u.focusFrames > 0) {
        ImGui::SetWindowFocus(u.focusTitle.c_str());
        --u.focusFrames;
    }
    applyShowWhy(app);
    finishShowWhy(app);
    // Opened (View menu) where the layout has no place for it: the Exercise layout gives it one,
    // so it covers no other panel. Presenter places it in its own slot.
    int frame = ImGui::GetFrameCount();
    bool justOpened = u.drawnFrame < frame - 1;
    u.drawnFrame = frame;
    if (justOpened && app.ui.layout != "presenter" && app.ui.pendingLayout.empty()) {
        const LayoutDef* l = findLayout(app.ui.layout);
        bool placed = l && std::any_of(l->placements.begin(), l->placements.end(), [](const Placement& p) { return std::strcmp(p.id, "exercise") == 0; });
        if (!placed) app.ui.pendingLayout = "exercise";
    }
    std::string lesson = app.ui.current >= 0 && size_t(app.ui.current) < app.ui.lessons.size() ? app.ui.lessons[size_t(app.ui.current)].id : "";
    // The learner's copy built and run from the editor is the lesson "editor": the panel stays on
    // the exercise it is for.
    if (lesson == "editor" && !u.lesson.empty()) lesson = u.lesson;
    else if (!lesson.empty()) u.lesson = lesson;
    if (u.why.active && u.why.lesson != lesson) u.why = WhyState{};   // another lesson was chosen
    std::vector<int> mine = m.exercisesOf(lesson);
    if (mine.empty()) {
        ImGui::TextWrapped("This lesson has no exercises.");
        return;
    }
    if (!m.current() || m.current()->lesson != lesson) m.select(mine[0]);
    const grade::Exercise& ex = *m.current();
    if (u.pathFor != m.selected()) {
        u.pathFor = m.selected();
        u.path[0] = 0;
        u.solution.clear();
        u.note.clear();
    }

    auto label = [&](int i) {
        const grade::Exercise& e = m.exercises()[size_t(i)];
        return e.title + (m.progress().get(e.lesson, e.id).solved ? "  (solved)" : "");
    };
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##exercise", label(m.selected()).c_str())) {
        for (int i : mine)
            if (ImGui::Selectable(label(i).c_str(), i == m.selected())) m.select(i);
        ImGui::EndCombo();
    }
    if (app.fonts.bold) ImGui::PushFont(app.fonts.bold);
    ImGui::TextWrapped("%s", ex.title.c_str());
    if (app.fonts.bold) ImGui::PopFont();
    ImGui::TextWrapped("%s", ex.goal.c_str());
    ExerciseRecord rec = m.progress().get(ex.lesson, ex.id);
    ImGui::TextDisabled("%d attempt%s%s", rec.attempts, rec.attempts == 1 ? "" : "s", rec.solved ? ", solved" : "");

    ImGui::Separator();
    for (int i = 0; i < m.hintsShown(); ++i) ImGui::TextWrapped("Hint %d: %s", i + 1, ex.hints[size_t(i)].c_str());
    if (m.hintsShown() < int(ex.hints.size())) {
        char b[64];
        std::snprintf(b, sizeof b, "Show a hint (%d of %zu)", m.hintsShown() + 1, ex.hints.size());
        if (ImGui::Button(b)) m.showNextHint();
    }

    ImGui::Separator();
    ImGui::TextUnformatted(ex.hostProgram ? "Your host program (.json):" : "Your kernel (.cu, as saved by the editor):");
    ImGui::SetNextItemWidth(-1);
    ImGui::InputTextWithHint("##file", "path of the file to grade", u.path, sizeof u.path);
    if (ImGui::Button("Start from a copy of the starter")) {
        bool hadCopy = std::filesystem::exists(starterCopyPath(ex));
        std::string p = starterCopy(ex).string();
        std::snprintf(u.path, sizeof u.path, "%s", p.c_str());
        u.note = (hadCopy ? "Your copy from before (kept as you left it): " : "Copied to ") + p + ": edit it in the Editor, then Grade (it saves first).";
        editBesideExercise(app, p);
    }
    ImGui::SameLine();
    bool busy = m.grading();
    ImGui::BeginDisabled(busy || u.path[0] == 0);
    if (ImGui::Button(busy ? "Grading..." : "Grade")) {
        // Grade grades what the editor shows: its unsaved text is saved first.
        std::error_code ec;
        EditorModel& ed = *app.editor;
        std::string err;
        bool saved = true;
        if (ed.active() && ed.dirty() && !ed.file().empty() && std::filesystem::equivalent(ed.file(), u.path, ec)) saved = ed.save(&err);
        if (saved) m.grade(u.path);
        else u.note = err;
    }
    ImGui::EndDisabled();
    if (!u.note.empty()) ImGui::TextWrapped("%s", u.note.c_str());

    std::shared_ptr<const GradeOutcome> o = m.outcome();
    if (o && o->lesson == ex.lesson && o->id == ex.id) {
        ImGui::Separator();
        if (!o->ok) {
            ImGui::TextColored(colv(okabe_ito::Vermillion), "Could not grade: %s", o->error.c_str());
        } else {
            ImGui::TextColored(colv(o->result.passed ? okabe_ito::BluishGreen : okabe_ito::Vermillion), "%s",
                               o->result.passed ? "PASSED" : "Not yet: see the failing criteria");
            // A narrow panel (a 720p projector at scale 1.5): each criterion as a block of lines, so
            // its name is not squeezed into a column a few letters wide.
            const bool narrow = ImGui::GetContentRegionAvail().x < 32 * ImGui::GetFontSize();
            if (narrow) {
                int row = 0;
                for (const grade::Criterion& c : o->result.criteria) {
                    ImGui::PushID(row++);
                    ImGui::TextColored(colv(c.passed ? okabe_ito::BluishGreen : okabe_ito::Vermillion), "%s", c.passed ? "PASS" : "FAIL");
                    ImGui::SameLine();
                    ImGui::TextWrapped("%s", c.name.c_str());
                    ImGui::Indent();
                    ImGui::TextWrapped("measured %s; target %s", c.measured.c_str(), c.target.c_str());
                    if (!c.passed && !c.panel.empty() && ImGui::SmallButton("Show why")) showWhy(app, ex, c, o->file);
                    ImGui::Unindent();
                    ImGui::PopID();
                }
            } else if (ImGui::BeginTable("criteria", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
                ImGui::TableSetupColumn("criterion");
                ImGui::TableSetupColumn("measured");
                ImGui::TableSetupColumn("target");
                ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed);
                ImGui::TableHeadersRow();
                int row = 0;
                for (const grade::Criterion& c : o->result.criteria) {
                    ImGui::PushID(row++);
                    ImGui::TableNextRow();
                    ImGui::TableNextColumn();
                    ImGui::TextColored(colv(c.passed ? okabe_ito::BluishGreen : okabe_ito::Vermillion), "%s", c.passed ? "PASS" : "FAIL");
                    ImGui::SameLine();
                    ImGui::TextWrapped("%s", c.name.c_str());
                    ImGui::TableNextColumn();
                    ImGui::TextWrapped("%s", c.measured.c_str());
                    ImGui::TableNextColumn();
                    ImGui::TextWrapped("%s", c.target.c_str());
                    ImGui::TableNextColumn();
                    if (!c.passed && !c.panel.empty() && ImGui::SmallButton("Show why")) showWhy(app, ex, c, o->file);
                    if (!c.passed && !c.detail.empty() && ImGui::IsItemHovered())
                        ImGui::SetTooltip("%s%s", c.detail.c_str(), c.line ? ("\n(line " + std::to_string(c.line) + ")").c_str() : "");
                    ImGui::PopID();
                }
                ImGui::EndTable();
            }
            for (const grade::Criterion& c : o->result.criteria)
                if (!c.passed && !c.detail.empty()) {
                    ImGui::TextDisabled("%s%s:", c.name.c_str(), c.line ? (" (line " + std::to_string(c.line) + ")").c_str() : "");
                    ImGui::TextWrapped("%s", c.detail.c_str());
                }
        }
    }

    drawWhyNote(app);

    if (m.solutionAvailable()) {
        ImGui::Separator();
        if (u.solution.empty()) {
            if (ImGui::Button("Show the model solution")) u.solution = m.solutionText();
        } else {
            if (app.fonts.mono) ImGui::PushFont(app.fonts.mono);
            ImGui::TextUnformatted(u.solution.c_str());
            if (app.fonts.mono) ImGui::PopFont();
        }
    }
}

// ---------------------------------------------------------------- 5. command line and screenshot sidecar
void exerciseCommandLine(AppContext& app, const ExerciseArgs& a) {
    ExerciseUi& u = state();
    ExerciseModel& m = model(app);
    std::string lesson = app.ui.current >= 0 ? app.ui.lessons[size_t(app.ui.current)].id : "";
    if (!m.select(lesson, a.id)) {
        std::string names;
        for (int i : m.exercisesOf(lesson)) names += (names.empty() ? "" : ", ") + m.exercises()[size_t(i)].id;
        throw Error(Error::Kind::Input, "--exercise: lesson '" + lesson + "' has no exercise '" + a.id + "'" +
                                            (names.empty() ? "." : " (it has: " + names + ")."));
    }
    u.pathFor = m.selected();
    placeWhyPanel(app, "exercise");
    if (a.solution.empty()) return;
    std::snprintf(u.path, sizeof u.path, "%s", a.solution.c_str());
    if (!a.grade) return;
    m.grade(a.solution);
    if (!m.waitIdle(600)) throw Error(Error::Kind::Input, "--grade: grading took longer than 10 minutes.");
    std::shared_ptr<const GradeOutcome> o = m.outcome();
    if (!o || !o->ok) throw Error(Error::Kind::Input, "--grade: " + (o ? o->error : std::string("no result")));
    if (a.showWhy.empty()) return;
    for (const grade::Criterion& c : o->result.criteria)
        if (!c.passed && !c.panel.empty() && (a.showWhy == "first" || c.name.rfind(a.showWhy, 0) == 0)) {
            showWhy(app, *m.current(), c, o->file);
            m.waitWhy(120);
            applyShowWhy(app);
            app.session.waitIdle(120);
            app.snap = app.session.snapshot();
            finishShowWhy(app);
            return;
        }
    throw Error(Error::Kind::Input, "--show-why: no failed criterion named '" + a.showWhy + "' has a panel to show.");
}

nlohmann::json exerciseSidecar(const AppContext& app) {
    ExerciseUi& u = state();
    nlohmann::json j = nlohmann::json::object();
    if (!u.model || !u.model->current()) return j;
    const grade::Exercise& ex = *u.model->current();
    j["lesson"] = ex.lesson;
    j["id"] = ex.id;
    j["file"] = u.path;
    auto criterion = [](const grade::Criterion& c) {
        nlohmann::json o = {{"name", c.name}, {"kind", c.kind}, {"passed", c.passed}, {"measured", c.measured},
                            {"target", c.target}, {"panel", c.panel}, {"line", c.line}};
        if (c.value) o["value"] = *c.value;
        return o;
    };
    std::shared_ptr<const GradeOutcome> o = u.model->outcome();
    j["graded"] = o && o->ok && o->lesson == ex.lesson && o->id == ex.id;
    if (j["graded"]) {
        j["passed"] = o->result.passed;
        j["criteria"] = nlohmann::json::array();
        j["failed"] = nlohmann::json::array();
        for (auto& c : o->result.criteria) {
            j["criteria"].push_back(criterion(c));
            if (!c.passed) j["failed"].push_back(c.name);
        }
    }
    const WhyState& w = u.why;
    if (!w.active) return j;
    nlohmann::json y;
    y["criterion"] = criterion(w.criterion);
    y["panel"] = w.plan.panel;
    y["line"] = w.plan.line;
    y["note"] = w.note;
    y["focused"] = u.focusTitle;
    auto open = app.settings.panelsOpen.find(w.plan.panel);
    y["panel_open"] = open != app.settings.panelsOpen.end() && open->second;
    bool drawn = false;
    for (const PanelRect& r : app.drawn) drawn = drawn || r.id == w.plan.panel;
    y["panel_drawn"] = drawn;
    y["slot"] = app.ui.slotPanels;
    y["params"] = w.plan.params;
    const Snapshot& s = *app.snap;
    // What the session shows: whose file runs, where the selected warp is, the pinned access.
    y["source"] = s.lesson ? s.lesson->lesson.sourcePath.string() : "";
    y["runs_learner_file"] = s.lesson && !w.file.empty() && s.lesson->lesson.sourcePath == w.file;
    y["source_line"] = app.ui.clickedLine;
    y["racecheck"] = s.racecheck;
    y["timed"] = s.timed;
    y["state"] = runStateName(s.state);
    if (s.selected) y["selected"] = {{"block", s.selBlock}, {"warp", s.selWarp}, {"line", s.selected->warp.line}};
    for (int shared = 0; shared < 2; ++shared) {
        const MemPin& pin = shared ? app.ui.sharedPin : app.ui.globalPin;
        if (!pin.line) continue;
        nlohmann::json p = {{"panel", shared ? "shared" : "global"}, {"line", pin.line}};
        if (const MemAccess* a = pinnedAccess(s.memHistory, shared != 0, pin)) {
            p["access_line"] = a->line;
            p["block"] = a->block;
            p["warp"] = a->warpInBlock;
            if (shared) {
                uint32_t ways = 0;
                for (auto& ph : buildSharedDiagram(*a).phases) ways = std::max(ways, ph.ways);
                p["ways"] = ways;
            } else {
                p["sectors"] = buildGlobalDiagram(*a).sectorCount;
            }
        }
        y["pinned"] = p;
    }
    y["divergent_branches"] = s.divergentBranches;
    y["reports"] = s.reports.size();
    if (!s.reports.empty()) {
        nlohmann::json lines = nlohmann::json::array();
        for (auto& r : s.reports)
            if (r.site.sourceLine) lines.push_back(*r.site.sourceLine);
        y["report_lines"] = lines;
        y["report_tool"] = s.reports.front().tool;
    }
    y["highlight"] = {{"on", app.ui.highlight.on}, {"block", app.ui.highlight.block}, {"warp", app.ui.highlight.warp}};
    y["heat_buffer"] = app.ui.heatBuffer;
    if (w.wrong) {
        nlohmann::json wrong = nlohmann::json::array();
        for (const grade::WrongElement& e : w.wrong->elements) {
            nlohmann::json x = {{"buffer", e.buffer}, {"index", e.index}, {"written", e.written}, {"text", e.text()}};
            if (e.site.sourceLine) x["line"] = *e.site.sourceLine;
            if (e.site.lane) x["lane"] = *e.site.lane;
            wrong.push_back(x);
        }
        y["wrong"] = wrong;
        y["wrong_error"] = w.wrong->error;
    }
    j["show_why"] = y;
    return j;
}

} // namespace warpscope::gui
