// The Exercise panel: the current lesson's exercises, the goal, hints one at a time, the file to
// grade (the editor's saved file, or a copy of the starter), the Grade button, each criterion with
// its measured value next to the target, and "Show why", which opens the panel that explains a
// failure at the line it names. Grading runs on the model's worker (gui/model/exercise_model.hpp).
#include "gui/model/exercise_model.hpp"
#include "gui/panels/panels.hpp"

#include <cstring>
#include <filesystem>
#include <memory>

namespace warpscope::gui {

namespace {

struct ExerciseUi {
    std::unique_ptr<ExerciseModel> model;
    char path[1024] = {};
    int pathFor = -1;              // exercise the path was set for
    std::string solution;          // shown model solution ("" = hidden)
    std::string note;
    std::string focusTitle;        // "Show why": focus that window on the next frames
    int focusFrames = 0;
};

ExerciseUi& state() {
    static ExerciseUi u;
    return u;
}

// A copy of the starter the learner can edit, in the settings folder (never over an earlier copy).
std::filesystem::path starterCopy(const grade::Exercise& ex) {
    std::filesystem::path dir = configDir();
    if (dir.empty()) dir = std::filesystem::temp_directory_path() / "warpscope";
    dir /= "exercises";
    std::filesystem::path file = dir / (ex.lesson + "-" + ex.id + ex.starter.extension().string());
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (!std::filesystem::exists(file)) std::filesystem::copy_file(ex.starter, file, ec);
    return file;
}

void showWhy(AppContext& app, const grade::Criterion& c) {
    for (auto& p : panels())
        if (c.panel == p.id) {
            app.settings.panelsOpen[p.id] = true;
            state().focusTitle = p.title;
            state().focusFrames = 3;
        }
    if (c.line > 0) {
        app.ui.clickedLine = uint32_t(c.line);
        app.ui.scrollToLine = uint32_t(c.line);
    }
}

ExerciseModel& model(AppContext& app) {
    ExerciseUi& u = state();
    if (!u.model) u.model = std::make_unique<ExerciseModel>(app.ui.lessonsDir, progressFile());
    return *u.model;
}

} // namespace

void drawExerciseProgressLine(AppContext& app) {
    if (app.ui.current < 0 || size_t(app.ui.current) >= app.ui.lessons.size()) return;
    ExerciseModel& m = model(app);
    const std::string& lesson = app.ui.lessons[size_t(app.ui.current)].id;
    size_t n = m.exercisesOf(lesson).size();
    if (n == 0) return;
    ImGui::Text("Exercises: %d of %zu solved", m.progress().solvedIn(lesson), n);
    ImGui::SameLine();
    if (ImGui::SmallButton("Open##exercises")) {
        app.settings.panelsOpen["exercise"] = true;
        state().focusTitle = "Exercise";
        state().focusFrames = 3;
    }
}

void drawExercisePanel(AppContext& app) {
    ExerciseUi& u = state();
    ExerciseModel& m = model(app);
    if (u.focusFrames > 0) {
        ImGui::SetWindowFocus(u.focusTitle.c_str());
        --u.focusFrames;
    }
    std::string lesson = app.ui.current >= 0 && size_t(app.ui.current) < app.ui.lessons.size() ? app.ui.lessons[size_t(app.ui.current)].id : "";
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
        std::string p = starterCopy(ex).string();
        std::snprintf(u.path, sizeof u.path, "%s", p.c_str());
        u.note = "Copied to " + p + ": edit it, save, then Grade.";
    }
    ImGui::SameLine();
    bool busy = m.grading();
    ImGui::BeginDisabled(busy || u.path[0] == 0);
    if (ImGui::Button(busy ? "Grading..." : "Grade")) m.grade(u.path);
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
            if (ImGui::BeginTable("criteria", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
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
                    if (!c.passed && !c.panel.empty() && ImGui::SmallButton("Show why")) showWhy(app, c);
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

} // namespace warpscope::gui
