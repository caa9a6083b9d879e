// The Console: a whole program's Build / Run / Stop / Continue, the "pause at each launch" toggle,
// and what the program prints (stdout, stderr in the fault colour, the app's notes dimmed) as it
// runs in its sandboxed child process. Also the per-frame glue that takes a paused launch from
// the program model and loads it into the session as a lesson, the way the editor's kernels and
// the lessons get there (AppContext::loadLesson), so every panel steps it.
#include "gui/panels/panels.hpp"

#include <filesystem>

namespace warpscope::gui {

namespace {

using namespace okabe_ito;

// The paused launch, as the session's current lesson ("program").
void loadPausedLaunch(AppContext& app, const PausedLaunch& p) {
    runtime::Lesson L = p.lesson;
    L.id = "program";
    L.title = "Program " + app.program->file().filename().string() + ", launch " + std::to_string(p.index) + ": " + p.kernel;
    L.order = 1000001;
    int index = -1;
    for (size_t i = 0; i < app.ui.lessons.size(); ++i)
        if (app.ui.lessons[i].id == "program") index = static_cast<int>(i);
    if (index < 0) {
        app.ui.lessons.push_back(std::move(L));
        index = static_cast<int>(app.ui.lessons.size()) - 1;
    } else {
        app.ui.lessons[static_cast<size_t>(index)] = std::move(L);
    }
    const std::string keep = app.settings.lastLesson;
    app.ui.current = -1;   // every launch starts afresh, even when the last one was the current lesson
    app.loadLesson(index);
    app.settings.lastLesson = keep;   // not a lesson to reopen at the next start
}

Rgb streamColor(ConsoleStream s, bool dark) {
    switch (s) {
    case ConsoleStream::Out: return dark ? Rgb{225, 225, 225} : Rgb{20, 20, 20};
    case ConsoleStream::Err: return faultColor();
    case ConsoleStream::Note: return dark ? SkyBlue : Blue;
    }
    return Rgb{128, 128, 128};
}

} // namespace

bool programActive(const AppContext& app) { return app.program && app.program->active(); }

void programBuild(AppContext& app) {
    if (!programActive(app)) return;
    app.program->build(app.editor->text());
}

void programRun(AppContext& app) {
    ProgramModel& p = *app.program;
    if (p.state() == ProgramModel::State::Running || p.state() == ProgramModel::State::Paused) return;
    // Text changed since the last build (or never built): build first, then run.
    if (!p.built() || app.editor->dirty() || p.state() == ProgramModel::State::Idle) {
        app.programUi.runWhenBuilt = true;
        programBuild(app);
        return;
    }
    std::string error;
    if (!p.run(&error)) p.console().note("warpscope: cannot run: " + error);
}

void programFrame(AppContext& app) {
    if (!app.program) return;
    ProgramModel& p = *app.program;
    if (p.poll() && app.programUi.runWhenBuilt) {
        app.programUi.runWhenBuilt = false;
        if (p.state() == ProgramModel::State::Built) {
            std::string error;
            if (!p.run(&error)) p.console().note("warpscope: cannot run: " + error);
        }
    }
    if (std::optional<PausedLaunch> launch = p.takePaused()) loadPausedLaunch(app, *launch);
}

void drawConsolePanel(AppContext& app) {
    if (!programActive(app)) {
        ImGui::TextWrapped("Open a whole CUDA program (a .cu with main: File > Open, or warpscope-gui prog.cu): Build and Run it "
                           "here, and what it prints appears below. Its host code runs in a sandboxed process of its own.");
        return;
    }
    ProgramModel& p = *app.program;
    const ProgramModel::State st = p.state();
    const bool running = st == ProgramModel::State::Running || st == ProgramModel::State::Paused;
    ImGui::BeginDisabled(running || st == ProgramModel::State::Building);
    if (ImGui::SmallButton("Build")) programBuild(app);
    if (ImGui::IsItemHovered()) tooltip("Compile host and device code (Ctrl+B); errors are marked at their lines in the editor");
    ImGui::SameLine();
    if (ImGui::SmallButton("Run")) programRun(app);
    if (ImGui::IsItemHovered()) tooltip("Run the program in its sandbox (Ctrl+R); builds first if the text changed");
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!running);
    if (ImGui::SmallButton("Stop")) p.stop();
    if (ImGui::IsItemHovered()) tooltip("End the program and everything it started");
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(st != ProgramModel::State::Paused);
    if (ImGui::SmallButton("Continue")) p.continueRun();
    if (ImGui::IsItemHovered()) tooltip("Let the program run this launch and go on to its next pause");
    ImGui::SameLine();
    if (ImGui::SmallButton("Run to end")) p.runToEnd();
    if (ImGui::IsItemHovered()) tooltip("No more pauses in this run");
    ImGui::EndDisabled();
    const char* pauseLabel = "Pause at each launch";
    sameLineIfFits(ImGui::CalcTextSize(pauseLabel).x + ImGui::GetFrameHeightWithSpacing());   // else its own row
    ImGui::BeginDisabled(running);
    ImGui::Checkbox(pauseLabel, &p.pauseAtLaunches);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered())
        tooltip("Stop before every kernel launch of at most %llu threads so its warps can be stepped in the panels (applies to the next Run)",
                static_cast<unsigned long long>(p.pauseMaxThreads));
    // The program's command line (argv[1] on), for the next Run.
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Arguments");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-FLT_MIN);
    ImGui::BeginDisabled(running);
    if (ImGui::InputTextWithHint("##arguments", "none (as the shell would: 1024 \"two words\")", app.programUi.arguments, sizeof app.programUi.arguments))
        p.arguments = app.programUi.arguments;
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered()) tooltip("The program's command-line arguments, argv[1] on, split at spaces as a shell splits them; used by the next Run");
    using namespace okabe_ito;
    const Rgb stateColor = st == ProgramModel::State::BuildFailed ? faultColor()
                           : st == ProgramModel::State::Paused    ? Orange
                           : st == ProgramModel::State::Running   ? BluishGreen
                                                                  : Rgb{150, 150, 150};
    ImGui::TextColored(colv(stateColor), "%s", programStateName(st));
    ImGui::SameLine();
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", p.statusText().c_str());
    ImGui::PopTextWrapPos();

    const std::vector<ConsoleLine> lines = p.console().lines();
    // Up to a few thousand lines wrap at the panel's width (nothing cut off); a long output is
    // drawn one line per row, only the rows in view, with a horizontal scroll bar.
    const bool wrap = lines.size() <= 3000;
    ImGui::BeginChild("console-lines", ImVec2(0, 0), true, wrap ? 0 : ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::PushFont(app.fonts.mono);
    const bool atBottom = ImGui::GetScrollY() >= ImGui::GetScrollMaxY() - 2;
    auto drawLine = [&](const ConsoleLine& l) {
        ImGui::PushStyleColor(ImGuiCol_Text, colv(streamColor(l.stream, app.settings.darkTheme)));
        if (wrap) {
            ImGui::PushTextWrapPos(0);
            ImGui::TextUnformatted(l.text.empty() ? " " : l.text.c_str());
            ImGui::PopTextWrapPos();
        } else {
            ImGui::TextUnformatted(l.text.empty() ? " " : l.text.c_str());
        }
        ImGui::PopStyleColor();
    };
    if (wrap) {
        for (const ConsoleLine& l : lines) drawLine(l);
    } else {
        ImGuiListClipper clip;
        clip.Begin(static_cast<int>(lines.size()));
        while (clip.Step())
            for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) drawLine(lines[static_cast<size_t>(i)]);
    }
    const uint64_t rev = p.console().revision();
    if (atBottom && rev != app.programUi.shownConsoleRevision) ImGui::SetScrollHereY(1.0f);
    app.programUi.shownConsoleRevision = rev;
    ImGui::PopFont();
    ImGui::EndChild();
}

