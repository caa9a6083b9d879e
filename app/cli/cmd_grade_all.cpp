// warpscope grade-all SUBMISSIONS_DIR --exercise LESSON/ID [--csv FILE] [--html FILE] [--threads T]
//     [--seed S] [--timeout SECONDS] [--cpu-seconds S] [--memory-mb M] [--compiler NAME] [--json]
// Grades a whole class: every submission (a file, or a folder, per student) in a child process of
// its own (`warpscope grade ... --json`), T at a time (default: every core), with the limits a
// learner's code runs under: CPU time, address space, file size, no core dumps, and a wall-clock
// timeout after which its process group is killed. A submission that crashes, runs away or
// prints no grade is a row "NOT GRADED" with the reason; the others are graded as `warpscope
// grade` grades them, on the same hidden parameter sets (one seed for the class, printed).
// Compiles are cached by content (compile::compileCached), so identical or resubmitted files
// compile once; the starter's measures for speed-up goals are computed once here and handed to
// every child (--baselines).
// Exit 0 when the class was graded (whatever the verdicts), 2 bad input.
//
// Sections: 1. options  2. child processes (limits, the sandbox seam)  3. the class run
#include "cli.hpp"
#include "base/files.hpp"
#include "grade/class_report.hpp"
#include "grade/grader.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace warpscope;
using nlohmann::json;

namespace {

// ---------------------------------------------------------------- 1. options
struct GradeAllArgs {
    std::string dir, lesson, id, csv, html, compiler;
    int threads = 0;
    std::optional<uint64_t> seed;
    int timeoutSeconds = 120, cpuSeconds = 100, memoryMb = 4096;
    bool asJson = false;
};

int positiveInt(const std::string& opt, const std::string& v, int lo, int hi) {
    char* end = nullptr;
    long n = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || !end || *end || n < lo || n > hi)
        throw Error(Error::Kind::Input, opt + " takes a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", not '" + v + "'.");
    return int(n);
}

GradeAllArgs parse(int argc, char** argv) {
    GradeAllArgs a;
    std::string ex;
    for (int i = 0; i < argc; ++i) {
        std::string s = argv[i];
        if (s == "--exercise") ex = optionValue(argc, argv, i);
        else if (s == "--csv") a.csv = optionValue(argc, argv, i);
        else if (s == "--html") a.html = optionValue(argc, argv, i);
        else if (s == "--threads") a.threads = positiveInt(s, optionValue(argc, argv, i), 1, 256);
        else if (s == "--timeout") a.timeoutSeconds = positiveInt(s, optionValue(argc, argv, i), 1, 86400);
        else if (s == "--cpu-seconds") a.cpuSeconds = positiveInt(s, optionValue(argc, argv, i), 1, 86400);
        else if (s == "--memory-mb") a.memoryMb = positiveInt(s, optionValue(argc, argv, i), 64, 1 << 20);
        else if (s == "--compiler") a.compiler = optionValue(argc, argv, i);
        else if (s == "--json") a.asJson = true;
        else if (s == "--seed") {
            std::string v = optionValue(argc, argv, i);
            char* end = nullptr;
            unsigned long long n = std::strtoull(v.c_str(), &end, 10);
            if (v.empty() || v[0] == '-' || !end || *end) throw Error(Error::Kind::Input, "--seed takes a whole number, not '" + v + "'.");
            a.seed = n;
        } else if (!s.empty() && s[0] == '-') throw Error(Error::Kind::Input, "Unknown option '" + s + "' for grade-all.");
        else if (a.dir.empty()) a.dir = s;
        else throw Error(Error::Kind::Input, "grade-all takes one folder of submissions; got '" + a.dir + "' and '" + s + "'.");
    }
    if (a.dir.empty() || ex.empty())
        throw Error(Error::Kind::Input, "usage: warpscope grade-all SUBMISSIONS_DIR --exercise LESSON/ID [--csv FILE] [--html FILE] [--threads T]");
    auto slash = ex.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == ex.size())
        throw Error(Error::Kind::Input, "--exercise takes LESSON/ID (e.g. vector-add/bounds-check), not '" + ex + "'.");
    a.lesson = ex.substr(0, slash);
    a.id = ex.substr(slash + 1);
    if (a.threads == 0) a.threads = int(std::max(1u, std::thread::hardware_concurrency()));
    return a;
}

