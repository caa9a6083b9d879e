#include "base/sandbox.hpp"
#include "base/web.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

extern char** environ;

namespace warpscope::sandbox {
namespace fs = std::filesystem;

namespace {

double now() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

bool executable(const std::string& p) { return !p.empty() && access(p.c_str(), X_OK) == 0; }

bool writeFile(const std::string& path, const std::string& text) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    return ok;
}

// A pids cgroup of the program's own, capped at `max` processes, where this process may make one:
// the pids hierarchy of cgroup v1, or the root of cgroup v2 with the pids controller enabled for
// its children (in practice: running as root, where RLIMIT_NPROC does not hold). Returns its
// folder and an open descriptor of its cgroup.procs, or "" and -1.
std::pair<std::string, int> makePidsCgroup(uint64_t max) {
    static std::atomic<uint64_t> serial{0};
    std::string base;
    std::error_code ec;
    if (fs::exists("/sys/fs/cgroup/pids/cgroup.procs", ec)) {
        base = "/sys/fs/cgroup/pids";
    } else {
        std::ifstream sub("/sys/fs/cgroup/cgroup.subtree_control");
        std::string word;
        while (sub >> word)
            if (word == "pids") base = "/sys/fs/cgroup";
    }
    if (base.empty() || access(base.c_str(), W_OK) != 0) return {"", -1};
    const std::string dir = base + "/warpscope-" + std::to_string(getpid()) + "-" + std::to_string(++serial);
    if (::mkdir(dir.c_str(), 0755) != 0) return {"", -1};
    int fd = -1;
    if (writeFile(dir + "/pids.max", std::to_string(max))) fd = ::open((dir + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        ::rmdir(dir.c_str());
        return {"", -1};
    }
    return {dir, fd};
}

// The processes below `root` (by parent) and in its process group, from /proc; bwrap's own
// processes (its monitor and the PID namespace's init) are not the program's and are not counted.
uint64_t descendants(pid_t root) {
    std::map<pid_t, std::vector<pid_t>> children;
    std::set<pid_t> group, helpers;
    DIR* d = opendir("/proc");
    if (!d) return 0;
    while (dirent* e = readdir(d)) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        char path[64];
        std::snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        char buf[512];
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n <= 0) continue;
        buf[n] = 0;
        // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses: the last ')' ends it.
        char* open = std::strchr(buf, '(');
        char* close = std::strrchr(buf, ')');
        if (!open || !close) continue;
        const pid_t pid = static_cast<pid_t>(std::atol(buf));
        const std::string comm(open + 1, close);
        char state = 0;
        int ppid = 0, pgrp = 0;
        if (std::sscanf(close + 1, " %c %d %d", &state, &ppid, &pgrp) != 3) continue;
        if (state == 'Z') continue;   // ended, waiting for its parent: no longer running
        children[ppid].push_back(pid);
        if (pgrp == root) group.insert(pid);
        if (comm == "bwrap") helpers.insert(pid);
    }
    closedir(d);
    std::set<pid_t> seen;
    std::vector<pid_t> todo = {root};
    while (!todo.empty()) {
        pid_t p = todo.back();
        todo.pop_back();
        auto it = children.find(p);
        if (it == children.end()) continue;
        for (pid_t c : it->second)
            if (seen.insert(c).second) todo.push_back(c);
    }
    seen.insert(group.begin(), group.end());
    seen.insert(root);
    uint64_t n = 0;
    for (pid_t p : seen)
        if (!helpers.count(p)) ++n;
    return n;
}

void closeFrom(int lo, int hi) {   // closes [lo, hi]
    if (lo > hi) return;
#ifdef SYS_close_range
    if (syscall(SYS_close_range, static_cast<unsigned>(lo), static_cast<unsigned>(hi), 0u) == 0) return;
#endif
    for (int fd = lo; fd <= hi && fd < 65536; ++fd) ::close(fd);
}

} // namespace

