// Exercises of kind "program" (program_exercise.hpp).
//
// Sections: 1. loading  2. running a program in the sandbox  3. comparing outputs
//           4. measures from the counters and the timeline  5. grading
#include "grade/program_exercise.hpp"
#include "base/data_dir.hpp"
#include "base/error.hpp"
#include "base/files.hpp"
#include "base/sandbox.hpp"
#include "cudart/build.hpp"
#include "runtime/timeline.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace warpscope::grade {

namespace {

[[noreturn]] void bad(const fs::path& file, const std::string& msg) { throw Error(Error::Kind::Input, file.string() + ": " + msg); }

std::string num(double v, int digits = 2) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

// measure -> the panel that shows why it fails
const std::map<std::string, std::string> kProgramMeasures = {
    {"kernel_time_us", "stalls"},  {"sectors_per_request", "global"}, {"divergent_branches", "divergence"},
    {"kernel_launches", "timeline"}, {"memcpy_calls", "timeline"},    {"overlap_fraction", "timeline"}};

} // namespace

const std::vector<std::string>& programMeasures() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (auto& [m, p] : kProgramMeasures) v.push_back(m);
        return v;
    }();
    return names;
}

// ---------------------------------------------------------------- 1. loading
void loadProgramKeys(const json& j, Exercise& ex, const fs::path& file) {
    auto spec = std::make_shared<ProgramSpec>();
    if (!j.contains("args") || !j["args"].is_array()) bad(file, "\"args\": list the parameters the program takes on its command line, in order");
    for (auto& a : j["args"]) {
        if (!a.is_string() || a.get<std::string>().empty()) bad(file, "\"args\" must be a list of parameter names");
        spec->args.push_back(a.get<std::string>());
    }
    for (size_t i = 0; i < ex.paramSets.size(); ++i)
        for (auto& a : spec->args)
            if (!ex.paramSets[i].count(a)) bad(file, "params[" + std::to_string(i) + "] must give every argument; it has no \"" + a + "\"");
    if (j.contains("compare")) {
        const json& c = j["compare"];
        if (c.is_string() && c.get<std::string>() == "exact") spec->compare = "exact";
        else if (c.is_object() && c.contains("numbers") && c["numbers"].is_number() && c["numbers"].get<double>() >= 0 && c.size() == 1) {
            spec->compare = "numbers";
            spec->tolerance = c["numbers"].get<double>();
        } else bad(file, "\"compare\" is \"exact\" or {\"numbers\": tolerance} (relative, at least 1 in absolute terms)");
    }
    if (j.contains("performance")) {
        PerfGoalRules rules;
        rules.measures = programMeasures();
        rules.measuresOf = " for a program";
        // A predicted time is only as good as the cycle model: the goal says where its number comes from.
        rules.check = [&file](const PerfGoal& goal, const std::string& where) {
            if (goal.measure == "kernel_time_us" && goal.why.empty()) bad(file, where + ": a kernel_time_us goal needs \"why\" (where its target comes from)");
        };
        ex.performance = loadPerfGoals(j["performance"], file, rules, ex.kernels);
    }
    if (ex.hidden.sets > 0)
        for (auto& [name, r] : ex.hidden.vary)
            if (std::find(spec->args.begin(), spec->args.end(), name) == spec->args.end())
                bad(file, "hidden.vary." + name + ": not one of the program's \"args\"");
    ex.program = spec;
}

