// The app's options, start-up and frame loop, shared by warpscope-gui (main.cpp: a GLFW window)
// and warpscope-framebench (framebench/: EGL, an offscreen framebuffer). OpenGL 3.3 core, Dear
// ImGui; every panel reads the Session's latest snapshot each frame. What differs between the two
// programs is behind gui::Platform (app_main.hpp).
//
// Headless uses (under Xvfb):
//   --lesson ID --steps N --screenshot out.png [--size WxH]   render, write PNG + out.png.json, exit
//   --bench-frames N                                          print the median frame time
//   --lesson ID --exercise EX --solution F --grade [--show-why NAME] --screenshot out.png
//                                                             grade F, show why a criterion failed
//
// One frame is drawn by panels/frame.cpp, fonts and style are in render/fonts.cpp.
//
// Sections: 1. options  2. main
#include "gui/app_main.hpp"
#include "gui/panels/frame.hpp"
#include "gui/panels/panels.hpp"
#include "gui/render/fonts.hpp"
#include "gui/panels/screenshot.hpp"

#include "base/data_dir.hpp"
#include "base/parse_number.hpp"
#include "base/error.hpp"
#include "gui/model/open_path.hpp"
#include "warpscope_version.hpp"
#include "runtime/lesson.hpp"

#include "gui/render/gl.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <nlohmann/json.hpp>
#include <map>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

namespace fs = std::filesystem;