void drawProgramLaunch(AppContext& app) {
    const std::optional<PausedLaunch>& pl = app.program->paused();
    ImGui::TextWrapped("The program sets each launch's configuration: it is shown here as the program gave it (read-only).");
    if (!pl) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", app.program->pauseAtLaunches ? "Run the program: it pauses at its first launch." : "Pause at each launch is off (Console).");
        ImGui::PopStyleColor();
        return;
    }
    const PausedLaunch& l = *pl;
    // Wrapped at the panel's width: nothing of the configuration is cut off.
    ImGui::TextWrapped("launch %d: %s", l.index, l.kernel.c_str());
    ImGui::TextWrapped("grid  (%u, %u, %u)", l.grid[0], l.grid[1], l.grid[2]);
    ImGui::TextWrapped("block (%u, %u, %u)", l.block[0], l.block[1], l.block[2]);
    ImGui::TextWrapped("dynamic shared memory: %u bytes", l.dynamicShared);
    for (size_t i = 0; i < l.args.size(); ++i) ImGui::TextWrapped("parameter %zu: %s", i, l.args[i].c_str());
    if (app.program->state() == ProgramModel::State::Paused) {
        if (ImGui::Button("Continue")) app.program->continueRun();
        if (ImGui::IsItemHovered()) tooltip("Let the program run this launch and go on to its next pause");
    }
}

} // namespace warpscope::gui

namespace warpscope::gui {

void runProgramHeadless(AppContext& app) {
    ProgramModel& p = *app.program;
    p.waitBuild(300);
    programFrame(app);   // takes the build
    if (p.state() != ProgramModel::State::Built) return;   // the screenshot shows the marked errors
    std::string error;
    if (!p.run(&error)) {
        p.console().note("warpscope: cannot run: " + error);
        return;
    }
    p.waitFor({ProgramModel::State::Paused, ProgramModel::State::Ended}, 120);
    programFrame(app);   // a paused launch into the session
    app.session.waitIdle(120);
}

} // namespace warpscope::gui

#include <nlohmann/json.hpp>

namespace warpscope::gui {

nlohmann::json programSidecar(const AppContext& app) {
    if (!programActive(app)) return {};
    const ProgramModel& p = *app.program;
    nlohmann::json j;
    j["file"] = p.file().filename().string();
    j["state"] = programStateName(p.state());
    j["status"] = p.statusText();
    j["arguments"] = p.arguments;
    j["isolated"] = p.isolated();
    if (p.paused()) j["paused_launch"] = p.paused()->index;
    j["console"] = p.console().text();
    j["diagnostics"] = static_cast<int>(p.diagnostics().size());
    return j;
}

} // namespace warpscope::gui

namespace warpscope::gui {

std::shared_ptr<const TimelineResult> programTimelineResult(AppContext& app) {
    if (!programActive(app)) return nullptr;
    std::shared_ptr<const runtime::Timeline> tl = app.program->timeline();
    if (!tl) return nullptr;
    if (app.programUi.timelineOf != tl) {
        auto r = std::make_shared<TimelineResult>();
        r->lessonId = "program";
        r->preset = timing::kDefaultPreset;
        r->simOk = true;
        r->sim = *tl;
        r->sim.source = "the program " + app.program->file().filename().string() + " (" + tl->source + ")";
        app.programUi.timeline = r;
        app.programUi.timelineOf = tl;
    }
    return app.programUi.timeline;
}

} // namespace warpscope::gui