const char* limitName(Limit l) {
    switch (l) {
    case Limit::None: return "no limit";
    case Limit::CpuTime: return "the CPU-time limit";
    case Limit::WallTime: return "the wall-clock limit";
    case Limit::Memory: return "the address-space (memory) limit";
    case Limit::FileSize: return "the file-size limit";
    case Limit::Processes: return "the process limit";
    case Limit::Network: return "no network in the sandbox";
    case Limit::OutsideWrite: return "writes only in its own folder";
    case Limit::Stopped: return "stopped by the user";
    }
    return "";
}

namespace {

std::string findBwrap() {
    if (const char* e = std::getenv("WARPSCOPE_BWRAP"); e && *e) {
        if (std::string(e) == "none") return "";
        return executable(e) ? e : "";
    }
    for (const char* p : {"/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap"})
        if (executable(p)) return p;
    return "";
}

// Whether bwrap can make its namespaces here (a container may forbid them): one try, remembered.
bool bwrapWorks(const std::string& bwrap) {
    if constexpr (base::kInBrowser) return false;
    static std::map<std::string, bool> known;
    static std::mutex m;
    std::lock_guard<std::mutex> lock(m);
    auto it = known.find(bwrap);
    if (it != known.end()) return it->second;
    std::vector<std::string> args = {bwrap, "--die-with-parent", "--unshare-net", "--unshare-pid", "--unshare-ipc", "--ro-bind", "/", "/",
                                     "--dev", "/dev", "--proc", "/proc", "--", "/bin/true"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    bool ok = false;
    pid_t pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) {
            dup2(devnull, 1);
            dup2(devnull, 2);
        }
        execv(argv[0], argv.data());
        _exit(127);
    }
    if (pid > 0) {
        int st = 0;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
        }
        ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    }
    known[bwrap] = ok;
    return ok;
}

} // namespace

std::string bwrapPath() {
    const std::string b = findBwrap();
    return !b.empty() && bwrapWorks(b) ? b : "";
}

std::string isolationNote() {
    if (!bwrapPath().empty()) return "";
    const std::string installed = findBwrap();
    const std::string what = installed.empty() ? "bubblewrap (bwrap) is not installed"
                                               : "bubblewrap (" + installed + ") cannot make its namespaces on this machine";
    return "warpscope: " + what + ", so the program runs with resource limits only (CPU time, memory, file size, processes, a private "
           "working folder): it can still read and write files outside that folder and use the network." +
           (installed.empty() ? " Install it (apt-get install bubblewrap, or scripts/setup.sh) to isolate programs." : "");
}

Runner::Runner(Spec spec) : spec_(std::move(spec)) {}

Runner::~Runner() {
    if (running()) {
        ::kill(-pid_, SIGKILL);
        ::kill(pid_, SIGKILL);
        int st = 0;
        waitpid(pid_, &st, 0);
    }
    if (outFd_ >= 0) ::close(outFd_);
    if (errFd_ >= 0) ::close(errFd_);
    removeCgroup();
    if (ownDir_ && !workDir_.empty()) {
        std::error_code ec;
        fs::remove_all(workDir_, ec);
    }
}