namespace warpscope::gui {

namespace {

// ---------------------------------------------------------------- 1. options
const char* kUsage = R"(warpscope-gui - step CUDA kernels warp by warp

usage: warpscope-gui [options] [PATH]
  PATH                  a lesson folder or launch spec .json to open (as --lesson), or a kernel
                        (.cu, .ptx) to open in the editor (built, and run from the Launch panel)
  --lesson ID|DIR       open this lesson (default: the last one used, or the first)
  --param NAME=VALUE    lesson parameter (repeatable)
  --lessons DIR         the lessons folder (default: $WARPSCOPE_LESSONS, else the installed or
                        source tree's lessons/)
  --scale F             UI scale (e.g. 1.5 for a projector)
  --light               light theme
  --no-settings         do not read or write settings and layout (also: WARPSCOPE_NO_SETTINGS=1)
  --steps N             step N warp-instructions after loading
  --select B,W          select warp W of block B (linear block index)
  --text-step K         show step K (1-based) of the lesson's text
  --do-step             with --text-step: do that step's actions, as its "Do it" button does
  --screenshot FILE     render one frame to FILE (PNG) and FILE.json (panel rectangles), then exit
  --size WxH            window size (default: the screen's work area, maximized; 1600x1000 headless)
  --fonts DIR           look for the font files (assets/fonts.json) in DIR first
  --screenshot-matrix DIR  one screenshot (+ .json) per layout x size x scale into DIR, from one
                        process: each layout is chosen once, then the window is resized and
                        rescaled as a user would (DIR/LAYOUT-WxH-sSCALE.png)
  --matrix-sizes LIST   sizes for --screenshot-matrix (default 1280x720,1600x1000,1920x1080)
  --matrix-scales LIST  scales for --screenshot-matrix (default 1,1.5,2)
  --matrix-layouts LIST layouts for --screenshot-matrix (default: all)
  --bench-frames N      render N frames and print the median frame time, then exit
  --bench-run           keep the simulation running during --bench-frames
  --layout NAME         stepping | memory | compare | checks | timing | streams | editor | exercise | presenter | ... (an unknown name lists them all)
  --exercise ID         open the lesson's exercise ID in the Exercise layout
  --solution FILE       with --exercise: the file to grade (a .cu, or a .json host program)
  --grade               grade it now (waits for the result)
  --show-why NAME       after --grade: "Show why" of the first failed criterion whose name starts
                        with NAME ("first": the first failed one with a panel)
  --timed               Timed mode: run launches on the cycle model; steps are cycles
  --gpu PRESET          the GPU preset for Timed mode (h100, teaching, ... or a .json file; implies --timed)
  --ncu FILE.csv        import hardware counters from an `ncu --csv` file (Compare panel)
  --initcheck           report reads of memory nothing has written
  --racecheck           report shared-memory races between warps
  --budget N            sandbox: warp-instructions per launch (View > Limits; saved when not headless)
  --max-blocks N        sandbox: blocks per launch
  --device-memory N     sandbox: bytes of device memory (0 = half the RAM)
  --gpu                 (with no preset after it) turn "Run on GPU" on (where a GPU can be opened)
  --go-to-report K      after --steps, "go to line" of checker report K (1-based)
  --recovery-status     say whether the editor kept unsaved text from an earlier run, then exit
  --test-type TEXT      (tests) append TEXT to the opened kernel as if typed
  --no-pause            a whole program runs without pausing at its launches
  --args "A B ..."      a whole program's command-line arguments (the Console's Arguments field)
  --version             print the version and the git commit, then exit
)";

struct Options {
    std::string lesson, lessonsDir, screenshot;
    std::string openPath;   // a positional PATH (from the file manager or the desktop entry)
    std::map<std::string, std::string> params;
    uint64_t steps = 0;
    int width = 1600, height = 1000;
    bool sizeGiven = false;   // --size: exactly that; else the desktop app fills the screen
    int benchFrames = 0;
    bool benchRun = false;
    bool noSettings = false;
    bool light = false;
    bool noPause = false;   // a whole program: no pause at its launches
    std::optional<std::string> programArgs;   // a whole program's arguments, as the Console's field holds them
    float scale = 0;
    int selBlock = -1, selWarp = -1;
    int textStep = 0;
    bool doStep = false;
    std::string layout, ncu;
    bool initcheck = false, racecheck = false, gpu = false;
    std::optional<uint64_t> budget, maxBlocks, deviceMemory;   // sandbox limits (else the settings')
    bool timed = false;
    std::string gpuPreset;
    int goToReport = 0;
    std::string matrixDir;
    std::string matrixSizes = "1280x720,1600x1000,1920x1080", matrixScales = "1,1.5,2", matrixLayouts;
    std::string fontsDir;
    std::string kernelPath;   // a .cu/.ptx PATH: opened in the editor
    std::string testType;
    bool recoveryStatus = false;
    ExerciseArgs exercise;   // --exercise, --solution, --grade, --show-why
};

// One screenshot of --screenshot-matrix.
struct MatrixShot {
    std::string layout;
    int width = 0, height = 0;
    float scale = 1;
};

std::vector<std::string> splitList(const std::string& s) {
    std::vector<std::string> out;
    size_t at = 0;
    while (at <= s.size()) {
        size_t comma = s.find(',', at);
        if (comma == std::string::npos) comma = s.size();
        if (comma > at) out.push_back(s.substr(at, comma - at));
        at = comma + 1;
    }
    return out;
}

// Layout-major, so a layout is chosen once and then follows the window and scale changes.
std::vector<MatrixShot> matrixShots(const Options& o) {
    std::vector<std::string> ls = splitList(o.matrixLayouts);
    if (ls.empty())
        for (auto& l : layouts()) ls.push_back(l.id);
    std::vector<MatrixShot> out;
    for (auto& l : ls) {
        if (!findLayout(l)) throw Error(Error::Kind::Input, "--matrix-layouts: no layout named '" + l + "'.");
        for (auto& sz : splitList(o.matrixSizes)) {
            MatrixShot m;
            m.layout = l;
            if (std::sscanf(sz.c_str(), "%dx%d", &m.width, &m.height) != 2 || m.width < 320 || m.height < 240)
                throw Error(Error::Kind::Input, "--matrix-sizes expects WxH,... (each at least 320x240), got '" + sz + "'.");
            for (auto& sc : splitList(o.matrixScales)) {
                char* end = nullptr;
                m.scale = std::strtof(sc.c_str(), &end);
                if (end == sc.c_str() || *end || m.scale < 0.5f || m.scale > 3.0f)
                    throw Error(Error::Kind::Input, "--matrix-scales expects numbers from 0.5 to 3, got '" + sc + "'.");
                out.push_back(m);
            }
        }
    }
    return out;
}

bool parseArgs(int argc, char** argv, Options& o, const char* programName) {
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto val = [&]() -> std::string {
            if (i + 1 >= argc) throw Error(Error::Kind::Input, a + " needs a value.");
            return argv[++i];
        };
        if (a == "--lesson") o.lesson = val();
        else if (a == "--lessons") o.lessonsDir = val();
        else if (a == "--param") {
            std::string kv = val();
            auto eq = kv.find('=');
            if (eq == std::string::npos || eq == 0) throw Error(Error::Kind::Input, "--param expects NAME=VALUE, got '" + kv + "'.");
            o.params[kv.substr(0, eq)] = kv.substr(eq + 1);
        } else if (a == "--steps") o.steps = std::stoull(val());
        else if (a == "--screenshot") o.screenshot = val();
        else if (a == "--screenshot-matrix") o.matrixDir = val();
        else if (a == "--matrix-sizes") o.matrixSizes = val();
        else if (a == "--matrix-scales") o.matrixScales = val();
        else if (a == "--matrix-layouts") o.matrixLayouts = val();
        else if (a == "--text-step") o.textStep = std::stoi(val());
        else if (a == "--do-step") o.doStep = true;
        else if (a == "--select") {
            std::string s = val();
            if (std::sscanf(s.c_str(), "%d,%d", &o.selBlock, &o.selWarp) != 2 || o.selBlock < 0 || o.selWarp < 0)
                throw Error(Error::Kind::Input, "--select expects BLOCK,WARP, got '" + s + "'.");
        }
        else if (a == "--size") {
            std::string s = val();
            if (std::sscanf(s.c_str(), "%dx%d", &o.width, &o.height) != 2 || o.width < 320 || o.height < 240)
                throw Error(Error::Kind::Input, "--size expects WxH (at least 320x240), got '" + s + "'.");
            o.sizeGiven = true;
        } else if (a == "--bench-frames") o.benchFrames = std::stoi(val());
        else if (a == "--bench-run") o.benchRun = true;
        else if (a == "--layout") {
            o.layout = val();
            if (!findLayout(o.layout)) {
                std::string names;   // from the layout table, so a new layout is listed by itself
                for (auto& l : layouts()) names += (names.empty() ? "" : ", ") + std::string(l.id);
                throw Error(Error::Kind::Input, "--layout expects one of " + names + "; got '" + o.layout + "'.");
            }
        } else if (a == "--ncu") o.ncu = val();
        else if (a == "--initcheck") o.initcheck = true;
        else if (a == "--racecheck") o.racecheck = true;
        else if (a == "--budget") o.budget = parseCount(val(), "--budget");
        else if (a == "--max-blocks") o.maxBlocks = parseCount(val(), "--max-blocks");
        else if (a == "--device-memory") o.deviceMemory = parseSize(val(), "--device-memory");
        else if (a == "--timed") o.timed = true;
        else if (a == "--gpu") {
            // "--gpu PRESET" picks a preset for Timed mode; a bare "--gpu" is the hardware toggle.
            if (i + 1 < argc && argv[i + 1][0] != '-') {
                o.gpuPreset = argv[++i];
                o.timed = true;
            } else {
                o.gpu = true;
            }
        }
        else if (a == "--go-to-report") o.goToReport = std::stoi(val());
        else if (a == "--exercise") o.exercise.id = val();
        else if (a == "--solution") o.exercise.solution = val();
        else if (a == "--grade") o.exercise.grade = true;
        else if (a == "--show-why") o.exercise.showWhy = val();
        else if (a == "--no-settings") o.noSettings = true;
        else if (a == "--recovery-status") o.recoveryStatus = true;
        else if (a == "--test-type") o.testType = val();
        else if (a == "--no-pause") o.noPause = true;
        else if (a == "--args") o.programArgs = val();
        else if (a == "--light") o.light = true;
        else if (a == "--fonts") o.fontsDir = val();
        else if (a == "--scale") o.scale = std::stof(val());
        else if (a == "--help" || a == "-h") {
            std::cout << kUsage;
            return false;
        } else if (a == "--version") {
            std::printf("%s %s (git %s)\n", programName, kVersion, kGitCommit);
            return false;
        } else if (!a.empty() && a[0] != '-') {
            if (!o.openPath.empty()) throw Error(Error::Kind::Input, "One PATH at a time: got '" + o.openPath + "' and '" + a + "'.");
            o.openPath = a;
        } else throw Error(Error::Kind::Input, "Unknown option '" + a + "'.\n" + kUsage);
    }
    return true;
}

// Median and 90th percentile of `ms` without its first `skip` (warm-up) frames.
struct FrameStats {
    double median = 0, p90 = 0, worst = 0;
};
FrameStats frameStats(const std::vector<double>& ms, size_t skip) {
    std::vector<double> v(ms.begin() + static_cast<std::ptrdiff_t>(skip), ms.end());
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v[v.size() * 9 / 10], v.back()};
}

} // namespace

