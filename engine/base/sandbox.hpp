// Running untrusted native code (a learner's host program) in a child process with limits: CPU
// seconds, address space, file size, number of processes, a wall-clock limit, a private temporary
// working directory, and, where bubblewrap (`bwrap`) is installed, a read-only view of the system
// with only that directory writable and no network. Where bwrap is missing the limits still hold
// and `note()` says what is not isolated. Used by `warpscope run`, `warpscope grade` on a program
// and the app's program runs (docs/whole-programs.md, "Running untrusted host code").
//
// It sits in base/ (plain POSIX, no engine types) so every layer and front end can use it.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <sys/resource.h>
#include <sys/types.h>

namespace warpscope::sandbox {

struct Limits {
    uint64_t cpuSeconds = 120;       // RLIMIT_CPU: SIGXCPU at the limit, SIGKILL two seconds later
    uint64_t wallSeconds = 300;      // the whole run, then the process group is killed (0 = none)
    uint64_t memoryMb = 16384;       // RLIMIT_AS (0 = none; a sanitized build cannot have one)
    uint64_t fileSizeMb = 1024;      // RLIMIT_FSIZE: largest file the program may write
    uint64_t processes = 64;         // processes the program may have at once, itself included
};

// Which limit stopped the program (or none).
enum class Limit : uint8_t { None, CpuTime, WallTime, Memory, FileSize, Processes, Network, OutsideWrite, Stopped };
const char* limitName(Limit l);   // "the CPU-time limit", ...

struct Spec {
    std::vector<std::string> argv;                              // argv[0]: the executable's path
    std::vector<std::pair<std::string, std::string>> env;       // set on top of the parent's
    Limits limits;
    bool isolate = true;            // use bwrap where installed (false: rlimits only, no note)
    bool captureOutput = false;     // stdout/stderr into pipes (outFd/errFd); else inherited
    std::vector<int> keepFds;       // more descriptors the child keeps (e.g. a pause protocol's pipes)
    std::string workDir;            // the private working directory; empty: made under $TMPDIR and removed after
    // Folders hidden behind an empty tmpfs inside bwrap (e.g. the home folders, so a compile server's
    // compiler cannot #include a file from them), and paths under those bound back read-only (the
    // executable, a compiler). workDir stays writable even under a hidden folder. Ignored without bwrap.
    std::vector<std::string> hide;
    std::vector<std::string> showAgain;
};

struct Result {
    bool started = false;
    bool exited = false;            // ended by exit(); exitCode holds its status
    int exitCode = 0;
    int signal = 0;                 // the signal that ended it, when not exited
    Limit limit = Limit::None;
    std::string message;            // one line: what stopped it, naming the limit ("" for a normal exit)
};

// The bwrap executable ("" when not installed). $WARPSCOPE_BWRAP overrides the search ("none"
// pretends it is missing, for tests and for machines where user namespaces are off).
std::string bwrapPath();
// What a run without bwrap does not isolate, or "" where bwrap is there.
std::string isolationNote();

class Runner {
public:
    explicit Runner(Spec spec);
    ~Runner();   // stops a running child and removes a working directory it made
    Runner(const Runner&) = delete;
    Runner& operator=(const Runner&) = delete;

    // Makes the working directory and starts the child; false with *error set when it cannot.
    bool start(std::string* error);
    const std::string& workDir() const { return workDir_; }
    bool isolated() const { return isolated_; }   // bwrap in use
    // The program's own pids cgroup ("" where none could be made): a hard cap on its processes
    // (the limit, plus bwrap's two with bwrap), which RLIMIT_NPROC is not for root. A fork the cap
    // refuses stops the program at the process limit. Removed when it ends.
    const std::string& pidsCgroup() const { return cgroup_; }
    pid_t pid() const { return pid_; }
    int outFd() const { return outFd_; }          // with captureOutput: read the program's stdout here
    int errFd() const { return errFd_; }

    // Checks the limits and reaps the child without blocking; true once it has ended.
    bool poll();
    // Stops the child and everything it started (the app's Stop button): Limit::Stopped.
    void stop();
    // Polls until the child ends; the result.
    Result wait();
    // With captureOutput: reads the program's stdout and stderr as they come (a full pipe would
    // stop it), handing each piece to sink (isStdout, bytes, size), until the child has ended and
    // nothing more arrives (a child of its own may hold the pipes open); the result.
    Result pump(const std::function<void(bool isStdout, const char* data, size_t size)>& sink);
    const Result& result() const { return result_; }
    bool running() const { return pid_ > 0 && !done_; }

    // Notes the program's runtime left in the working directory (engine/cudart writes a line
    // "limit memory|network|write PATH" when it stopped the program for the sandbox).
    static constexpr const char* kNoteFile = ".warpscope-sandbox";

private:
    void kill(Limit why, const std::string& message);
    void finish(int status, const ::rusage& ru);
    uint64_t countProcesses() const;
    void removeCgroup();
    bool cgroupRefusedFork() const;   // the cgroup's cap refused a fork (pids.events)
    std::string processLimitMessage(bool refused) const;

    Spec spec_;
    std::string workDir_;
    bool ownDir_ = false, isolated_ = false, done_ = false;
    pid_t pid_ = -1;
    int outFd_ = -1, errFd_ = -1;
    std::string cgroup_;       // pidsCgroup()
    int cgroupProcsFd_ = -1;   // its cgroup.procs, which the child writes its pid to
    double startTime_ = 0, lastCount_ = 0;
    Result result_;
};

} // namespace warpscope::sandbox