// ---------------------------------------------------------------- 2. running a program in the sandbox
namespace {

struct ProgramRun {
    bool started = false;
    std::string startError;
    sandbox::Result result;
    bool isolated = false;
    std::string out, err;       // standard output and error (each cut at kOutputCap)
    bool outCut = false;
    std::string status;         // "fault" / "check" lines the runtime wrote
    std::vector<json> launches; // the counters file's lines
    runtime::Timeline timeline;
};

constexpr size_t kOutputCap = 1 << 20;

// A private folder for one build or run (base::TempDir), or Error(Device) saying it cannot be made.
std::string privateDir(const base::TempDir& dir) {
    if (dir.path.empty()) throw Error(Error::Kind::Device, "Cannot make a temporary folder under " + fs::temp_directory_path().string() + ".");
    return dir.path.string();
}

std::string slurp(const fs::path& p) { return base::readFile(p).value_or(""); }

sandbox::Limits limitsFor(const GradeOptions& o) {
    sandbox::Limits l;
    const double wall = o.programSeconds > 0 ? o.programSeconds : 60;
    l.wallSeconds = uint64_t(std::ceil(wall));
    l.cpuSeconds = std::min<uint64_t>(30, l.wallSeconds);
    l.memoryMb = 4096;
    // Under a lower hard limit (grade-all's child processes have one) the program gets that.
    if (rlimit as{}; getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_max != RLIM_INFINITY)
        l.memoryMb = std::min<uint64_t>(l.memoryMb, uint64_t(as.rlim_max >> 20));
#if defined(__SANITIZE_ADDRESS__)
    l.memoryMb = 0;   // AddressSanitizer's shadow reserves terabytes
#endif
    l.fileSizeMb = 64;
    l.processes = 16;
    return l;
}

ProgramRun runProgram(const std::string& exe, const std::vector<std::string>& args, const Exercise& ex, bool timed,
                      const GradeOptions& options) {
    ProgramRun pr;
    const base::TempDir tmp("warpscope-grade-run");
    const std::string dir = privateDir(tmp);
    sandbox::Spec spec;
    spec.argv = {exe};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.captureOutput = true;
    spec.workDir = dir;
    spec.limits = limitsFor(options);
    if (const std::string data = base::findDataDir().string(); !data.empty()) spec.env.push_back({"WARPSCOPE_DATA_DIR", data});
    std::string checks;
    for (auto& c : ex.checkers) checks += (checks.empty() ? "" : ",") + c;
    spec.env.push_back({"WARPSCOPE_LINE_BUFFERED", "1"});
    spec.env.push_back({"WARPSCOPE_CHECK", checks});
    spec.env.push_back({"WARPSCOPE_GPU", ex.gpu});
    // A kernel that never ends stops after this many warp-instructions (a launch; watched by the
    // counters probe, a program runs them at about a million a second).
    spec.env.push_back({"WARPSCOPE_BUDGET", "10000000"});
    spec.env.push_back({"WARPSCOPE_THREADS", "1"});
    spec.env.push_back({"WARPSCOPE_LAUNCH_COUNTERS", dir + "/launches.jsonl"});
    spec.env.push_back({"WARPSCOPE_TIMELINE_OUT", dir + "/timeline.json"});
    spec.env.push_back({"WARPSCOPE_TIMED", timed ? "1" : "0"});
    spec.env.push_back({"WARPSCOPE_STATUS_FILE", dir + "/.warpscope-status"});
    sandbox::Runner run(spec);
    if (!run.start(&pr.startError)) return pr;
    pr.started = true;
    pr.isolated = run.isolated();
    // The output as it comes (a full pipe would stop the program); past the cap it is read and dropped.
    run.pump([&](bool isOut, const char* data, size_t size) {
        std::string& to = isOut ? pr.out : pr.err;
        if (to.size() < kOutputCap) to.append(data, std::min(size, kOutputCap - to.size()));
        else if (isOut) pr.outCut = true;
    });
    pr.result = run.result();
    pr.status = slurp(dir + "/.warpscope-status");
    std::istringstream lines(slurp(dir + "/launches.jsonl"));
    for (std::string l; std::getline(lines, l);) {
        try {
            pr.launches.push_back(json::parse(l));
        } catch (const json::exception&) {
            break;   // a line cut short by a limit
        }
    }
    try {
        const json t = json::parse(slurp(dir + "/timeline.json"));
        for (auto& o : t.at("ops")) {
            runtime::TimelineOp op;
            op.kind = static_cast<runtime::TimelineKind>(o.at("kind").get<int>());
            op.engine = static_cast<runtime::TimelineEngine>(o.at("engine").get<int>());
            op.stream = o.at("stream").get<int>();
            op.startUs = o.at("start").get<double>();
            op.endUs = o.at("end").get<double>();
            op.bytes = o.at("bytes").get<uint64_t>();
            op.label = o.at("label").get<std::string>();
            pr.timeline.ops.push_back(op);
        }
    } catch (const std::exception&) {
        pr.timeline.ops.clear();   // no timeline (the program stopped before its end)
    }
    return pr;
}

std::string argText(const std::map<std::string, std::string>& set, const ProgramSpec& p) {
    std::string s;
    for (auto& a : p.args) s += (s.empty() ? "" : ", ") + a + "=" + set.at(a);
    return s.empty() ? "no arguments" : s;
}

std::vector<std::string> argvOf(const std::map<std::string, std::string>& set, const ProgramSpec& p) {
    std::vector<std::string> v;
    for (auto& a : p.args) v.push_back(set.at(a));
    return v;
}

// The model solution's runs, once per process for each argument list.
struct SolutionCache {
    std::mutex m;
    std::string exe;
    std::map<std::pair<std::vector<std::string>, bool>, ProgramRun> runs;
};

SolutionCache& solutionCache(const Exercise& ex) {
    static std::mutex m;
    static std::map<std::string, std::unique_ptr<SolutionCache>> caches;
    std::lock_guard<std::mutex> lock(m);
    auto& c = caches[ex.solution.string()];
    if (!c) c = std::make_unique<SolutionCache>();
    return *c;
}

const ProgramRun& solutionRun(const Exercise& ex, const std::vector<std::string>& argv, bool timed, const GradeOptions& options) {
    SolutionCache& c = solutionCache(ex);
    std::lock_guard<std::mutex> lock(c.m);
    if (c.exe.empty()) {
        cudart::BuildOptions bo;
        bo.sources = {ex.solution.string()};
        cudart::BuildResult b = cudart::buildProgram(bo);
        if (!b.ok) {
            std::string diag;
            for (auto& d : b.diagnostics) diag += "\n  " + d.text();
            throw Error(Error::Kind::Input, ex.dir.string() + ": the exercise's solution does not build: " + (diag.empty() ? b.error : diag));
        }
        c.exe = b.executable;
    }
    auto key = std::make_pair(argv, timed);
    auto it = c.runs.find(key);
    if (it != c.runs.end()) return it->second;
    GradeOptions generous = options;
    generous.programSeconds = std::max(60.0, options.programSeconds);
    ProgramRun r = runProgram(c.exe, argv, ex, timed, generous);
    if (!r.started || !r.result.exited || r.result.exitCode != 0 || r.result.limit != sandbox::Limit::None || !r.status.empty()) {
        std::string args;
        for (auto& a : argv) args += " " + a;
        throw Error(Error::Kind::Input, ex.dir.string() + ": the exercise's solution did not run cleanly with arguments" + args + ": " +
                                            (r.started ? r.result.message + " exit " + std::to_string(r.result.exitCode) + " " + r.status + r.err
                                                       : r.startError));
    }
    return c.runs.emplace(key, std::move(r)).first->second;
}

// ---------------------------------------------------------------- 3. comparing outputs
std::vector<std::string> outputLines(const std::string& text) {
    std::vector<std::string> v;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
        while (!l.empty() && (l.back() == ' ' || l.back() == '\t' || l.back() == '\r')) l.pop_back();
        v.push_back(l);
    }
    while (!v.empty() && v.back().empty()) v.pop_back();
    return v;
}