// ---------------------------------------------------------------- 2. main
// What the frame loop uses lives on the heap: where the platform's frames outlive runApp (the web
// page: the browser calls each frame; Platform::framesOutliveRunApp), it is kept for the page's
// life instead of being destroyed when runApp returns.
struct RunHeld {
    Options opt;
    std::vector<MatrixShot> matrix;
    Settings settings;
};
struct LoopHeld {
    LoopHeld(sim::LaunchOptions o, Settings& settings) : session(std::move(o)), app(session, settings) {}
    Session session;
    AppContext app;
    FrameState fst;
    std::vector<double> frameMs, uiMs;   // whole frame; building the UI (CPU, before GL draws)
    int rc = 0, framesLeft = -1, screenshotWaits = 0;
    size_t matrixAt = 0;   // --screenshot-matrix: the shot being prepared, and its frames so far
    int matrixFrames = 0, matrixSettled = 0;
};

int runApp(int argc, char** argv, Platform& platform) {
    auto held = std::make_unique<RunHeld>();
    Options& opt = held->opt;
    if (!parseArgs(argc, argv, opt, platform.programName())) return 0;
    std::vector<MatrixShot>& matrix = held->matrix;
    if (!opt.matrixDir.empty()) matrix = matrixShots(opt);
    const ExerciseArgs& exa = opt.exercise;
    if (exa.id.empty() && (!exa.solution.empty() || exa.grade || !exa.showWhy.empty()))
        throw Error(Error::Kind::Input, "--solution, --grade and --show-why need --exercise ID.");
    if (!exa.id.empty() && opt.lesson.empty() && opt.openPath.empty()) throw Error(Error::Kind::Input, "--exercise needs --lesson ID.");
    if (exa.grade && exa.solution.empty()) throw Error(Error::Kind::Input, "--grade needs --solution FILE.");
    if (!exa.showWhy.empty() && !exa.grade) throw Error(Error::Kind::Input, "--show-why needs --grade.");
    if (!exa.solution.empty() && !fs::is_regular_file(exa.solution)) throw Error(Error::Kind::Input, "--solution: no file '" + exa.solution + "'.");
    bool headless = !opt.screenshot.empty() || opt.benchFrames > 0 || !matrix.empty();
    if (headless || opt.noSettings) disablePersistence();
    fs::path cfgDir = configDir();
    Settings& settings = held->settings;
    settings = loadSettings(cfgDir.empty() ? fs::path() : cfgDir / "settings.json");
    if (headless) settings = Settings{};
    if (opt.scale > 0) settings.uiScale = std::clamp(opt.scale, 0.5f, 3.0f);
    if (opt.light) settings.darkTheme = false;
    if (opt.budget) settings.limits.instructionBudget = *opt.budget;
    if (opt.maxBlocks) settings.limits.maxBlocks = *opt.maxBlocks;
    if (opt.deviceMemory) settings.limits.deviceMemoryBytes = *opt.deviceMemory;

    if (opt.recoveryStatus) {
        std::optional<Recovery> r = findRecovery(defaultAutosavePath());
        if (!r) std::printf("no unsaved editor text\n");
        else std::printf("unsaved editor text of %s from %s (%zu bytes)\n", r->file.empty() ? "a new kernel" : r->file.string().c_str(), r->savedAt.c_str(), r->text.size());
        return r ? 0 : 1;
    }
    // Lessons first: a bad --lesson or --param is reported before any window opens.
    if (!opt.openPath.empty()) {
        if (!opt.lesson.empty()) throw Error(Error::Kind::Input, "Give either --lesson or a PATH, not both.");
        OpenTarget t = gui::openTargetFor(opt.openPath);
        if (t.kind == OpenTarget::Kind::Kernel) opt.kernelPath = t.path.string();
        else opt.lesson = t.path.string();
    }
    const fs::path bundledLessons = runtime::findLessonsDir(argv[0]);
    fs::path lessonsDir = !opt.lessonsDir.empty() ? fs::path(opt.lessonsDir) : bundledLessons;
    const fs::path dataDir = base::findDataDir(argv[0]);   // the installed share/warpscope or the source tree
    setDataFolder(dataDir);
    setFontsFolder(dataDir.empty() ? fs::path() : dataDir / "assets");
    if (!opt.fontsDir.empty()) addFontFolder(opt.fontsDir);
    std::vector<std::string> lessonErrors;
    std::vector<runtime::Lesson> lessons = runtime::listLessons(lessonsDir, &lessonErrors);
    int pick = lessons.empty() ? -1 : 0;
    if (!opt.lesson.empty()) {
        pick = -1;
        for (size_t i = 0; i < lessons.size(); ++i)
            if (lessons[i].id == opt.lesson) pick = static_cast<int>(i);
        std::error_code ec;
        if (pick < 0 && fs::exists(opt.lesson, ec)) {
            lessons.push_back(runtime::loadLesson(opt.lesson));
            pick = static_cast<int>(lessons.size()) - 1;
        }
        if (pick < 0) throw Error(Error::Kind::Input, "No lesson named '" + opt.lesson + "' in " + lessonsDir.string() + ".");
    } else if (!opt.kernelPath.empty()) {
        pick = -1;   // the editor's kernel is what runs
    } else if (!settings.lastLesson.empty()) {
        for (size_t i = 0; i < lessons.size(); ++i)
            if (lessons[i].id == settings.lastLesson) pick = static_cast<int>(i);
    }
    runtime::ParamValues params;
    if (pick >= 0) params = runtime::resolveParams(lessons[static_cast<size_t>(pick)], opt.params);
    // GPU presets (Timed mode); a bad --gpu is reported before any window opens too.
    std::vector<std::string> presetErrors;
    std::vector<timing::GpuSpec> presets = timing::allPresets(timing::presetFolders(), &presetErrors);
    int presetPick = 0;
    for (size_t i = 0; i < presets.size(); ++i)
        if (presets[i].name == timing::kDefaultPreset) presetPick = static_cast<int>(i);
    if (!opt.gpuPreset.empty()) {
        timing::GpuSpec want = timing::resolvePreset(opt.gpuPreset);
        presetPick = -1;
        for (size_t i = 0; i < presets.size(); ++i)
            if (presets[i].name == want.name) {
                presets[i] = want;   // a .json path may redefine a preset of the same name
                presetPick = static_cast<int>(i);
            }
        if (presetPick < 0) {
            presets.push_back(want);
            presetPick = static_cast<int>(presets.size()) - 1;
        }
    }

    if (!opt.sizeGiven && !headless) platform.fillScreen();
    if (!platform.open(opt.width, opt.height, headless)) return 1;

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    static std::string iniPath;
    if (!cfgDir.empty()) {
        std::error_code ec;
        fs::create_directories(cfgDir, ec);
        iniPath = (cfgDir / "imgui.ini").string();
        io.IniFilename = iniPath.c_str();
    } else {
        io.IniFilename = nullptr;
    }
    io.ConfigWindowsMoveFromTitleBarOnly = true;
    platform.initImGui();
    if (!ImGui_ImplOpenGL3_Init(platform.glslVersion())) {
        // Its loader dlopens libGL.so.1 and asks glXGetProcAddressARB for the GL 3 entry points.
        std::fprintf(stderr, "%s: Dear ImGui's OpenGL3 renderer cannot start (it loads libGL.so.1; is it on the library path?)\n",
                     platform.programName());
        ImGui::DestroyContext();
        platform.close();
        return 1;
    }

    std::unique_ptr<LoopHeld> loopHeld;
    {
        loopHeld = std::make_unique<LoopHeld>(launchOptions(settings), settings);   // the sandbox limits the user set (View > Limits)
        Session& session = loopHeld->session;
        int& rc = loopHeld->rc;
        session.setSpeed(settings.speed);
        AppContext& app = loopHeld->app;
        app.ui.lessons = std::move(lessons);
        app.ui.lessonErrors = std::move(lessonErrors);
        app.ui.lessonsDir = lessonsDir.string();
        app.ui.headless = headless;
        app.snap = session.snapshot();
        app.editor = std::make_unique<EditorModel>(headless ? fs::path() : defaultAutosavePath());
        if (!headless) app.editorUi.recovery = findRecovery(app.editor->autosaveFile());
        FrameState& fst = loopHeld->fst;
        fst.layoutAlways = headless && matrix.empty();   // the matrix re-lays out as a resized window does
        fst.explicitLayout = !opt.layout.empty();
        // Presenter chosen at start is for a projector as when it is chosen from the menu: at least
        // scale 1.5 (an explicit --scale stands), the earlier scale back when another layout is chosen.
        if (opt.layout == "presenter" && opt.scale <= 0 && settings.uiScale < 1.5f) {
            fst.presenterScaleBefore = settings.uiScale;
            settings.uiScale = 1.5f;
        }
        buildFonts(app.fonts, settings.uiScale, false);
        applyStyle(settings.darkTheme, settings.uiScale);
        fst.builtScale = settings.uiScale;
        fst.builtDark = settings.darkTheme;
        app.ui.layout = findLayout(settings.layout) ? settings.layout : "stepping";
        if (!opt.layout.empty()) applyLayout(app, opt.layout);
        // Unsaved text from the last run is offered in the Editor panel: show it.
        if (app.editorUi.recovery && opt.layout.empty()) applyLayout(app, "editor");
        if (!opt.ncu.empty() && !app.importNcu(opt.ncu)) throw Error(Error::Kind::Input, "--ncu: " + app.ui.ncuError);
        if (opt.gpu) app.ui.runOnGpu = gpuToggle().enabled;
        if (opt.initcheck || opt.racecheck) session.setCheckers(opt.initcheck, opt.racecheck);
        app.ui.presets = std::move(presets);
        app.ui.presetErrors = std::move(presetErrors);
        app.ui.preset = presetPick;
        if (opt.timed) {
            app.ui.timed = true;
            app.applyTiming();
        }
        if (pick >= 0) {
            app.loadLesson(pick);
            if (!opt.params.empty()) {
                app.ui.params = params;
                app.applyParams();
            }
            if (!settings.followIssuing) session.setFollow(false);
        }
        if (!opt.kernelPath.empty()) {
            if (opt.layout.empty()) applyLayout(app, "editor");
            if (!app.openPath(opt.kernelPath)) throw Error(Error::Kind::Input, app.editorUi.message);
            if (!opt.testType.empty()) app.editor->edit(app.editor->text() + opt.testType, 0);
            if (opt.noPause) app.program->pauseAtLaunches = false;
            if (opt.programArgs) {
                app.program->arguments = *opt.programArgs;
                std::snprintf(app.programUi.arguments, sizeof app.programUi.arguments, "%s", opt.programArgs->c_str());
            }
            if (headless && programActive(app)) {
                // A whole program: built, run until its first pause (or its end), that launch loaded.
                runProgramHeadless(app);
            } else if (headless) {
                // A screenshot shows the build's outcome, and a good build loaded (and stepped).
                app.editor->waitBuild(120);
                editorFrame(app);
            }
            pick = app.ui.current;
        }
        if (!opt.exercise.id.empty()) {
            session.waitIdle(120);
            exerciseCommandLine(app, opt.exercise);
        }
        if (opt.textStep > 0) app.ui.stepSection = opt.textStep - 1;
        if (opt.doStep && opt.textStep > 0 && pick >= 0) {
            session.waitIdle(120);
            app.snap = session.snapshot();
            doLessonStepActions(app, opt.textStep - 1);
        }
        if (opt.selBlock >= 0) {
            session.select(static_cast<uint32_t>(opt.selBlock), static_cast<uint32_t>(opt.selWarp), false);
            settings.followIssuing = false;
        }
        if (opt.steps > 0) session.runSteps(opt.steps);
        if (headless) session.waitIdle(120);
        if (opt.goToReport > 0) {
            auto s = session.snapshot();
            if (static_cast<size_t>(opt.goToReport) <= s->reports.size()) {
                const ReportView& r = s->reports[static_cast<size_t>(opt.goToReport - 1)];
                app.goToSite(r.site, r.grid, r.block);
                session.waitIdle(30);
            } else {
                std::fprintf(stderr, "%s: --go-to-report %d: there are %zu reports\n", platform.programName(), opt.goToReport, s->reports.size());
            }
        }
        if (headless && settings.panelsOpen["compare"] && pick >= 0) {
            app.startCompare();
            app.compare->waitIdle(120);
        }
        if (headless && settings.panelsOpen["timeline"] && pick >= 0) {
            app.snap = session.snapshot();
            requestTimelineRun(app, false, 0);
            app.timeline->waitIdle(120);
        }
        if (opt.benchRun) session.run();

        using Clock = std::chrono::steady_clock;
        std::vector<double>& frameMs = loopHeld->frameMs;
        std::vector<double>& uiMs = loopHeld->uiMs;
        int& framesLeft = loopHeld->framesLeft;
        framesLeft = !opt.screenshot.empty() ? 3 : opt.benchFrames > 0 ? opt.benchFrames + 5 : -1;
        int& screenshotWaits = loopHeld->screenshotWaits;
        size_t& matrixAt = loopHeld->matrixAt;
        int& matrixFrames = loopHeld->matrixFrames;
        int& matrixSettled = loopHeld->matrixSettled;
        if (!matrix.empty()) {
            std::error_code ec;
            fs::create_directories(opt.matrixDir, ec);
        }   // bounded, so a run that never ends cannot keep a screenshot from being taken
        // One frame; false when the loop ends. Everything it captures by reference is held on the
        // heap (RunHeld, LoopHeld) or global; plain values are copied.
        auto frame = [&, headless, cfgDir]() -> bool {
            // Closing the window (or Quit) with unsaved text in the editor asks first; the
            // window stays until the answer is Save or Discard.
            if (platform.shouldClose()) {
                if (headless || app.editorUi.quitConfirmed) return false;
                platform.cancelClose();
                app.askBeforeLeaving("quit", [&app] { app.editorUi.quitConfirmed = true; });
                if (app.editorUi.quitConfirmed) return false;
            }
            if (app.editorUi.quitConfirmed) return false;
            auto t0 = Clock::now();
            if (platform.framesOutliveRunApp() && !headless && !cfgDir.empty() && platform.timeToSaveSettings())
                saveSettings(settings, cfgDir / "settings.json");   // a page has no exit to save at
            auto snapNow = session.snapshot();
            platform.pollEvents(!(headless || snapNow->state == RunState::Running || session.busy()));
            if (matrixAt < matrix.size() && matrixFrames == 0) {
                const MatrixShot& m = matrix[matrixAt];
                platform.setSize(m.width, m.height);
                settings.uiScale = m.scale;
                if (matrixAt == 0 || matrix[matrixAt - 1].layout != m.layout) app.ui.pendingLayout = m.layout;
            }
            if (app.ui.pendingScale > 0) {
                settings.uiScale = app.ui.pendingScale;
                app.ui.pendingScale = 0;
            }
            if (settings.uiScale != fst.builtScale || settings.darkTheme != fst.builtDark) {
                if (settings.uiScale != fst.builtScale) buildFonts(app.fonts, settings.uiScale, true);
                applyStyle(settings.darkTheme, settings.uiScale);
                fst.builtScale = settings.uiScale;
                fst.builtDark = settings.darkTheme;
            }
            ImGui_ImplOpenGL3_NewFrame();
            platform.newImGuiFrame();
            if (headless) io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);   // Xvfb's pointer sits mid-screen: no hover tooltips in screenshots
            ImGui::NewFrame();
            ImGui::PushFont(app.fonts.ui);
            drawFrame(app, platform, fst);
            ImGui::PopFont();
            ImGui::Render();
            if (opt.benchFrames > 0) uiMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            int fbw, fbh;
            platform.framebufferSize(fbw, fbh);
            glViewport(0, 0, fbw, fbh);
            ImVec4 bg = settings.darkTheme ? ImVec4(0.06f, 0.06f, 0.07f, 1) : ImVec4(0.85f, 0.85f, 0.85f, 1);
            glClearColor(bg.x, bg.y, bg.z, bg.w);
            glClear(GL_COLOR_BUFFER_BIT);
            ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
            bool last = framesLeft == 1;
            if (last && !opt.screenshot.empty()) {
                std::string err;
                if (!writeScreenshot(opt.screenshot, fbw, fbh, app, opt.steps, &err)) {
                    std::fprintf(stderr, "%s: %s\n", platform.programName(), err.c_str());
                    rc = 1;
                } else {
                    std::printf("wrote %s (%dx%d) and %s.json\n", opt.screenshot.c_str(), fbw, fbh, opt.screenshot.c_str());
                }
            }
            if (matrixAt < matrix.size()) {
                // A shot is taken once the window has its size and four frames settled the toolbar's
                // rows and the panels' places.
                const MatrixShot& m = matrix[matrixAt];
                ++matrixFrames;
                matrixSettled = (fbw == m.width && fbh == m.height) ? matrixSettled + 1 : 0;
                if (matrixSettled >= 4) {
                    char name[160];
                    std::snprintf(name, sizeof name, "%s-%dx%d-s%g.png", m.layout.c_str(), m.width, m.height, static_cast<double>(m.scale));
                    std::string path = (fs::path(opt.matrixDir) / name).string();
                    std::string err;
                    if (!writeScreenshot(path, fbw, fbh, app, opt.steps, &err)) {
                        std::fprintf(stderr, "%s: %s\n", platform.programName(), err.c_str());
                        rc = 1;
                    } else {
                        std::printf("wrote %s\n", path.c_str());
                    }
                    ++matrixAt;
                    matrixFrames = matrixSettled = 0;
                    if (matrixAt == matrix.size()) return false;
                } else if (matrixFrames > 120) {
                    std::fprintf(stderr, "%s: the window did not become %dx%d (it is %dx%d; is the screen large enough?)\n", platform.programName(), m.width, m.height, fbw, fbh);
                    rc = 1;
                    return false;
                }
            }
            platform.frameDrawn(app, fbw, fbh);
            platform.present();
            if (opt.benchFrames > 0) {
                glFinish();
                frameMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            }
            // A screenshot waits for work the frames started (a step's actions can open the
            // Timeline panel and start its run, or start the session running).
            if (headless && !opt.screenshot.empty() && framesLeft > 1 && screenshotWaits < 5) {
                bool waited = false;
                if (app.timeline && app.timeline->running()) {
                    app.timeline->waitIdle(120);
                    waited = true;
                }
                if (session.busy()) {
                    session.waitIdle(120);
                    waited = true;
                }
                if (waited) {
                    framesLeft = 3;
                    ++screenshotWaits;
                }
            }
            if (framesLeft > 0 && --framesLeft == 0) return false;
            return true;
        };
        // The desktop loops here; the web page hands the frame to the browser, which calls it
        // after runApp has returned (the held state then lives as long as the page).
        const bool outlive = platform.framesOutliveRunApp();
        platform.runLoop(frame);
        if (outlive) {
            (void)held.release();
            (void)loopHeld.release();
            return 0;
        }
        if (opt.benchFrames > 0 && frameMs.size() > 5) {
            FrameStats f = frameStats(frameMs, 5), u = frameStats(uiMs, 5);   // skip warm-up frames
            auto s = session.snapshot();
            std::string where = platform.describe();
            if (!where.empty()) std::printf("%s\n", where.c_str());
            std::printf("median frame time: %.2f ms over %zu frames, of which %.2f ms building the UI (%dx%d, %s, %llu blocks, %s)\n",
                        f.median, frameMs.size() - 5, u.median, opt.width, opt.height, app.snap && app.snap->lesson ? app.snap->lesson->lesson.id.c_str() : "-",
                        static_cast<unsigned long long>(s->blockCount), runStateName(s->state));
            std::printf("frame time p90 %.2f ms, worst %.2f ms; UI p90 %.2f ms, worst %.2f ms (scale %g)\n", f.p90, f.worst, u.p90, u.worst,
                        static_cast<double>(settings.uiScale));
        }
        if (!headless && !cfgDir.empty()) saveSettings(settings, cfgDir / "settings.json");
    }
    const int rc = loopHeld->rc;
    loopHeld.reset();   // the session and its models end before the GL context, as they always did
    ImGui_ImplOpenGL3_Shutdown();
    platform.shutdownImGui();
    ImGui::DestroyContext();
    platform.close();
    return rc;
}

int appMain(int argc, char** argv, Platform& platform) {
    try {
        return runApp(argc, argv, platform);
    } catch (const Error& e) {
        std::fprintf(stderr, "%s: error (%s): %s\n", platform.programName(), Error::kindName(e.kind()), e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: error: %s\n", platform.programName(), e.what());
        return 2;
    }
}

} // namespace warpscope::gui
