// A whole CUDA program in the app (docs/whole-programs.md, "In the app"): the file with host code
// and kernels that the editor shows, built with cudart::buildProgram (toolkit-free, diagnostics
// at file:line:col for host and device code), run in the sandbox (base/sandbox.hpp) as a child
// process, so a crash, exit(1) or an endless loop in host code never takes the app down. Its
// stdout and stderr go to the Console (console_model.hpp) as they come.
//
// Pause at each launch: the child's runtime (engine/cudart, $WARPSCOPE_PAUSE) stops before a
// kernel launch, writes the launch as a lesson (the PTX module, the device memory, the grid,
// block, dynamic shared memory and parameter bytes) and waits. The model hands that lesson to the
// app (takePaused), which loads it into its Session like any lesson, so every panel steps it warp
// by warp; Continue lets the child run the launch itself and go on to its next API call.
//
// Window-free; one thread of its own per build and per run. The UI thread calls poll() each frame.
#pragma once
#include "base/sandbox.hpp"
#include "compile/compile.hpp"
#include "gui/model/console_model.hpp"
#include "runtime/lesson.hpp"

#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace warpscope::gui {

// One launch the program stopped at.
struct PausedLaunch {
    int index = 0;                         // 0-based, in the program's order of launches
    std::filesystem::path lessonJson;      // the capture (lesson.json beside module.ptx and the memory)
    runtime::Lesson lesson;                // loaded; its source is the program's text
    std::string kernel;                    // as the program wrote it: "vadd(float*, float*, int)"
    uint32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
    uint32_t dynamicShared = 0;
    std::vector<std::string> args;         // one line per parameter: "m0001 + 0" or "0x00000400"
};

class ProgramModel {
public:
    enum class State { Closed, Idle, Building, BuildFailed, Built, Running, Paused, Ended };

    ProgramModel();
    ~ProgramModel();   // stops a running program
    ProgramModel(const ProgramModel&) = delete;
    ProgramModel& operator=(const ProgramModel&) = delete;

    // A source with host code: a main function outside comments and strings.
    static bool isWholeProgram(const std::string& text);

    void open(const std::filesystem::path& file);   // the program's source (its folder is on the include path)
    void close();                                     // stops a run; the editor shows kernels again
    bool active() const { return state() != State::Closed; }
    const std::filesystem::path& file() const { return file_; }

    // Builds `text` (the editor's, saved or not) as the file: a private copy beside nothing else,
    // with the file's folder first on the include path. Asynchronous: poll() takes the result.
    void build(const std::string& text);
    bool waitBuild(double timeoutSeconds);
    // The build's diagnostics for the program's file, host and device code, errors first by line.
    std::vector<compile::Diagnostic> diagnostics() const;
    std::string buildError() const;
    bool built() const;

    // Runs the last good build in the sandbox (false and *error when there is none or it cannot
    // start). With pauseAtLaunches, launches of at most pauseMaxThreads threads (0: all) pause.
    bool run(std::string* error);
    // The program's command-line arguments (argv[1] on), as a shell line: words split at spaces,
    // '...' and "..." keep spaces, a backslash escapes the next character. Used by the next Run.
    std::string arguments;
    // Splits such a line; false (and *error) for an unclosed quote or a trailing backslash.
    static bool splitArguments(const std::string& line, std::vector<std::string>* words, std::string* error);
    bool pauseAtLaunches = true;
    uint64_t pauseMaxThreads = 65536;   // "small grids": the stepping panels are for them
    sandbox::Limits limits;             // wallSeconds 0: a paused program may wait as long as the learner steps
    void continueRun();                 // the paused launch runs in the child; on to the next pause
    void runToEnd();                    // no more pauses in this run
    void stop();                        // the Stop button: the child and everything it started end

    // Called each frame by the UI thread: takes a finished build. True when something changed.
    bool poll();
    // A launch the program stopped at that the app has not loaded yet (once per pause).
    std::optional<PausedLaunch> takePaused();
    const std::optional<PausedLaunch>& paused() const { return shownPause_; }   // the launch being stepped (UI thread)

    State state() const;
    std::string statusText() const;     // one line for the Console's header
    sandbox::Result lastResult() const;
    bool isolated() const;              // the last run had bubblewrap
    ConsoleModel& console() { return console_; }
    const ConsoleModel& console() const { return console_; }
    int launchesSeen() const;           // launches the child reported (paused or skipped)
    // The program's timeline (copies, kernels, host calls on the timeline model of the default
    // preset) as far as the program has got: the child rewrites it as it goes (at each pause,
    // after API calls that added to it, at its end) and the model reads each new version; null
    // before the child wrote one.
    std::shared_ptr<const runtime::Timeline> timeline() const;
    // Tests: waits until state() is one of these (true) or the timeout passes (false).
    bool waitFor(std::initializer_list<State> states, double timeoutSeconds) const;

private:
    void monitor();
    void joinRun();
    // A program paused at a launch goes on: `command` down its control pipe, `status` shown.
    void resume(const char* command, const char* status);
    void setState(State s);

    mutable std::mutex m_;
    // A copy of one member, read under m_ (the getters the panels call from the UI thread).
    template <class T> T locked(const T& member) const {
        std::lock_guard<std::mutex> lock(m_);
        return member;
    }
    std::filesystem::path file_, workDir_, copy_;
    State state_ = State::Closed;
    std::string status_;
    std::thread buildThread_, runThread_;
    std::string executable_, buildError_;
    std::vector<compile::Diagnostic> diags_;
    bool buildDone_ = false, buildOk_ = false;
    std::unique_ptr<sandbox::Runner> runner_;
    int toAppRead_ = -1, fromAppWrite_ = -1;
    std::atomic<bool> stopRequested_{false};
    std::optional<PausedLaunch> pending_, shownPause_;
    sandbox::Result result_;
    bool isolated_ = false;
    int launches_ = 0;
    std::shared_ptr<const runtime::Timeline> timeline_;
    ConsoleModel console_;
};

const char* programStateName(ProgramModel::State s);

} // namespace warpscope::gui