std::vector<std::string> words(const std::string& l) {
    std::vector<std::string> w;
    std::istringstream in(l);
    for (std::string x; in >> x;) w.push_back(x);
    return w;
}

bool asNumber(const std::string& w, double* v) {
    char* end = nullptr;
    *v = std::strtod(w.c_str(), &end);
    return end && end != w.c_str() && *end == 0;
}

std::string shown(const std::string& l) { return "'" + (l.size() > 80 ? l.substr(0, 77) + "..." : l) + "'"; }

// "" when the outputs agree, else where they first differ.
std::string compareOutputs(const std::string& got, const std::string& want, const ProgramSpec& p) {
    const auto g = outputLines(got), w = outputLines(want);
    for (size_t i = 0; i < std::max(g.size(), w.size()); ++i) {
        const std::string line = "line " + std::to_string(i + 1);
        if (i >= g.size()) return line + ": the output ends; expected " + shown(w[i]);
        if (i >= w.size()) return line + ": " + shown(g[i]) + ", where the output should have ended";
        if (g[i] == w[i]) continue;
        if (p.compare != "numbers") return line + ": got " + shown(g[i]) + ", expected " + shown(w[i]);
        const auto gw = words(g[i]), ww = words(w[i]);
        if (gw.size() != ww.size()) return line + ": got " + shown(g[i]) + ", expected " + shown(w[i]);
        for (size_t k = 0; k < gw.size(); ++k) {
            double a = 0, b = 0;
            if (asNumber(gw[k], &a) && asNumber(ww[k], &b)) {
                if (std::fabs(a - b) <= p.tolerance * std::max(1.0, std::fabs(b)) || (std::isnan(a) && std::isnan(b))) continue;
                return line + ": got " + gw[k] + ", expected " + ww[k] + " (within " + num(p.tolerance * 100, 4) + " %): " + shown(g[i]);
            }
            if (gw[k] != ww[k]) return line + ": got " + shown(g[i]) + ", expected " + shown(w[i]);
        }
    }
    return "";
}