bool Runner::start(std::string* error) {
    if constexpr (base::kInBrowser) {
        *error = base::kNoProcessesInBrowser;
        return false;
    }
    if (spec_.argv.empty()) {
        *error = "nothing to run";
        return false;
    }
    workDir_ = spec_.workDir;
    if (workDir_.empty()) {
        std::string base = fs::temp_directory_path().string() + "/warpscope-run-XXXXXX";
        std::vector<char> tmpl(base.begin(), base.end());
        tmpl.push_back(0);
        if (!mkdtemp(tmpl.data())) {
            *error = std::string("cannot make a private working folder: ") + std::strerror(errno);
            return false;
        }
        workDir_ = tmpl.data();
        ownDir_ = true;
    } else {
        std::error_code ec;
        fs::create_directories(workDir_, ec);
    }
    workDir_ = fs::canonical(workDir_).string();
    const std::string bwrap = spec_.isolate ? bwrapPath() : "";
    isolated_ = !bwrap.empty();

    // Everything the child needs is built before fork: the app forks from a process with threads,
    // where the child may only make system calls.
    std::vector<std::string> args;
    if (isolated_) {
        args = {bwrap, "--die-with-parent", "--unshare-net", "--unshare-pid", "--unshare-ipc", "--ro-bind", "/", "/", "--dev", "/dev",
                "--proc", "/proc"};
        std::error_code ec;
        for (auto& h : spec_.hide)
            if (fs::is_directory(h, ec)) args.insert(args.end(), {"--tmpfs", h});
        for (auto& p : spec_.showAgain)
            if (fs::exists(p, ec)) args.insert(args.end(), {"--ro-bind", p, p});
        args.insert(args.end(), {"--bind", workDir_, workDir_, "--chdir", workDir_, "--"});
    }
    args.insert(args.end(), spec_.argv.begin(), spec_.argv.end());
    std::vector<std::string> envStrings;
    std::set<std::string> overridden = {"TMPDIR", "WARPSCOPE_SANDBOX"};
    for (auto& [k, v] : spec_.env) overridden.insert(k);
    for (char** e = environ; e && *e; ++e) {
        std::string s = *e;
        if (!overridden.count(s.substr(0, s.find('=')))) envStrings.push_back(s);
    }
    envStrings.push_back("TMPDIR=" + workDir_);
    envStrings.push_back("WARPSCOPE_SANDBOX=" + workDir_);
    for (auto& [k, v] : spec_.env) envStrings.push_back(k + "=" + v);
    std::vector<char*> argv, envp;
    for (auto& s : args) argv.push_back(const_cast<char*>(s.c_str()));
    argv.push_back(nullptr);
    for (auto& s : envStrings) envp.push_back(const_cast<char*>(s.c_str()));
    envp.push_back(nullptr);

    int outPipe[2] = {-1, -1}, errPipe[2] = {-1, -1};
    if (spec_.captureOutput && (pipe2(outPipe, O_CLOEXEC) != 0 || pipe2(errPipe, O_CLOEXEC) != 0)) {
        *error = std::string("cannot make pipes: ") + std::strerror(errno);
        return false;
    }
    std::vector<int> keep = spec_.keepFds;
    std::sort(keep.begin(), keep.end());
    const Limits lim = spec_.limits;
    const std::string dir = workDir_;
    const std::string failText = "warpscope: cannot start " + spec_.argv[0] + ": ";
    // The poll below stops the program when it has more than the limit; the cgroup's cap (two
    // more for bwrap's own processes) holds between polls, where a fork bomb could otherwise
    // start thousands: the kernel refuses the fork, and its pids.events tells the poll.
    if (lim.processes) std::tie(cgroup_, cgroupProcsFd_) = makePidsCgroup(lim.processes + (isolated_ ? 2 : 0));

    std::fflush(stdout);
    std::fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        *error = std::string("cannot start the program (fork failed: ") + std::strerror(errno) + ")";
        return false;
    }
    if (pid == 0) {
        setpgid(0, 0);
        if (cgroupProcsFd_ >= 0) {   // into the pids cgroup before anything else can fork (no allocation here)
            char text[24];
            size_t at = sizeof text;
            for (pid_t v = getpid(); v > 0; v /= 10) text[--at] = char('0' + v % 10);
            (void)!::write(cgroupProcsFd_, text + at, sizeof text - at);
        }
        if (spec_.captureOutput) {
            dup2(outPipe[1], 1);
            dup2(errPipe[1], 2);
        }
        // Kept descriptors lose close-on-exec; every other one above stderr is closed.
        int next = 3;
        for (int fd : keep) {
            if (fd < 3) continue;
            closeFrom(next, fd - 1);
            int flags = fcntl(fd, F_GETFD);
            if (flags >= 0) fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC);
            next = fd + 1;
        }
        closeFrom(next, 1 << 20);
        auto set = [](int res, rlim_t soft, rlim_t hard) {
            rlimit r{soft, hard};
            setrlimit(res, &r);
        };
        if (lim.cpuSeconds) set(RLIMIT_CPU, lim.cpuSeconds, lim.cpuSeconds + 2);
        if (lim.memoryMb) set(RLIMIT_AS, rlim_t(lim.memoryMb) << 20, rlim_t(lim.memoryMb) << 20);
        if (lim.fileSizeMb) set(RLIMIT_FSIZE, rlim_t(lim.fileSizeMb) << 20, rlim_t(lim.fileSizeMb) << 20);
        set(RLIMIT_CORE, 0, 0);
        // RLIMIT_NPROC counts all of the user's processes (and root is exempt), so the process
        // limit is the parent's count of the program's processes (poll); this is a backstop.
        rlimit np{};
        if (getrlimit(RLIMIT_NPROC, &np) == 0 && np.rlim_cur == RLIM_INFINITY) set(RLIMIT_NPROC, 1 << 16, 1 << 16);
        if (chdir(dir.c_str()) != 0) _exit(127);
        execve(argv[0], argv.data(), envp.data());
        const int err = errno;
        (void)!write(2, failText.data(), failText.size());
        const char* why = std::strerror(err);
        (void)!write(2, why, std::strlen(why));
        (void)!write(2, "\n", 1);
        _exit(127);
    }
    setpgid(pid, pid);
    pid_ = pid;
    startTime_ = now();
    lastCount_ = 0;
    result_ = Result{};
    result_.started = true;
    if (spec_.captureOutput) {
        ::close(outPipe[1]);
        ::close(errPipe[1]);
        outFd_ = outPipe[0];
        errFd_ = errPipe[0];
    }
    return true;
}