// ---------------------------------------------------------------- 2. child processes
struct ChildLimits {
    int cpuSeconds = 100;       // RLIMIT_CPU: SIGXCPU at the limit, SIGKILL two seconds later
    int memoryMb = 4096;        // RLIMIT_AS
    int timeoutSeconds = 120;   // wall clock, enforced by the parent (kills the process group)
};

// The seam for the sandbox of learners' host code (bubblewrap, written beside cmd_program.cpp):
// every child's command line passes through here before exec. A grade child simulates the
// learner's kernel and runs no native code of theirs, so it only carries the rlimits below; for
// an exercise of kind "program" the child builds the learner's program and runs each run of it
// in the sandbox itself (engine/grade/program_exercise.cpp), under these limits' address space.
std::vector<std::string> fenceCommand(std::vector<std::string> argv) { return argv; }

// The limits `warpscope run` puts on a program (cmd_program.cpp), for a grading child.
void applyLimits(const ChildLimits& l) {
    auto lim = [](int res, rlim_t v) {
        rlimit r{v, v};
        setrlimit(res, &r);
    };
    rlimit cpu{static_cast<rlim_t>(l.cpuSeconds), static_cast<rlim_t>(l.cpuSeconds + 2)};
    setrlimit(RLIMIT_CPU, &cpu);
#if !defined(__SANITIZE_ADDRESS__)
    lim(RLIMIT_AS, static_cast<rlim_t>(l.memoryMb) << 20);   // AddressSanitizer's shadow needs terabytes
#endif
    lim(RLIMIT_FSIZE, rlim_t(256) << 20);
    lim(RLIMIT_CORE, 0);
}

struct Child {
    pid_t pid = -1;
    size_t index = 0;   // the submission
    std::string outPath, errPath;
    std::chrono::steady_clock::time_point start;
};

std::string selfExe() {
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) throw Error(Error::Kind::Device, "Cannot find warpscope's own executable (/proc/self/exe) to start the grading processes.");
    return std::string(buf, size_t(n));
}

std::string slurp(const std::string& p) { return base::readFile(p).value_or(""); }