// The last lines of a text, for a criterion's detail.
std::string tail(const std::string& text, size_t lines = 12) {
    auto v = outputLines(text);
    std::string s;
    for (size_t i = v.size() > lines ? v.size() - lines : 0; i < v.size(); ++i) s += (s.empty() ? "" : "\n") + v[i];
    return s;
}

// The runtime's reports on stderr: "warpscope: TOOL: hazard: message" and "warpscope: kernel K faulted: ...".
struct Reports {
    std::map<std::string, std::vector<std::string>> byChecker;
};
Reports reportsOf(const std::string& err) {
    Reports r;
    std::istringstream in(err);
    for (std::string l; std::getline(in, l);) {
        for (const char* tool : {"racecheck", "initcheck", "synccheck", "memcheck"})
            if (l.rfind(std::string("warpscope: ") + tool + ": ", 0) == 0) r.byChecker[tool].push_back(l.substr(11));
        if (l.rfind("warpscope: kernel ", 0) == 0 && l.find(" faulted: ") != std::string::npos) {
            const bool sync = l.find("deadlock") != std::string::npos || l.find("barrier") != std::string::npos ||
                              l.find("member mask") != std::string::npos;
            r.byChecker[sync ? "synccheck" : "memcheck"].push_back(l.substr(11));
        }
    }
    return r;
}

// ---------------------------------------------------------------- 4. measures from the counters and the timeline
bool counted(const PerfGoal& g, const json& launch) {
    if (g.kernels.empty()) return true;
    const std::string name = launch.value("name", ""), mangled = launch.value("kernel", "");
    return std::find_if(g.kernels.begin(), g.kernels.end(), [&](const std::string& k) { return k == name || k == mangled; }) != g.kernels.end();
}

std::string kernelsText(const PerfGoal& g) {
    std::string s;
    for (auto& k : g.kernels) s += (s.empty() ? "" : ", ") + k;
    return s.empty() ? "every kernel" : s;
}

std::string targetText(const PerfGoal& g, const std::string& unit) {
    std::string t;
    if (g.min) t += ">= " + num(*g.min) + unit;
    if (g.max) t += std::string(t.empty() ? "" : " and ") + "<= " + num(*g.max) + unit;
    return t;
}

