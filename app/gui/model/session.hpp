// The Session owns the simulated device and the stepping controller. It runs the lesson's host
// script on a worker thread; inside each launch (SimDevice::onLaunch) the worker serves stepping
// commands from the UI and publishes an immutable Snapshot after each one (throttled while
// running freely). The UI thread only enqueues commands and reads the latest snapshot.
//
// Step back is restart + deterministic replay: every issued warp-instruction is logged as a
// "primitive" (round-robin step, or a step of one named warp), run-length compressed, per launch.
// Replaying the log up to position - 1 reproduces the machine exactly (scheduler cursor included).
//
// Sections: 1. commands  2. Session  3. worker state
#pragma once
#include "gui/model/snapshot.hpp"
#include "runtime/lesson.hpp"
#include "sim/gpu.hpp"
#include "timing/cycle_model.hpp"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace warpscope::gui {

// ---------------------------------------------------------------- 1. commands
enum class CommandKind : uint8_t {
    Load, Restart, StepBack, Step, StepWarp, StepLine, RunToBarrier, Run, Pause, RunSteps, Select, Quit,
    RunToEnd,    // to the end of the current launch
    SetTiming,   // switch Timed mode / preset / registers (restarts)
    ShowSm,      // the SM whose schedulers the timing view records
    RunToLine,   // until the selected warp's next instruction is on a source line (crosses launches)
    Cancel,      // stop what runs now (Session::cancel puts it first in the queue)
};

// Timed mode: every launch runs through timing::TimedRun (the cycle model picks which warp issues
// in which cycle; results are those of the functional run), and stepping goes by cycles.
struct TimingConfig {
    bool timed = false;
    timing::GpuSpec spec;                        // the preset
    std::optional<uint32_t> registers;           // user override; else lesson.json "registers", else 32 (estimated)
    timing::SchedulerPolicy policy = timing::SchedulerPolicy::GreedyThenOldest;
};

// The sandbox limits a user can raise (View > Limits); they apply to the next run.
struct SandboxLimits {
    uint64_t deviceMemoryBytes = 0;   // 0 = the simulator's default (half the host's RAM)
    uint64_t maxBlocks = sim::LaunchOptions{}.maxBlocks;
    uint64_t instructionBudget = sim::LaunchOptions{}.instructionBudget;
};

struct Command {
    Command() = default;
    explicit Command(CommandKind k) : kind(k) {}
    CommandKind kind = CommandKind::Step;
    std::shared_ptr<const LessonInfo> lesson;   // Load
    runtime::ParamValues params;                // Load
    uint64_t count = 0;                         // RunSteps
    uint32_t block = 0, warp = 0;               // Select
    bool follow = true;                         // Select
    int initcheck = -1, racecheck = -1;         // Restart: change the checkers (-1 = keep)
    std::shared_ptr<const TimingConfig> timing; // SetTiming
    uint32_t sm = 0;                            // ShowSm
    uint32_t line = 0;                          // RunToLine
    std::shared_ptr<const SandboxLimits> limits; // Restart: new sandbox limits
};

// Loads the lesson's text files (kernel.cu, steps.md) and counts its launches.
std::shared_ptr<const LessonInfo> makeLessonInfo(const runtime::Lesson& lesson);

// ---------------------------------------------------------------- 2. Session
class Session {
public:
    explicit Session(sim::LaunchOptions options = {});
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    // Loading (re)builds the launch and stops before the first instruction of the first launch.
    void load(const runtime::Lesson& lesson, const runtime::ParamValues& params);
    void setParams(const runtime::ParamValues& params);   // same lesson, new launch
    void restart();
    // Turns the optional checkers on or off and restarts (memcheck and synccheck are always on).
    void setCheckers(bool initcheck, bool racecheck);
    // New sandbox limits (device memory, blocks per launch, instruction budget); restarts.
    void setLimits(const SandboxLimits& limits);
    // Stops the current run, replay or host program (from any thread, at any time): the run ends
    // as Faulted with an Error::Kind::Cancelled error and a status that says so, and the session
    // stays usable (restart, step back, load). Does nothing harmful when nothing runs.
    void cancel();

    void step();           // one warp-instruction, next warp in the scheduler's order
    void stepWarp();       // one instruction of the selected warp
    void stepLine();       // the selected warp until it reaches another source line
    void runToBarrier();   // until a barrier releases (or the launch ends)
    void run();            // run freely at the set speed, publishing ~60 times a second
    void pause();
    void toggleRun();
    void stepBack();       // one warp-instruction back (restart + replay)
    void runSteps(uint64_t n);   // n warp-instructions in scheduler order (crossing launches); timed: n cycles
    void runToEnd();       // to the end of the current launch
    // In the scheduler's order (timed: cycle by cycle) until the selected warp's next instruction
    // is on CUDA source line `line` (a warp already on it first leaves it); follow is turned off.
    // Goes on into the next launches while the line is not reached.
    void runToLine(uint32_t line);

    // Timed mode (see TimingConfig); changing it restarts the lesson. In Timed mode step, run,
    // step back and runSteps count cycles, and step warp is not available.
    void setTiming(const TimingConfig& config);
    // The SM whose schedulers the snapshot's timing view shows (its timeline restarts).
    void showSm(uint32_t sm);

    // The warp the detail panels show; `follow` keeps it on the most recently issued warp.
    void select(uint32_t block, uint32_t warp, bool follow = false);
    void setFollow(bool follow);
    // Warp-instructions (timed: cycles) per second while running; 0 = as fast as possible.
    void setSpeed(double stepsPerSecond) { speed_.store(stepsPerSecond); }
    double speed() const { return speed_.load(); }

    std::shared_ptr<const Snapshot> snapshot() const;
    // Blocks until every queued command is done and the worker is not running freely.
    // Returns false on timeout.
    bool waitIdle(double timeoutSeconds = 60.0);
    bool busy() const;

private:
    void post(Command c);
    void workerMain();

    struct Worker;
    std::unique_ptr<Worker> w_;
    std::atomic<double> speed_{200.0};
    std::thread thread_;
};

} // namespace warpscope::gui