void Runner::kill(Limit why, const std::string& message) {
    if (!running()) return;
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    int st = 0;
    rusage ru{};
    while (wait4(pid_, &st, 0, &ru) < 0 && errno == EINTR) {
    }
    finish(st, ru);
    result_.limit = why;
    result_.message = message;
}

uint64_t Runner::countProcesses() const { return descendants(pid_); }

std::string Runner::processLimitMessage(bool refused) const {
    return "warpscope: the program was stopped at the process limit: it started more than " + std::to_string(spec_.limits.processes) +
           " processes at once" + (refused ? " (the system refused the next one)" : "");
}

void Runner::stop() { kill(Limit::Stopped, "warpscope: the program was stopped"); }

bool Runner::cgroupRefusedFork() const {
    if (cgroup_.empty()) return false;
    std::ifstream events(cgroup_ + "/pids.events");   // "max N": forks refused at pids.max
    std::string key;
    uint64_t n = 0;
    while (events >> key >> n)
        if (key == "max" && n > 0) return true;
    return false;
}

void Runner::removeCgroup() {
    if (cgroupProcsFd_ >= 0) ::close(cgroupProcsFd_);
    cgroupProcsFd_ = -1;
    if (cgroup_.empty()) return;
    // Its last processes may still be on their way out after the kill: a cgroup goes once empty.
    for (int tries = 0; tries < 200 && ::rmdir(cgroup_.c_str()) != 0 && errno == EBUSY; ++tries) {
        writeFile(cgroup_ + "/cgroup.kill", "1");   // cgroup v2 only; v1 has no such file
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    cgroup_.clear();
}

void Runner::finish(int status, const rusage& ru) {
    done_ = true;
    // Whatever the program left running (a child that ignored its parent's end) goes too.
    ::kill(-pid_, SIGKILL);
    const bool refused = cgroupRefusedFork();
    removeCgroup();
    Result& r = result_;
    if (WIFEXITED(status)) {
        r.exited = true;
        r.exitCode = WEXITSTATUS(status);
        // bwrap reports a program ended by a signal as 128 + the signal.
        if (isolated_ && r.exitCode > 128 && r.exitCode <= 128 + 64) {
            r.exited = false;
            r.signal = r.exitCode - 128;
        }
    } else if (WIFSIGNALED(status)) {
        r.signal = WTERMSIG(status);
    }
    const double cpu = double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec);
    if (r.signal == SIGXCPU || (r.signal == SIGKILL && spec_.limits.cpuSeconds && cpu >= double(spec_.limits.cpuSeconds))) {
        r.limit = Limit::CpuTime;
        r.message = "warpscope: the program was stopped at the CPU-time limit (" + std::to_string(spec_.limits.cpuSeconds) + " s, --cpu-seconds)";
    } else if (r.signal == SIGXFSZ) {
        r.limit = Limit::FileSize;
        r.message = "warpscope: the program was stopped at the file-size limit (" + std::to_string(spec_.limits.fileSizeMb) +
                    " MiB): it wrote a larger file";
    }
    if (refused && r.limit == Limit::None) {   // it ended on its own after a fork the cap refused
        r.limit = Limit::Processes;
        r.message = processLimitMessage(true);
    }
    // The program's runtime (engine/cudart) notes a limit it stopped the program for.
    std::ifstream note(workDir_ + "/" + kNoteFile);
    std::string line;
    while (std::getline(note, line)) {
        std::istringstream ls(line);
        std::string word, what;
        ls >> word >> what;
        if (word != "limit") continue;
        std::string rest;
        std::getline(ls, rest);
        if (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
        if (what == "memory") {
            r.limit = Limit::Memory;
            r.message = "warpscope: the program was stopped at the address-space limit (" + std::to_string(spec_.limits.memoryMb) +
                        " MiB, --memory-mb): " + rest;
        } else if (what == "network") {
            r.limit = Limit::Network;
            r.message = "warpscope: the program was stopped: it opened a network socket (" + rest + "), and the sandbox has no network";
        } else if (what == "write") {
            r.limit = Limit::OutsideWrite;
            r.message = "warpscope: the program was stopped: it tried to write " + rest + ", outside its own folder " + workDir_ +
                        " (the sandbox lets a program write only there)";
        }
    }
}

bool Runner::poll() {
    if (pid_ <= 0) return true;
    if (done_) return true;
    int status = 0;
    rusage ru{};
    pid_t w = wait4(pid_, &status, WNOHANG, &ru);
    if (w == pid_) {
        finish(status, ru);
        return true;
    }
    const double t = now();
    if (spec_.limits.wallSeconds && t - startTime_ > double(spec_.limits.wallSeconds)) {
        kill(Limit::WallTime, "warpscope: the program did not finish within " + std::to_string(spec_.limits.wallSeconds) +
                                  " s (the wall-clock limit, --timeout) and was stopped");
        return true;
    }
    if (spec_.limits.processes && t - lastCount_ >= 0.05) {
        lastCount_ = t;
        if (cgroupRefusedFork()) {
            kill(Limit::Processes, processLimitMessage(true));
            return true;
        }
        if (countProcesses() > spec_.limits.processes) {
            kill(Limit::Processes, processLimitMessage(false));
            return true;
        }
    }
    return false;
}

Result Runner::wait() {
    while (!poll()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return result_;
}

Result Runner::pump(const std::function<void(bool isStdout, const char* data, size_t size)>& sink) {
    bool outOpen = outFd_ >= 0, errOpen = errFd_ >= 0, ended = false;
    while (!ended || outOpen || errOpen) {
        pollfd fds[2];
        int n = 0;
        if (outOpen) fds[n++] = {outFd_, POLLIN, 0};
        if (errOpen) fds[n++] = {errFd_, POLLIN, 0};
        if (n && ::poll(fds, static_cast<nfds_t>(n), 50) > 0) {
            for (int k = 0; k < n; ++k) {
                if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
                char buf[8192];
                const ssize_t got = ::read(fds[k].fd, buf, sizeof buf);
                const bool isOut = fds[k].fd == outFd_;
                if (got > 0) sink(isOut, buf, static_cast<size_t>(got));
                else (isOut ? outOpen : errOpen) = false;
            }
        } else if (ended) {
            break;   // nothing more arrives (a child of its own may hold the pipes)
        } else if (!n) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        if (!ended) ended = poll();
    }
    return result_;
}

} // namespace warpscope::sandbox