Criterion measureProgram(const PerfGoal& g, const ProgramRun& pr, const std::map<std::string, std::string>& set, const ProgramSpec& p) {
    Criterion c;
    c.kind = "performance";
    c.measure = g.measure;
    c.panel = kProgramMeasures.at(g.measure);
    c.params = set;
    c.name = g.measure + " (" + argText(set, p) + ")";
    double v = 0;
    uint64_t launches = 0;
    double us = 0, sectors = 0, requests = 0, divergent = 0;
    for (auto& l : pr.launches)
        if (counted(g, l)) {
            ++launches;
            us += l.value("us", 0.0);
            sectors += l.value("global_sectors", 0.0);
            requests += l.value("global_requests", 0.0);
            divergent += l.value("divergent_branches", 0.0);
        }
    std::string unit;
    if (g.measure == "kernel_time_us") {
        c.name = "predicted time of " + kernelsText(g) + " (" + argText(set, p) + ")";
        v = us;
        unit = " us";
        c.measured = num(v, 2) + " us over " + std::to_string(launches) + (launches == 1 ? " launch" : " launches");
        if (g.why.size()) c.detail = "Predicted by the cycle model (WARPSCOPE_TIMED=1): " + g.why;
    } else if (g.measure == "sectors_per_request") {
        c.name = "sectors per request (" + kernelsText(g) + ")";
        v = requests > 0 ? sectors / requests : 0;
        c.measured = num(v) + " (" + num(sectors, 0) + " sectors, " + num(requests, 0) + " requests)";
    } else if (g.measure == "divergent_branches") {
        c.name = "divergent branches (" + kernelsText(g) + ")";
        v = divergent;
        c.measured = num(v, 0);
    } else if (g.measure == "kernel_launches") {
        c.name = "launches of " + kernelsText(g);
        v = double(launches);
        c.measured = num(v, 0);
    } else if (g.measure == "memcpy_calls") {
        c.name = "copies between host and device";
        for (auto& op : pr.timeline.ops)
            if (op.kind == runtime::TimelineKind::CopyHtoD || op.kind == runtime::TimelineKind::CopyDtoH) v += 1;
        c.measured = num(v, 0) + " copies";
    } else {   // overlap_fraction
        c.name = "copies overlap kernels (" + argText(set, p) + ")";
        const double total = pr.timeline.totalUs();
        v = total > 0 ? pr.timeline.overlapUs() / total : 0;
        c.measured = num(v * 100, 0) + " % of " + num(total, 1) + " us";
        PerfGoal percent = g;
        if (g.min) percent.min = *g.min * 100;
        if (g.max) percent.max = *g.max * 100;
        c.target = targetText(percent, " %");
    }
    if (c.target.empty()) c.target = targetText(g, unit);
    c.value = v;
    const bool noLaunch = launches == 0 && g.measure != "memcpy_calls" && g.measure != "overlap_fraction";
    c.passed = !noLaunch && (!g.min || v >= *g.min - 1e-9) && (!g.max || v <= *g.max + 1e-9);
    if (noLaunch) c.measured = "no launch of " + kernelsText(g);
    return c;
}

} // namespace