Child spawn(const std::vector<std::string>& argvIn, const ChildLimits& limits, size_t index, const std::string& tmpDir) {
    Child c;
    c.index = index;
    c.outPath = tmpDir + "/" + std::to_string(index) + ".out";
    c.errPath = tmpDir + "/" + std::to_string(index) + ".err";
    std::vector<std::string> argv = fenceCommand(argvIn);
    std::vector<char*> cargs;
    for (auto& s : argv) cargs.push_back(const_cast<char*>(s.c_str()));
    cargs.push_back(nullptr);
    std::fflush(stdout);
    std::fflush(stderr);
    c.start = std::chrono::steady_clock::now();
    pid_t pid = fork();
    if (pid < 0) throw Error(Error::Kind::Device, "Cannot start a grading process (fork failed: " + std::string(std::strerror(errno)) + ").");
    if (pid == 0) {
        setpgid(0, 0);
        int out = open(c.outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int err = open(c.errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int in = open("/dev/null", O_RDONLY);
        if (out < 0 || err < 0 || in < 0) _exit(126);
        dup2(in, 0);
        dup2(out, 1);
        dup2(err, 2);
        applyLimits(limits);
        execv(cargs[0], cargs.data());
        _exit(127);
    }
    setpgid(pid, pid);
    c.pid = pid;
    return c;
}

std::string signalText(int sig) {
    switch (sig) {
    case SIGXCPU: return "stopped at the CPU-time limit (--cpu-seconds)";
    case SIGKILL: return "killed (the CPU-time limit, or out of memory)";
    case SIGSEGV: return "crashed (segmentation fault)";
    case SIGABRT: return "aborted (out of memory under --memory-mb?)";
    default: return std::string("ended by signal ") + std::to_string(sig) + " (" + strsignal(sig) + ")";
    }
}

std::string lastLine(const std::string& text) {
    std::string t = text;
    while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.pop_back();
    auto nl = t.rfind('\n');
    std::string l = nl == std::string::npos ? t : t.substr(nl + 1);
    if (l.size() > 300) l = l.substr(0, 297) + "...";
    return l;
}

std::string utcNow() {
    std::time_t t = std::time(nullptr);
    char b[64];
    std::strftime(b, sizeof b, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
    return b;
}

bool writeFile(const std::string& path, const std::string& text) {
    std::string tmp = path + ".tmp." + std::to_string(getpid());
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        if (!f) return false;
        f << text;
        if (!f.flush()) return false;
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) fs::remove(tmp, ec);
    return !ec;
}

} // namespace

// ---------------------------------------------------------------- 3. the class run
int cmdGradeAll(int argc, char** argv, const fs::path& lessonsDir) {
    GradeAllArgs a = parse(argc, argv);
    if (lessonsDir.empty()) throw Error(Error::Kind::Input, "No lessons folder found (set WARPSCOPE_LESSONS).");
    grade::Exercise ex = grade::findExercise(lessonsDir, a.lesson, a.id);
    std::vector<grade::Submission> subs = grade::findSubmissions(a.dir, ex);
    const uint64_t seed = a.seed ? *a.seed : grade::freshSeed();
    const auto t0 = std::chrono::steady_clock::now();

    // A private folder for the children's output and the starter's baselines.
    std::string tmpl = (fs::temp_directory_path() / "warpscope-grade-all-XXXXXX").string();
    std::vector<char> tbuf(tmpl.begin(), tmpl.end());
    tbuf.push_back(0);
    if (!mkdtemp(tbuf.data())) throw Error(Error::Kind::Device, "Cannot make a temporary folder for grading.");
    const std::string tmpDir = tbuf.data();
    struct Cleanup {
        std::string dir;
        ~Cleanup() {
            std::error_code ec;
            fs::remove_all(dir, ec);
        }
    } cleanup{tmpDir};

    grade::GradeOptions base;
    base.compiler = a.compiler;
    std::map<size_t, double> baselines = grade::starterBaselines(ex, base);
    const std::string baselinePath = tmpDir + "/baselines.json";
    {
        json b = json::object();
        for (auto& [k, v] : baselines) b[std::to_string(k)] = v;
        std::ofstream(baselinePath) << b.dump();
    }

    ChildLimits limits{a.cpuSeconds, a.memoryMb, a.timeoutSeconds};
    const std::string exe = selfExe();
    std::vector<grade::StudentRow> rows(subs.size());
    std::vector<Child> running;
    size_t next = 0, done = 0;
    const bool progress = !a.asJson && isatty(2);
    auto finish = [&](const Child& c, int status, bool timedOut) {
        grade::StudentRow& r = rows[c.index];
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - c.start).count();
        std::string out = slurp(c.outPath), err = slurp(c.errPath);
        if (timedOut) r.reason = "did not finish within " + std::to_string(a.timeoutSeconds) + " s (--timeout); its processes were stopped";
        else if (WIFSIGNALED(status)) r.reason = "the grading process " + signalText(WTERMSIG(status));
        else {
            int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            if (code == 0 || code == 1) {
                try {
                    r.result = grade::gradeFromJson(json::parse(out));
                    r.graded = true;
                    r.passed = r.result.passed;
                    r.reason = grade::firstReason(r.result);
                } catch (const std::exception& e) {
                    r.reason = std::string("the grading process printed no grade (") + e.what() + ")";
                }
            } else {
                std::string why = lastLine(err);
                r.reason = "not graded (exit " + std::to_string(code) + ")" + (why.empty() ? "" : ": " + why);
            }
        }
        ++done;
        if (progress) std::fprintf(stderr, "\r%zu of %zu graded", done, subs.size());
    };
    for (size_t i = 0; i < subs.size(); ++i) {
        rows[i].student = subs[i].student;
        rows[i].file = subs[i].file.string();
        if (!subs[i].problem.empty()) {
            rows[i].reason = subs[i].problem;
            ++done;
        }
    }
    while (next < subs.size() || !running.empty()) {
        while (running.size() < size_t(a.threads) && next < subs.size()) {
            size_t i = next++;
            if (!subs[i].problem.empty()) continue;
            std::vector<std::string> args = {exe, "grade", ex.lesson, "--exercise", ex.id, "--solution", fs::absolute(subs[i].file).string(),
                                             "--json", "--seed", std::to_string(seed), "--baselines", baselinePath};
            if (!a.compiler.empty()) args.insert(args.end(), {"--compiler", a.compiler});
            running.push_back(spawn(args, limits, i, tmpDir));
        }
        bool reaped = false;
        for (size_t k = 0; k < running.size();) {
            Child& c = running[k];
            int status = 0;
            pid_t w = waitpid(c.pid, &status, WNOHANG);
            bool timedOut = false;
            if (w == 0 && std::chrono::steady_clock::now() - c.start > std::chrono::seconds(a.timeoutSeconds)) {
                kill(-c.pid, SIGKILL);
                waitpid(c.pid, &status, 0);
                timedOut = true;
                w = c.pid;
            }
            if (w == c.pid || (w < 0 && errno != EINTR)) {
                kill(-c.pid, SIGKILL);   // anything the child left behind in its group
                finish(c, status, timedOut);
                running.erase(running.begin() + long(k));
                reaped = true;
            } else ++k;
        }
        if (!reaped) std::this_thread::sleep_for(std::chrono::milliseconds(15));
    }
    if (progress) std::fprintf(stderr, "\n");

    grade::ClassInfo info;
    info.seed = seed;
    info.threads = a.threads;
    info.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    info.date = utcNow();
    int passed = 0, failed = 0, ungraded = 0;
    for (auto& r : rows) (!r.graded ? ungraded : r.passed ? passed : failed)++;

    if (!a.csv.empty() && !writeFile(a.csv, grade::classCsv(ex, rows, info)))
        throw Error(Error::Kind::Input, "Cannot write '" + a.csv + "'.");
    if (!a.html.empty() && !writeFile(a.html, grade::classHtml(ex, rows, info)))
        throw Error(Error::Kind::Input, "Cannot write '" + a.html + "'.");

    if (a.asJson) {
        json out = {{"lesson", ex.lesson}, {"exercise", ex.id}, {"seed", seed}, {"threads", a.threads}, {"seconds", info.wallSeconds},
                    {"passed", passed}, {"failed", failed}, {"not_graded", ungraded}};
        out["students"] = json::array();
        for (auto& r : rows) {
            json s = {{"student", r.student}, {"file", r.file}, {"graded", r.graded}, {"passed", r.passed}, {"seconds", r.seconds},
                      {"reason", r.reason}};
            if (r.graded) s["grade"] = grade::gradeToJson(ex, r.result, r.file);
            out["students"].push_back(s);
        }
        std::cout << out.dump(2) << "\n";
        return 0;
    }
    std::printf("%s / %s: %zu submissions, hidden sets from seed %llu\n", ex.lesson.c_str(), ex.id.c_str(), rows.size(),
                static_cast<unsigned long long>(seed));
    size_t w = 7;
    for (auto& r : rows) w = std::max(w, r.student.size());
    for (auto& r : rows) {
        std::string reason = r.reason.size() > 110 ? r.reason.substr(0, 107) + "..." : r.reason;
        std::printf("  %-*s  %-10s %s\n", int(w), r.student.c_str(), !r.graded ? "NOT GRADED" : r.passed ? "PASS" : "FAIL", reason.c_str());
    }
    std::printf("%d passed, %d failed, %d not graded in %.1f s (%d processes at a time)\n", passed, failed, ungraded, info.wallSeconds, a.threads);
    if (!a.csv.empty()) std::printf("CSV: %s\n", a.csv.c_str());
    if (!a.html.empty()) std::printf("HTML: %s\n", a.html.c_str());
    return 0;
}