// ---------------------------------------------------------------- 5. grading
GradeResult gradeProgramText(const Exercise& ex, const std::string& text, const std::string& fileName, const GradeOptions& options,
                             uint64_t seed) {
    const ProgramSpec& p = *ex.program;
    GradeResult out;
    out.seed = seed;
    auto finish = [&]() {
        out.passed = !out.criteria.empty() &&
                     std::all_of(out.criteria.begin(), out.criteria.end(), [](const Criterion& c) { return c.passed; });
        return out;
    };

    // Builds: host and device code, in a private folder under the learner's file name.
    Criterion bc;
    bc.name = "builds (host and device code)";
    bc.kind = "compile";
    bc.target = "no errors";
    bc.panel = "source";
    std::string exe, buildSource;
    {
        const base::TempDir tmp("warpscope-grade-build");
        const std::string dir = privateDir(tmp);
        std::string base = fs::path(fileName).filename().string();
        if (base.empty() || fs::path(base).extension() != ".cu") base = "program.cu";
        const fs::path src = fs::path(dir) / base;
        buildSource = src.string();
        std::ofstream(src, std::ios::binary) << text;
        cudart::BuildOptions bo;
        bo.sources = {src.string()};
        cudart::BuildResult b = cudart::buildProgram(bo);
        bc.passed = b.ok;
        bc.measured = b.ok ? "built" : "build error";
        if (!b.ok) {
            std::string diag;
            for (auto& d : b.diagnostics) {
                if (d.severity != compile::Diagnostic::Severity::Error) continue;
                if (!bc.line && d.line) bc.line = d.line;
                std::string t = d.text();
                if (auto at = t.find(src.string()); at != std::string::npos) t.replace(at, src.string().size(), fileName);
                diag += (diag.empty() ? "" : "\n") + t;
            }
            bc.detail = diag.empty() ? b.error : diag;
        }
        exe = b.executable;
    }
    out.criteria.push_back(bc);
    if (!bc.passed) return finish();

    const std::vector<AttemptSet> sets = attemptSets(ex, seed, out);

    std::map<std::string, std::pair<int, std::string>> checkerTally;   // checker -> (runs with reports, the first)
    std::map<std::string, std::map<std::string, std::string>> checkerSet;
    std::string stoppedBy;   // a run stopped at a time limit: the later ones are not run
    double bestSpread = 0, mostWork = 0;
    std::string spreadWhere;
    bool anyRan = false;
    for (auto& rs : sets) {
        Criterion c;
        c.kind = "correctness";
        c.name = std::string(rs.hidden ? "correct (hidden: " : "correct (") + argText(rs.params, p) + ")";
        c.target = "the model's output, exit 0";
        c.panel = "reports";
        c.params = rs.params;
        if (!stoppedBy.empty()) {
            c.measured = "not run";
            c.detail = "An earlier run was " + stoppedBy + ".";
            out.criteria.push_back(c);
            continue;
        }
        const std::vector<std::string> argv = argvOf(rs.params, p);
        const ProgramRun& want = solutionRun(ex, argv, false, options);
        ProgramRun got = runProgram(exe, argv, ex, false, options);
        if (!got.started) {
            c.measured = "did not start";
            c.detail = got.startError;
            out.criteria.push_back(c);
            continue;
        }
        const sandbox::Result& res = got.result;
        const Reports reps = reportsOf(got.err);
        for (auto& [tool, lines] : reps.byChecker) {
            auto& t = checkerTally[tool];
            if (!t.first++) {
                t.second = lines.front() + " (" + argText(rs.params, p) + ")";
                checkerSet[tool] = rs.params;
            }
        }
        std::string errTail = tail(got.err);
        for (size_t at; (at = errTail.find(buildSource)) != std::string::npos;) errTail.replace(at, buildSource.size(), fileName);
        if (res.limit != sandbox::Limit::None) {
            std::string m = res.message;
            if (m.rfind("warpscope: ", 0) == 0) m.erase(0, 11);
            c.measured = res.limit == sandbox::Limit::Network || res.limit == sandbox::Limit::OutsideWrite
                             ? std::string("stopped: ") + sandbox::limitName(res.limit)
                             : std::string("stopped at ") + sandbox::limitName(res.limit);
            c.detail = m + "." + (errTail.empty() ? "" : "\n" + errTail);
            if (res.limit == sandbox::Limit::CpuTime || res.limit == sandbox::Limit::WallTime) stoppedBy = "stopped at " + std::string(sandbox::limitName(res.limit));
        } else if (!res.exited) {
            c.measured = "crashed: signal " + std::to_string(res.signal);
            c.detail = std::string(strsignal(res.signal)) + ". ";
            c.detail += "The host code crashed (a null or freed pointer, or a device pointer read on the host?)." + (errTail.empty() ? "" : "\n" + errTail);
        } else if (got.status.find("fault") != std::string::npos) {
            c.measured = "a kernel faulted";
            c.detail = errTail;
            // A kernel that never ends takes its whole budget in every run: one is enough.
            if (got.err.find("exceeded its instruction budget") != std::string::npos) {
                c.measured = "a kernel faulted (instruction budget)";
                stoppedBy = "stopped at the kernel instruction budget";
            }
        } else if (got.status.find("check") != std::string::npos) {
            c.measured = "a checker reported";
            c.detail = errTail;
        } else if (res.exitCode != 0) {
            c.measured = "exit code " + std::to_string(res.exitCode);
            const std::string diff = compareOutputs(got.out, want.out, p);
            c.detail = "The program's own check failed, or it returned an error code." + (diff.empty() ? "" : " Its output differs: " + diff) +
                       (errTail.empty() ? "" : "\n" + errTail);
        } else if (got.outCut) {
            c.measured = "printed more than 1 MiB";
        } else if (std::string diff = compareOutputs(got.out, want.out, p); !diff.empty()) {
            c.measured = "output differs";
            c.detail = "Its output differs at " + diff + "\nIts output:\n" + tail(got.out) + "\nThe model solution's:\n" + tail(want.out);
        } else {
            c.passed = true;
            c.measured = "same output (" + std::to_string(outputLines(want.out).size()) + " lines)";
        }
        if (!got.isolated && !c.passed) c.detail += (c.detail.empty() ? "" : "\n") + sandbox::isolationNote();
        // Whether the work is spread over threads: judged on the run with the most work.
        if (res.exited && !got.launches.empty()) {
            anyRan = true;
            double work = 0, busiest = 0;
            for (auto& l : got.launches) {
                const std::string name = l.value("name", "");
                if (!ex.parallelKernels.empty() && std::find(ex.parallelKernels.begin(), ex.parallelKernels.end(), name) == ex.parallelKernels.end())
                    continue;
                work += l.value("thread_inst", 0.0);
                busiest += l.value("busiest_thread_inst", 0.0);
            }
            if (work > mostWork) {
                mostWork = work;
                bestSpread = busiest > 0 ? work / busiest : 0;
                spreadWhere = argText(rs.params, p) + ": " + std::to_string(got.launches.size()) +
                              (got.launches.size() == 1 ? " launch" : " launches") + ", the busiest thread ran " +
                              num(100.0 / std::max(bestSpread, 1e-9), 0) + " % of all thread instructions";
            }
        }
        out.criteria.push_back(c);
    }
    for (auto& name : ex.checkers) {
        Criterion c = checkerCriterion(name);
        auto it = checkerTally.find(name);
        c.passed = it == checkerTally.end();
        c.measured = c.passed ? "no reports" : "reports in " + std::to_string(it->second.first) + (it->second.first == 1 ? " run" : " runs");
        if (!c.passed) {
            c.detail = it->second.second;
            c.params = checkerSet[name];
        }
        out.criteria.push_back(c);
    }
    if (ex.parallelMin) {
        Criterion c = parallelCriterion(*ex.parallelMin, bestSpread);
        if (!anyRan) {
            c.passed = false;
            c.measured = "no kernel ran";
        } else if (!c.passed)
            c.detail = "The work is not spread over the threads: at " + spreadWhere +
                       ". Launch enough blocks for n and give each thread its own element (its index, or a grid-stride loop) "
                       "instead of letting one thread loop over all of them.";
        out.criteria.push_back(c);
    }
    if (!ex.performance.empty() && stoppedBy.empty()) {
        const bool timed = std::any_of(ex.performance.begin(), ex.performance.end(), [](const PerfGoal& g) { return g.measure == "kernel_time_us"; });
        std::map<std::string, std::string> set = ex.perfParams;
        for (auto& a : p.args)
            if (!set.count(a)) set[a] = ex.paramSets.front().at(a);
        ProgramRun pr = runProgram(exe, argvOf(set, p), ex, timed, options);
        // Measured whenever the program ran to its end (a wrong result or exit code fails "correct",
        // not these); a crash or a limit leaves its counters incomplete.
        const bool ranClean = pr.started && pr.result.exited && pr.result.limit == sandbox::Limit::None;
        for (auto& g : ex.performance) {
            Criterion c = measureProgram(g, pr, set, p);
            if (!ranClean) {
                c.passed = false;
                c.measured = "the run at " + argText(set, p) + " did not end cleanly";
                c.detail = pr.started ? pr.result.message + tail(pr.err, 4) : pr.startError;
            }
            out.criteria.push_back(c);
        }
    }
    return finish();
}

} // namespace warpscope::grade
