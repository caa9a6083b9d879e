// Exercise loading and grading (grader.hpp).
//
// Sections: 1. helpers  2. loading exercise.json  3. building the lesson the learner's file runs in
//           4. correctness and checker runs  5. performance runs and measures  6. gradeText
#include "grade/grader.hpp"
#include "base/files.hpp"
#include "grade/course.hpp"
#include "grade/program_exercise.hpp"
#include "base/error.hpp"
#include "compile/compile.hpp"
#include "runtime/expr.hpp"
#include "runtime/lesson.hpp"
#include "run/run.hpp"
#include "runtime/sim_device.hpp"
#include "timing/cycle_model.hpp"
#include "timing/gpu_spec.hpp"
#include "trace/counters.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <regex>
#include <functional>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace warpscope::grade {

// ---------------------------------------------------------------- 1. helpers
namespace {

std::string readText(const fs::path& p) { return base::readFileOrThrow(p); }

[[noreturn]] void bad(const fs::path& file, const std::string& msg) {
    throw Error(Error::Kind::Input, file.string() + ": " + msg);
}

std::string num(double v, int digits = 2) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string paramText(const std::map<std::string, std::string>& p) {
    std::string s;
    for (auto& [k, v] : p) s += (s.empty() ? "" : ", ") + k + "=" + v;
    return s.empty() ? "defaults" : s;
}

const std::set<std::string> kCheckers = {"memcheck", "racecheck", "initcheck", "synccheck"};
// measure -> the panel that shows why it fails
const std::map<std::string, std::string> kMeasures = {
    {"sectors_per_request", "global"},  {"bank_conflicts", "shared"},         {"divergent_branches", "divergence"},
    {"global_loads_per_element", "global"}, {"occupancy", "occupancy"},       {"speedup_vs_starter", "stalls"},
    {"timeline_speedup_vs_starter", "timeline"}, {"overlap_fraction", "timeline"}, {"shared_requests_per_block", "shared"}};

std::map<std::string, std::string> stringParams(const json& j, const fs::path& file, const std::string& where) {
    std::map<std::string, std::string> out;
    if (!j.is_object()) bad(file, where + " must be an object of NAME: value");
    for (auto& [k, v] : j.items()) {
        if (v.is_number_integer()) out[k] = std::to_string(v.get<long long>());
        else if (v.is_number()) out[k] = num(v.get<double>(), 6);
        else if (v.is_string()) out[k] = v.get<std::string>();
        else bad(file, where + "." + k + " must be a number");
    }
    return out;
}

} // namespace

bool isTimeGoal(const std::string& measure) {
    return measure == "speedup_vs_starter" || measure == "timeline_speedup_vs_starter";
}

// ---------------------------------------------------------------- 2. loading exercise.json
std::vector<PerfGoal> loadPerfGoals(const json& list, const fs::path& file, const PerfGoalRules& rules,
                                    const std::vector<std::string>& kernels) {
    if (!list.is_array()) bad(file, "\"performance\" must be a list of goals");
    const std::string keys = rules.perAndModelError ? "measure, min, max, kernel, per, model_error, why" : "measure, min, max, kernel, why";
    std::vector<PerfGoal> goals;
    for (size_t i = 0; i < list.size(); ++i) {
        const json& g = list[i];
        const std::string where = "performance[" + std::to_string(i) + "]";
        if (!g.is_object() || !g.contains("measure") || !g["measure"].is_string()) bad(file, where + " needs a \"measure\"");
        PerfGoal goal;
        goal.measure = g["measure"].get<std::string>();
        if (std::find(rules.measures.begin(), rules.measures.end(), goal.measure) == rules.measures.end()) {
            std::string names;
            for (auto& m : rules.measures) names += (names.empty() ? "" : ", ") + m;
            bad(file, where + ": unknown measure '" + goal.measure + "'" + rules.measuresOf + " (" + names + ")");
        }
        for (auto& [k, v] : g.items()) {
            if (k == "measure") continue;
            if (k == "min" || k == "max") {
                if (!v.is_number()) bad(file, where + "." + k + " must be a number");
                (k == "min" ? goal.min : goal.max) = v.get<double>();
            } else if (k == "kernel") {
                if (!v.is_string()) bad(file, where + ".kernel must be a kernel's name");
                goal.kernels = {v.get<std::string>()};
            } else if (k == "per" && rules.perAndModelError) {
                if (!v.is_string()) bad(file, where + ".per must be an expression string");
                goal.per = v.get<std::string>();
            } else if (k == "model_error" && rules.perAndModelError) {
                if (!v.is_number() || v.get<double>() < 0) bad(file, where + ".model_error must be a number >= 0 (0.3 = 30 %)");
                goal.modelError = v.get<double>();
            } else if (k == "why") {
                if (!v.is_string() || v.get<std::string>().empty()) bad(file, where + ".why must be a sentence");
                goal.why = v.get<std::string>();
            } else bad(file, where + ": unknown key \"" + k + "\" (" + keys + ")");
        }
        if (!goal.min && !goal.max) bad(file, where + " needs a \"min\" or \"max\" target");
        if (rules.check) rules.check(goal, where);
        if (goal.kernels.empty()) goal.kernels = kernels;
        goals.push_back(goal);
    }
    return goals;
}

Exercise loadExercise(const fs::path& exerciseDir, const fs::path& lessonDir) {
    fs::path file = exerciseDir / "exercise.json";
    json j;
    try {
        j = json::parse(readText(file));
    } catch (const json::exception& e) {
        bad(file, std::string("not valid JSON: ") + e.what());
    }
    if (!j.is_object()) bad(file, "must be a JSON object");
    static const std::set<std::string> keys = {"title", "goal", "kind", "kernels", "starter", "solution", "hints", "lesson",
                                               "params", "checkers", "performance", "perf_params", "gpu", "order",
                                               "hidden", "parallel", "fixed", "arch", "args", "compare"};
    for (auto& [k, v] : j.items())
        if (!keys.count(k)) bad(file, "unknown key \"" + k + "\"");
    Exercise ex;
    ex.dir = fs::absolute(exerciseDir);
    ex.lessonDir = fs::absolute(lessonDir);
    ex.id = exerciseDir.filename().string();
    ex.lesson = lessonDir.filename().string();
    auto str = [&](const char* k, bool required) -> std::string {
        if (!j.contains(k)) {
            if (required) bad(file, std::string("missing \"") + k + "\"");
            return "";
        }
        if (!j[k].is_string()) bad(file, std::string("\"") + k + "\" must be a string");
        return j[k].get<std::string>();
    };
    ex.title = str("title", true);
    ex.goal = str("goal", true);
    std::string kind = str("kind", false);
    if (!kind.empty() && kind != "kernel" && kind != "host" && kind != "program") bad(file, "\"kind\" is \"kernel\", \"host\" or \"program\"");
    if (kind != "program" && (j.contains("args") || j.contains("compare"))) bad(file, "\"args\" and \"compare\" belong to exercises of kind \"program\"");
    ex.hostProgram = kind == "host";
    // A target above the compilers' default (cp.async needs sm_80: below it, <cuda_pipeline.h>
    // makes an ordinary load and store), so a learner's file compiles as the lesson's kernel does.
    ex.arch = str("arch", false);
    if (!ex.arch.empty() && !std::regex_match(ex.arch, std::regex("sm_[0-9]{2,3}[a-z]?")))
        bad(file, "\"arch\" is a target such as \"sm_80\", not \"" + ex.arch + "\"");
    ex.starter = ex.dir / str("starter", true);
    ex.solution = ex.dir / str("solution", true);
    if (!fs::exists(ex.starter)) bad(file, "starter '" + ex.starter.string() + "' does not exist");
    if (!fs::exists(ex.solution)) bad(file, "solution '" + ex.solution.string() + "' does not exist");
    auto strList = [&](const char* k) {
        std::vector<std::string> v;
        if (!j.contains(k)) return v;
        if (!j[k].is_array()) bad(file, std::string("\"") + k + "\" must be a list of strings");
        for (auto& e : j[k]) {
            if (!e.is_string()) bad(file, std::string("\"") + k + "\" must be a list of strings");
            v.push_back(e.get<std::string>());
        }
        return v;
    };
    ex.kernels = strList("kernels");
    if (!ex.hostProgram && kind != "program" && ex.kernels.empty()) bad(file, "\"kernels\": name the kernels the learner's file must define");
    ex.hints = strList("hints");
    ex.checkers = strList("checkers");
    for (auto& c : ex.checkers)
        if (!kCheckers.count(c)) bad(file, "unknown checker '" + c + "' (memcheck, racecheck, initcheck, synccheck)");
    if (j.contains("lesson")) {
        if (!j["lesson"].is_object()) bad(file, "\"lesson\" must be an object (a merge patch of lesson.json)");
        ex.lessonPatch = j["lesson"].dump();
    }
    if (j.contains("params")) {
        if (!j["params"].is_array()) bad(file, "\"params\" must be a list of parameter sets");
        for (size_t i = 0; i < j["params"].size(); ++i)
            ex.paramSets.push_back(stringParams(j["params"][i], file, "params[" + std::to_string(i) + "]"));
    }
    if (ex.paramSets.empty()) ex.paramSets.push_back({});
    if (j.contains("perf_params")) ex.perfParams = stringParams(j["perf_params"], file, "perf_params");
    if (j.contains("fixed")) {
        if (!j["fixed"].is_object()) bad(file, "\"fixed\" must be an object of NAME: \"why it stays at one value\"");
        for (auto& [k, v] : j["fixed"].items()) {
            if (!v.is_string() || v.get<std::string>().empty()) bad(file, "fixed." + k + " must say why (a string)");
            ex.fixedParams[k] = v.get<std::string>();
        }
    }
    if (j.contains("parallel")) {
        const json& p = j["parallel"];
        if (p.is_boolean()) ex.parallelMin = p.get<bool>() ? std::optional<double>(32.0) : std::nullopt;
        else if (p.is_object() && !p.empty()) {
            ex.parallelMin = 32.0;
            for (auto& [k, v] : p.items()) {
                if (k == "min" && v.is_number() && v.get<double>() >= 1) ex.parallelMin = v.get<double>();
                else if (k == "kernels" && v.is_array() && !v.empty()) {
                    for (auto& n : v) {
                        if (!n.is_string()) bad(file, "parallel.kernels lists kernel names");
                        ex.parallelKernels.push_back(n.get<std::string>());
                    }
                } else bad(file, "\"parallel\" is false, true or {\"min\": threads (>= 1), \"kernels\": [names]}");
            }
        } else bad(file, "\"parallel\" is false, true or {\"min\": threads (>= 1), \"kernels\": [names]}");
    }
    if (ex.hostProgram) ex.parallelMin.reset();   // the lesson's own kernels run
    if (j.contains("hidden")) {
        const json& h = j["hidden"];
        if (!h.is_object()) bad(file, "\"hidden\" must be an object: {\"sets\": N, \"vary\": {...}, \"fixed\": {...}}");
        for (auto& [k, v] : h.items()) {
            if (k == "sets") {
                if (!v.is_number_integer() || v.get<int>() < 0 || v.get<int>() > 16) bad(file, "hidden.sets must be an integer 0 to 16");
                ex.hidden.sets = v.get<int>();
            } else if (k == "vary") {
                if (!v.is_object()) bad(file, "hidden.vary must be an object of NAME: [lo, hi] or {\"choices\": [...]}");
                for (auto& [name, r] : v.items()) {
                    HiddenRange hr;
                    if (r.is_array() && r.size() == 2 && r[0].is_number() && r[1].is_number() && r[0].get<double>() <= r[1].get<double>()) {
                        hr.lo = r[0].get<double>();
                        hr.hi = r[1].get<double>();
                    } else if (r.is_object() && r.contains("choices") && r["choices"].is_array() && !r["choices"].empty()) {
                        for (auto& c : r["choices"]) {
                            if (!c.is_number()) bad(file, "hidden.vary." + name + ".choices must be numbers");
                            hr.choices.push_back(c.get<double>());
                        }
                    } else bad(file, "hidden.vary." + name + " must be [lo, hi] (lo <= hi) or {\"choices\": [numbers]}");
                    ex.hidden.vary[name] = hr;
                }
            } else if (k == "fixed") {
                ex.hidden.fixed = stringParams(v, file, "hidden.fixed");
            } else if (k == "same") {
                if (!v.is_object()) bad(file, "hidden.same must be an object of NAME: \"OTHER\"");
                for (auto& [name, other] : v.items()) {
                    if (!other.is_string()) bad(file, "hidden.same." + name + " must name another parameter");
                    ex.hidden.same[name] = other.get<std::string>();
                }
            } else bad(file, "hidden: unknown key \"" + k + "\" (sets, vary, fixed, same)");
        }
    }
    if (j.contains("gpu")) ex.gpu = str("gpu", false);
    if (kind == "program") {
        loadProgramKeys(j, ex, file);   // "args", "compare" and the program's own measures
    } else if (j.contains("performance")) {
        PerfGoalRules rules;
        for (auto& [m, p] : kMeasures) rules.measures.push_back(m);
        rules.perAndModelError = true;
        rules.check = [&file](const PerfGoal& goal, const std::string& where) {
            if (isTimeGoal(goal.measure)) {
                // A speed-up predicted by the model is only as good as the model: a target inside
                // its error would fail correct answers that the H100 runs fast enough.
                if (!goal.modelError || goal.why.empty())
                    bad(file, where + ": a time goal needs \"model_error\" (the model's relative error on this kind of "
                                      "program, from docs/timing-validation.md) and \"why\" (where it comes from and why the "
                                      "target leaves room for it)");
                if (!goal.min) bad(file, where + ": a time goal needs a \"min\" speed-up");
            } else if (goal.modelError || !goal.why.empty()) {
                bad(file, where + ": \"model_error\" and \"why\" belong to time goals (speedup_vs_starter, timeline_speedup_vs_starter)");
            }
            if (goal.measure == "global_loads_per_element" && goal.per.empty()) bad(file, where + " needs \"per\": the element count (e.g. \"N\")");
        };
        ex.performance = loadPerfGoals(j["performance"], file, rules, ex.kernels);
    }
    return ex;
}

std::vector<Exercise> listExercises(const fs::path& lessonsDir, std::vector<std::string>* errors) {
    std::vector<Exercise> out;
    std::vector<runtime::Lesson> lessons = runtime::listLessons(lessonsDir, errors);
    // Course order (lessons/course.json); a broken course.json is reported and the lessons' own
    // "order" used instead.
    CourseFile course;
    try {
        course = loadCourseFile(lessonsDir);
    } catch (const Error& e) {
        if (errors) errors->push_back(e.what());
    }
    std::vector<LessonKey> keys;
    for (auto& L : lessons) keys.push_back({L.dir.filename().string(), L.order});
    std::vector<std::string> order = courseOrder(course, keys);
    std::stable_sort(lessons.begin(), lessons.end(), [&](const runtime::Lesson& a, const runtime::Lesson& b) {
        auto pos = [&](const runtime::Lesson& L) { return std::find(order.begin(), order.end(), L.dir.filename().string()) - order.begin(); };
        return pos(a) < pos(b);
    });
    for (auto& L : lessons) {
        fs::path exDir = L.dir / "exercises";
        if (!fs::is_directory(exDir)) continue;
        std::vector<fs::path> dirs;
        for (auto& e : fs::directory_iterator(exDir))
            if (e.is_directory() && fs::exists(e.path() / "exercise.json")) dirs.push_back(e.path());
        std::sort(dirs.begin(), dirs.end());
        for (auto& d : dirs) {
            try {
                out.push_back(loadExercise(d, L.dir));
            } catch (const Error& e) {
                if (errors) errors->push_back(d.string() + ": " + e.what());
            }
        }
    }
    return out;
}

Exercise findExercise(const fs::path& lessonsDir, const std::string& lesson, const std::string& id) {
    fs::path lessonDir = lessonsDir / lesson;
    if (lesson.empty() || !fs::exists(lessonDir / "lesson.json")) throw Error(Error::Kind::Input, "No lesson '" + lesson + "' in " + lessonsDir.string() + ".");
    fs::path d = lessonDir / "exercises" / id;
    if (id.empty() || !fs::exists(d / "exercise.json")) {
        std::string names;
        if (fs::is_directory(lessonDir / "exercises"))
            for (auto& e : fs::directory_iterator(lessonDir / "exercises")) names += (names.empty() ? "" : ", ") + e.path().filename().string();
        throw Error(Error::Kind::Input, "Lesson '" + lesson + "' has no exercise '" + id + "'" + (names.empty() ? "." : " (it has: " + names + ")."));
    }
    return loadExercise(d, lessonDir);
}

// ---------------------------------------------------------------- 2b. hidden parameter sets
namespace {

// splitmix64: a tiny generator whose sequence is the same on every platform and library (the
// standard distributions are not), so a seed names the same sets everywhere.
uint64_t nextRandom(uint64_t& s) {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
long long drawUniform(uint64_t& s, long long lo, long long hi) {
    if (hi <= lo) return lo;
    return lo + static_cast<long long>(nextRandom(s) % static_cast<uint64_t>(hi - lo + 1));
}
// Log-uniform: small and large sizes come up alike (a uniform draw in 20..100003 is nearly always large).
long long drawLog(uint64_t& s, long long lo, long long hi) {
    if (hi <= lo) return lo;
    double a = std::log(double(std::max(1LL, lo))), b = std::log(double(std::max(1LL, hi)));
    double u = double(nextRandom(s) >> 11) / double(1ull << 53);
    return std::clamp(static_cast<long long>(std::llround(std::exp(a + (b - a) * u))), lo, hi);
}

json patchedLessonJson(const Exercise& ex) {
    json j = json::parse(readText(ex.lessonDir / "lesson.json"));
    if (!ex.lessonPatch.empty()) j.merge_patch(json::parse(ex.lessonPatch));
    return j;
}

std::string intText(double v) { return std::to_string(static_cast<long long>(std::llround(v))); }

} // namespace

std::vector<std::string> unvariedParams(const Exercise& ex) {
    std::vector<std::string> out;
    json lj = patchedLessonJson(ex);
    if (ex.program) {   // its parameters are its arguments
        lj["params"] = json::object();
        for (auto& a : ex.program->args) lj["params"][a] = json::object();
    }
    if (!lj.contains("params") || !lj["params"].is_object()) return out;
    for (auto& [name, spec] : lj["params"].items()) {
        if (ex.fixedParams.count(name)) continue;
        std::string def = spec.is_object() && spec.contains("default") ? spec["default"].dump() : "";
        std::set<std::string> values;
        for (auto& set : ex.paramSets) {
            auto it = set.find(name);
            std::string v = it == set.end() ? def : it->second;
            char* end = nullptr;
            double d = std::strtod(v.c_str(), &end);
            values.insert(end && *end == 0 ? intText(d) + (d == std::floor(d) ? "" : num(d, 6)) : v);
        }
        if (values.size() < 2) out.push_back(name);
    }
    return out;
}

uint64_t freshSeed() {
    std::random_device rd;
    uint64_t s = (uint64_t(rd()) << 32) ^ rd() ^ uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
    nextRandom(s);
    return s % 1000000000ull;   // short enough to read out and type back (--seed)
}

std::vector<std::map<std::string, std::string>> hiddenParamSets(const Exercise& ex, uint64_t seed) {
    std::vector<std::map<std::string, std::string>> out;
    if (ex.hidden.sets <= 0) return out;
    json lj = ex.program ? json::object() : patchedLessonJson(ex);   // a program's parameters are its arguments
    const json params = lj.contains("params") && lj["params"].is_object() ? lj["params"] : json::object();
    auto defaultOf = [&](const std::string& k) -> std::optional<double> {
        if (params.contains(k) && params[k].is_object() && params[k].contains("default") && params[k]["default"].is_number())
            return params[k]["default"].get<double>();
        return std::nullopt;
    };
    // The values each parameter takes over the visible sets (a set that leaves it out: its default).
    std::map<std::string, std::set<double>> seen;
    std::set<std::string> named;
    for (auto& set : ex.paramSets)
        for (auto& [k, v] : set) named.insert(k);
    bool nonNumeric = false;
    for (auto& set : ex.paramSets)
        for (auto& k : named) {
            auto it = set.find(k);
            if (it == set.end()) {
                if (auto d = defaultOf(k)) seen[k].insert(*d);
                continue;
            }
            char* end = nullptr;
            double v = std::strtod(it->second.c_str(), &end);
            if (end && *end == 0) seen[k].insert(v);
            else nonNumeric = true;
        }
    (void)nonNumeric;
    std::map<std::string, HiddenRange> ranges = ex.hidden.vary;
    for (auto& [k, vals] : seen) {
        if (ranges.count(k) || ex.hidden.fixed.count(k) || ex.hidden.same.count(k) || vals.size() < 2) continue;
        bool integral = std::all_of(vals.begin(), vals.end(), [](double v) { return v == std::floor(v); });
        if (!integral) continue;   // a float parameter keeps the visible values' default
        HiddenRange r;
        if (params.contains(k) && params[k].is_object() && params[k].contains("choices") && params[k]["choices"].is_array()) {
            for (auto& c : params[k]["choices"])
                if (c.is_number()) r.choices.push_back(c.get<double>());
        }
        if (r.choices.empty()) {
            r.lo = *vals.begin();
            r.hi = *vals.rbegin();
            // Visible values that are all multiples of a tile (16 for whole tensor-core tiles)
            // say the kernel may assume it: hidden values keep that granularity. A common
            // factor below 8 is taken as chance.
            long long g = 0;
            for (double v : vals) g = std::gcd(g, static_cast<long long>(v));
            if (g >= 8) r.step = double(g);
        }
        ranges[k] = r;
    }
    for (int i = 0; i < ex.hidden.sets; ++i) {
        uint64_t s = seed * 0x100000001B3ull + uint64_t(i) * 0x9E3779B97F4A7C15ull;
        nextRandom(s);
        std::map<std::string, std::string> set = ex.hidden.fixed;
        for (auto& [k, r] : ranges) {
            if (!r.choices.empty()) {
                set[k] = intText(r.choices[nextRandom(s) % r.choices.size()]);
                continue;
            }
            long long lo = static_cast<long long>(std::ceil(*r.lo)), hi = static_cast<long long>(std::floor(*r.hi));
            long long v;
            if (r.step > 1) {   // multiples of the step between lo and hi
                long long st = static_cast<long long>(r.step), a = (lo + st - 1) / st, b = hi / st;
                v = st * (i == 0 ? a : drawUniform(s, a, std::max(a, b)));
                set[k] = std::to_string(v);
                continue;
            }
            if (i == 0) v = drawUniform(s, lo, std::max(lo, std::min(hi, 31LL)));   // below a warp where the range allows
            else v = drawLog(s, lo, hi);
            if (i == 1 && v % 2 == 0) v = v + 1 <= hi ? v + 1 : (v - 1 >= lo ? v - 1 : v);   // odd: no block size divides it
            set[k] = std::to_string(v);
        }
        for (auto& [k, other] : ex.hidden.same) {
            auto it = set.find(other);
            if (it != set.end()) set[k] = it->second;
        }
        out.push_back(std::move(set));
    }
    return out;
}

Criterion checkerCriterion(const std::string& checker) {
    Criterion c;
    c.name = checker;
    c.kind = "checker";
    c.measure = checker;
    c.target = "no reports";
    c.panel = "reports";
    return c;
}

Criterion parallelCriterion(double minimum, double spread) {
    Criterion c;
    c.name = "runs in parallel";
    c.kind = "parallel";
    c.panel = "grid";
    c.target = ">= " + num(minimum, 0) + " threads' worth of work";
    c.value = spread;
    c.passed = spread >= minimum - 1e-9;
    c.measured = num(spread, 1) + " threads' worth";
    return c;
}

std::vector<AttemptSet> attemptSets(const Exercise& ex, uint64_t seed, GradeResult& result) {
    try {
        result.hiddenSets = hiddenParamSets(ex, seed);
    } catch (const std::exception& e) {
        throw Error(Error::Kind::Input, ex.dir.string() + ": cannot draw the hidden parameter sets: " + e.what());
    }
    std::vector<AttemptSet> sets;
    for (auto& set : ex.paramSets) sets.push_back({set, false});
    for (auto& set : result.hiddenSets) sets.push_back({set, true});
    return sets;
}

// ---------------------------------------------------------------- 3. the lesson the learner's file runs in
namespace {

struct Built {
    runtime::Lesson lesson;
    std::string error;   // why it could not be built (shown as a failed criterion)
};

// lesson.json, patched by the exercise and (host-program exercises) by the learner's JSON, run
// with `ptx` in place of the lesson's kernel (empty: the lesson's own PTX).
Built buildLesson(const Exercise& ex, const std::string& ptx, const std::string& learnerJson, const fs::path& sourcePath) {
    Built b;
    fs::path file = ex.lessonDir / "lesson.json";
    json j = json::parse(readText(file));
    if (!ex.lessonPatch.empty()) j.merge_patch(json::parse(ex.lessonPatch));
    if (!learnerJson.empty()) {
        json s;
        try {
            s = json::parse(learnerJson);
        } catch (const json::exception& e) {
            b.error = std::string("not valid JSON: ") + e.what();
            return b;
        }
        // The learner writes the host program only: the buffers and checks stay the lesson's.
        if (!s.is_object()) {
            b.error = "the host program must be a JSON object with \"host\" (and optionally \"streams\")";
            return b;
        }
        for (auto& [k, v] : s.items())
            if (k != "host" && k != "streams" && k != "help") {
                b.error = "only \"host\", \"streams\" and \"help\" may be given, not \"" + k + "\"";
                return b;
            }
        s.erase("help");   // the learner's comment
        j.merge_patch(s);
    }
    j.erase("variables");
    try {
        if (ptx.empty()) {
            b.lesson = runtime::loadLessonText(j.dump(), ex.lessonDir, file.string(), true);
        } else {
            j["source"] = "kernel.cu";
            j.erase("ptx");
            b.lesson = runtime::loadLessonText(j.dump(), ex.lessonDir, file.string(), false);
            b.lesson.ptxText = ptx;
            b.lesson.sourcePath = sourcePath;
        }
    } catch (const Error& e) {
        b.error = e.what();
    }
    return b;
}

// ---------------------------------------------------------------- 4. correctness and checker runs
struct CheckerTally {
    int count = 0;                // reports over all parameter sets
    int firstRunCount = 0;        // in the run of the first report (the one Show why replays)
    int runs = 0;                 // parameter sets with at least one report
    std::string first;
    int line = 0;
    std::map<std::string, std::string> params;   // the parameter set of the first report
};

// What the correctness runs watch besides the checks: divergent branches by source line (a split
// that the performance size hides shows at another size) and thread instructions by thread
// (whether the work is spread over threads or done by one).
class GradeProbe : public sim::StepListener {
public:
    void onLaunchStart() override { launches_.emplace_back(); }
    void onStep(const sim::Step& s) override {
        if (launches_.empty()) launches_.emplace_back();   // stepped outside the run API
        if (s.divergent && s.instr) ++divergentByLine[s.instr->line];
        Launch& l = launches_.back();
        size_t base = size_t(s.warp) * 32;
        if (l.threadInst.size() < base + 32) l.threadInst.resize(std::max(base + 32, l.threadInst.size() * 2));
        for (uint32_t m = s.execMask; m; m &= m - 1) ++l.threadInst[base + size_t(__builtin_ctz(m))];
        l.total += uint64_t(__builtin_popcount(s.execMask));
    }
    // Threads' worth of work over the launches `counts` accepts (by launch ordinal): all their
    // thread instructions / the busiest thread's (1: one thread did it all). `total` gets the sum.
    double spread(const std::function<bool(size_t)>& counts, uint64_t* total, size_t* busiest = nullptr) const {
        std::vector<uint64_t> threads;
        uint64_t all = 0;
        for (size_t k = 0; k < launches_.size(); ++k) {
            if (!counts(k)) continue;
            const Launch& l = launches_[k];
            if (threads.size() < l.threadInst.size()) threads.resize(l.threadInst.size());
            for (size_t i = 0; i < l.threadInst.size(); ++i) threads[i] += l.threadInst[i];
            all += l.total;
        }
        uint64_t most = 0;
        size_t at = 0;
        for (size_t i = 0; i < threads.size(); ++i)
            if (threads[i] > most) most = threads[i], at = i;
        if (busiest) *busiest = at;
        *total = all;
        return most ? double(all) / double(most) : 0.0;
    }
    std::map<uint32_t, uint64_t> divergentByLine;

private:
    struct Launch {
        std::vector<uint64_t> threadInst;   // by warp * 32 + lane (warps numbered within the launch)
        uint64_t total = 0;
    };
    std::vector<Launch> launches_;
};

// The checker a kernel fault belongs under: a shuffle, vote or __syncwarp whose member mask names
// lanes that do not execute it (or lanes that disagree on it) is synchronization misuse, as
// compute-sanitizer's synccheck files it, not a memory error.
std::string checkerForFault(const Error& e) {
    if (e.kind() == Error::Kind::Deadlock) return "synccheck";
    std::string m = e.what();
    if (m.find("member mask") != std::string::npos) return "synccheck";
    return "memcheck";
}

// ---------------------------------------------------------------- 5. performance runs
struct LaunchMeasure {
    std::string kernel;
    uint64_t blocks = 0;
    trace::MemCounters total;
    std::map<uint32_t, trace::MemCounters> byLine;
    timing::TimingResult timing;
};
struct PerfRun {
    bool ok = false;
    std::string error;
    std::vector<LaunchMeasure> launches;
    double timelineUs = 0, overlapUs = 0;
    runtime::ParamValues params;
};

// Whether a goal reads the memory counters. Only those goals need them: the counters model the
// preset's L1 and L2 per launch, which costs more than a short launch itself (200 tick kernels of
// streams-overlap: about 40 ms of page clearing each), and time goals never read them (the cycle
// model keeps its own caches).
bool needsCounters(const Exercise& ex) {
    return std::any_of(ex.performance.begin(), ex.performance.end(), [](const PerfGoal& g) {
        return g.measure == "sectors_per_request" || g.measure == "bank_conflicts" || g.measure == "divergent_branches" ||
               g.measure == "global_loads_per_element" || g.measure == "shared_requests_per_block";
    });
}

// Warp-instructions one launch of a learner's kernel may run before it is stopped as an endless
// loop, in the correctness runs and the performance run alike (the simulator's default, 500 M, let
// one wrong answer of merge/tile-load spend 170 s of CPU in the cycle model before it stopped).
constexpr uint64_t kLearnerBudget = 50'000'000;

PerfRun perfRun(const runtime::Lesson& L, const Exercise& ex, bool timeline) {
    PerfRun pr;
    try {
        pr.params = runtime::resolveParams(L, ex.perfParams);
        run::RunSpec spec;
        spec.sim.instructionBudget = kLearnerBudget;
        spec.preset = ex.gpu;
        spec.timed = true;
        spec.counters = needsCounters(ex);
        spec.timeline = timeline;
        run::RunReport rep = run::run(L, pr.params, spec);
        if (rep.error) throw *rep.error;
        for (auto& l : rep.launches) {
            LaunchMeasure m;
            m.kernel = l.kernel;
            m.blocks = l.blocks;
            if (l.counters) {
                m.total = l.counters->total();
                m.byLine = l.counters->byLine();
            }
            m.timing = l.timing.value_or(timing::TimingResult{});
            pr.launches.push_back(std::move(m));
        }
        pr.timelineUs = rep.result.timeline.totalUs();
        pr.overlapUs = rep.result.timeline.overlapUs();
        pr.ok = true;
    } catch (const Error& e) {
        pr.error = e.what();
    }
    return pr;
}

bool counts(const PerfGoal& g, const std::string& kernel) {
    return g.kernels.empty() || std::find(g.kernels.begin(), g.kernels.end(), kernel) != g.kernels.end();
}

double kernelMicros(const PerfRun& pr, const PerfGoal& g) {
    double us = 0;
    for (auto& l : pr.launches)
        if (counts(g, l.kernel)) us += l.timing.microseconds;
    return us;
}

// The starter's performance run, once per process and starter text (the teacher's baseline).
const PerfRun& starterRun(const Exercise& ex, const GradeOptions& options, bool timeline);

bool wantsTimeline(const Exercise& ex) {
    for (auto& g : ex.performance)
        if (g.measure == "timeline_speedup_vs_starter" || g.measure == "overlap_fraction") return true;
    return false;
}

struct Compiled {
    bool ok = false;
    std::string ptx, message;
    int line = 0;
};

Compiled compileLearner(const std::string& text, const std::string& fileName, const GradeOptions& options, const Exercise& ex) {
    Compiled c;
    compile::Options o;
    if (!ex.arch.empty()) o.arch = ex.arch;
    if (!options.compiler.empty()) {
        auto k = compile::parseCompiler(options.compiler);
        if (!k) throw Error(Error::Kind::Input, "Unknown compiler '" + options.compiler + "' (auto, nvrtc, nvcc, clang).");
        o.compiler = *k;
    }
    o.timeoutSeconds = 30;
    compile::Result r = compile::compileCached(text, fileName, o);
    c.ok = r.ok && !r.hasErrors();
    c.ptx = r.ptx;
    if (!c.ok) {
        for (auto& d : r.diagnostics)
            if (d.severity == compile::Diagnostic::Severity::Error) {
                if (!c.line && d.file != compile::kPreludeName) c.line = d.line;
                c.message += (c.message.empty() ? "" : "\n") + d.text();
            }
        if (c.message.empty()) c.message = r.error.empty() ? r.log : r.error;
    }
    return c;
}

std::mutex starterMutex;
std::map<std::string, std::unique_ptr<PerfRun>> starterCache;

// The performance run of one learner's file, once per process: the run is deterministic (same PTX
// or host program, same exercise, same preset: the same trace), and a class, the app's regrades
// and the test suite grade the same text again with other hidden sets (a seed changes only the
// correctness runs). Bounded, so a long-running app or grade-all does not grow without end.
std::mutex perfMutex;
std::map<std::string, PerfRun> perfCache;
constexpr size_t kPerfCacheEntries = 64;

PerfRun cachedPerfRun(const runtime::Lesson& L, const Exercise& ex, const std::string& ptx, const std::string& hostJson) {
    const bool timeline = wantsTimeline(ex);
    // Everything the run depends on: the exercise (its patch, perf_params, preset), the lesson as
    // it is on disk now (an author may edit it while the app runs), the learner's PTX or host program.
    std::string key = ex.dir.string() + "\n" + ex.gpu + "\n" + (timeline ? "timeline" : "kernels") + "\n" + ex.lessonPatch + "\n" +
                      paramText(ex.perfParams) + "\n" + readText(ex.lessonDir / "lesson.json") + "\n" + ptx + "\n" + hostJson;
    {
        std::lock_guard<std::mutex> lock(perfMutex);
        auto it = perfCache.find(key);
        if (it != perfCache.end()) return it->second;
    }
    PerfRun pr = perfRun(L, ex, timeline);
    std::lock_guard<std::mutex> lock(perfMutex);
    if (perfCache.size() >= kPerfCacheEntries) perfCache.clear();
    perfCache.emplace(std::move(key), pr);
    return pr;
}

const PerfRun& starterRun(const Exercise& ex, const GradeOptions& options, bool timeline) {
    std::string text = readText(ex.starter);
    std::string key = ex.dir.string() + "\n" + options.compiler + "\n" + text;
    std::lock_guard<std::mutex> lock(starterMutex);
    auto it = starterCache.find(key);
    if (it != starterCache.end()) return *it->second;
    auto pr = std::make_unique<PerfRun>();
    std::string ptx;
    std::string hostJson;
    bool ok = true;
    if (ex.hostProgram) hostJson = text;
    else {
        Compiled c = compileLearner(text, ex.starter.filename().string(), options, ex);
        ok = c.ok;
        ptx = c.ptx;
        if (!ok) pr->error = "the starter does not compile: " + c.message;
    }
    if (ok) {
        Built b = buildLesson(ex, ptx, hostJson, ex.starter);
        if (!b.error.empty()) pr->error = b.error;
        else *pr = perfRun(b.lesson, ex, timeline);
    }
    return *(starterCache[key] = std::move(pr));
}

std::string targetText(const PerfGoal& g, const std::string& unit = "") {
    std::string s;
    if (g.min) s += ">= " + num(*g.min) + unit;
    if (g.max) s += std::string(s.empty() ? "" : " and ") + "<= " + num(*g.max) + unit;
    return s;
}

// The line with the largest `score` among those that ran (0 when none scores above zero).
template <class F>
int worstLine(const PerfRun& pr, const PerfGoal& g, F score) {
    std::map<uint32_t, double> sum;
    for (auto& l : pr.launches)
        if (counts(g, l.kernel))
            for (auto& [line, c] : l.byLine) sum[line] += score(c);
    int best = 0;
    double bestV = 0;
    for (auto& [line, v] : sum)
        if (line && v > bestV) {
            bestV = v;
            best = int(line);
        }
    return best;
}

Criterion measure(const Exercise& ex, const PerfGoal& g, const PerfRun& pr, const GradeOptions& options, std::optional<double> baseline) {
    Criterion c;
    c.kind = "performance";
    c.measure = g.measure;
    c.params = ex.perfParams;
    c.panel = kMeasures.at(g.measure);
    c.target = targetText(g);
    std::string name = g.measure;
    std::replace(name.begin(), name.end(), '_', ' ');
    c.name = name + (g.kernels.size() == 1 ? " (" + g.kernels[0] + ")" : "");
    if (!pr.ok) {
        c.measured = "did not run";
        c.detail = pr.error;
        return c;
    }
    trace::MemCounters t;
    bool any = false;
    for (auto& l : pr.launches)
        if (counts(g, l.kernel)) {
            t.add(l.total);
            any = true;
        }
    double v = 0;
    bool needsLaunch = g.measure != "timeline_speedup_vs_starter" && g.measure != "overlap_fraction";
    if (needsLaunch && !any) {
        c.measured = "no launch of the graded kernel";
        return c;
    }
    if (g.measure == "sectors_per_request") {
        uint64_t req = t.globalLdRequests + t.globalStRequests;
        v = req ? double(t.globalLdSectors + t.globalStSectors) / double(req) : 0;
        c.line = worstLine(pr, g, [](const trace::MemCounters& m) {
            uint64_t r = m.globalLdRequests + m.globalStRequests;
            return r ? double(m.globalLdSectors + m.globalStSectors) / double(r) : 0.0;
        });
        c.measured = num(v);
    } else if (g.measure == "bank_conflicts") {
        v = double(t.sharedLdConflicts + t.sharedStConflicts);
        c.line = worstLine(pr, g, [](const trace::MemCounters& m) { return double(m.sharedLdConflicts + m.sharedStConflicts); });
        c.measured = num(v, 0);
    } else if (g.measure == "shared_requests_per_block") {
        uint64_t blocks = 0;
        for (auto& l : pr.launches)
            if (counts(g, l.kernel)) blocks += l.blocks;
        v = blocks ? double(t.sharedLdRequests + t.sharedStRequests) / double(blocks) : 0;
        c.line = worstLine(pr, g, [](const trace::MemCounters& m) { return double(m.sharedLdRequests + m.sharedStRequests); });
        c.measured = num(v, 1) + " (" + std::to_string(t.sharedLdRequests) + " loads + " + std::to_string(t.sharedStRequests) +
                     " stores over " + std::to_string(blocks) + " blocks)";
    } else if (g.measure == "divergent_branches") {
        v = double(t.divergentBranches);
        c.line = worstLine(pr, g, [](const trace::MemCounters& m) { return double(m.divergentBranches); });
        c.measured = num(v, 0);
    } else if (g.measure == "global_loads_per_element") {
        double per = 0;
        try {
            const runtime::ParamValues& pv = pr.params;
            per = runtime::evaluate(g.per, [&](std::string_view n) -> std::optional<runtime::Value> {
                auto it = pv.find(std::string(n));
                if (it == pv.end()) return std::nullopt;
                return runtime::Value::ofFloat(it->second);
            }, "performance.per").asDouble();
        } catch (const Error& e) {
            c.measured = "bad \"per\" expression";
            c.detail = e.what();
            return c;
        }
        v = per > 0 ? double(t.globalLdRequests) * 32.0 / per : 0;
        c.line = worstLine(pr, g, [](const trace::MemCounters& m) { return double(m.globalLdRequests); });
        c.measured = num(v);
    } else if (g.measure == "occupancy") {
        v = 1;
        for (auto& l : pr.launches)
            if (counts(g, l.kernel)) v = std::min(v, l.timing.occupancy.occupancy);
        c.measured = num(v * 100, 0) + " %";
        c.target = targetText(PerfGoal{g.measure, {}, g.min ? std::optional<double>(*g.min * 100) : std::nullopt,
                                       g.max ? std::optional<double>(*g.max * 100) : std::nullopt, ""}, " %");
    } else if (g.measure == "overlap_fraction") {
        v = pr.timelineUs > 0 ? pr.overlapUs / pr.timelineUs : 0;
        c.measured = num(v * 100, 0) + " % of " + num(pr.timelineUs, 1) + " us";
        c.target = targetText(PerfGoal{g.measure, {}, g.min ? std::optional<double>(*g.min * 100) : std::nullopt,
                                       g.max ? std::optional<double>(*g.max * 100) : std::nullopt, ""}, " %");
    } else {   // speedups against the starter
        double base = 0;
        if (baseline) base = *baseline;
        else {
            const PerfRun& s = starterRun(ex, options, wantsTimeline(ex));
            if (!s.ok) {
                c.measured = "the starter did not run";
                c.detail = s.error;
                return c;
            }
            base = g.measure == "speedup_vs_starter" ? kernelMicros(s, g) : s.timelineUs;
        }
        double mine = g.measure == "speedup_vs_starter" ? kernelMicros(pr, g) : pr.timelineUs;
        v = mine > 0 ? base / mine : 0;
        c.measured = num(v) + "x (" + num(mine, 2) + " us vs the starter's " + num(base, 2) + " us on " + ex.gpu + ")";
        c.target = targetText(g, "x");
        if (g.measure == "speedup_vs_starter") {
            c.line = 0;
            uint64_t most = 0;
            for (auto& l : pr.launches)
                if (counts(g, l.kernel))
                    for (auto& [line, st] : l.timing.stallsByLine) {
                        uint64_t sum = 0;
                        for (auto x : st) sum += x;
                        if (line && sum > most) {
                            most = sum;
                            c.line = int(line);
                        }
                    }
        }
    }
    c.value = v;
    c.passed = (!g.min || v >= *g.min - 1e-9) && (!g.max || v <= *g.max + 1e-9);
    if (!c.passed && g.modelError)   // what the target already allows for, and where it comes from
        c.detail = "Predicted by the cycle model, whose speed-ups on this kind of program are within about " +
                   num(*g.modelError * 100, 0) + " % of the H100's (the target leaves that room): " + g.why;
    return c;
}

} // namespace

std::map<size_t, double> starterBaselines(const Exercise& ex, const GradeOptions& options) {
    std::map<size_t, double> out;
    bool any = std::any_of(ex.performance.begin(), ex.performance.end(), [](const PerfGoal& g) {
        return g.measure == "speedup_vs_starter" || g.measure == "timeline_speedup_vs_starter";
    });
    if (!any) return out;
    const PerfRun& s = starterRun(ex, options, wantsTimeline(ex));
    if (!s.ok) throw Error(Error::Kind::Input, ex.dir.string() + ": the starter does not run: " + s.error);
    for (size_t i = 0; i < ex.performance.size(); ++i) {
        const PerfGoal& g = ex.performance[i];
        if (g.measure == "speedup_vs_starter") out[i] = kernelMicros(s, g);
        else if (g.measure == "timeline_speedup_vs_starter") out[i] = s.timelineUs;
    }
    return out;
}

// ---------------------------------------------------------------- 6. grading
GradeResult gradeFile(const Exercise& ex, const fs::path& file, const GradeOptions& options) {
    if (!fs::is_regular_file(file)) throw Error(Error::Kind::Input, "No file '" + file.string() + "'.");
    return gradeText(ex, readText(file), file.string(), options);
}

GradeResult gradeText(const Exercise& ex, const std::string& text, const std::string& fileName, const GradeOptions& options) {
    if (ex.program) return gradeProgramText(ex, text, fileName, options, options.seed ? *options.seed : freshSeed());
    GradeResult out;
    auto finish = [&]() {
        out.passed = !out.criteria.empty() &&
                     std::all_of(out.criteria.begin(), out.criteria.end(), [](const Criterion& c) { return c.passed; });
        return out;
    };
    out.seed = options.seed ? *options.seed : freshSeed();
    std::string ptx, hostJson;
    if (ex.hostProgram) {
        hostJson = text;
    } else {
        Criterion cc;
        cc.name = "compiles";
        cc.kind = "compile";
        cc.target = "no errors";
        cc.panel = "source";
        Compiled comp = compileLearner(text, fs::path(fileName).filename().string(), options, ex);
        cc.passed = comp.ok;
        cc.measured = comp.ok ? "compiled" : "compile error";
        cc.detail = comp.message;
        cc.line = comp.line;
        out.criteria.push_back(cc);
        if (!comp.ok) return finish();
        ptx = comp.ptx;
        Criterion kc;
        kc.name = "defines the kernels";
        kc.kind = "kernels";
        kc.panel = "source";
        std::set<std::string> found;
        std::regex entry(R"(\.entry\s+([A-Za-z_$][A-Za-z0-9_$]*))");
        for (std::sregex_iterator it(ptx.begin(), ptx.end(), entry), end; it != end; ++it) found.insert((*it)[1].str());
        std::string missing, want;
        for (auto& k : ex.kernels) {
            want += (want.empty() ? "" : ", ") + k;
            if (!found.count(k)) missing += (missing.empty() ? "" : ", ") + k;
        }
        kc.target = want;
        kc.passed = missing.empty();
        kc.measured = kc.passed ? want : "missing " + missing;
        if (!kc.passed) kc.detail = "Define each as extern \"C\" __global__ void NAME(...) with the starter's parameters.";
        out.criteria.push_back(kc);
        if (!kc.passed) return finish();
    }
    Built built = buildLesson(ex, ptx, hostJson, fileName);
    if (!built.error.empty()) {
        Criterion c;
        c.name = ex.hostProgram ? "host program" : "lesson";
        c.kind = "compile";
        c.measured = "invalid";
        c.target = "a valid host program";
        c.detail = built.error;
        out.criteria.push_back(c);
        return finish();
    }
    const runtime::Lesson& L = built.lesson;

    std::set<std::string> checkers(ex.checkers.begin(), ex.checkers.end());
    std::map<std::string, CheckerTally> tally;
    const std::vector<AttemptSet> runs = attemptSets(ex, out.seed, out);
    // Per-line divergence over every correctness run (for divergence goals with a 0 target).
    struct LineSplit {
        uint32_t line = 0;
        uint64_t branches = 0;
        std::map<std::string, std::string> params;
    };
    std::optional<LineSplit> worstSplit;
    double bestSpread = 0;
    uint64_t mostWork = 0;
    std::string spreadWhere;
    bool anyRan = false;
    for (auto& run : runs) {
        const auto& set = run.params;
        Criterion c;
        c.name = run.hidden ? "correct (hidden: " + paramText(set) + ")" : "correct (" + paramText(set) + ")";
        c.kind = "correctness";
        c.target = "all checks pass";
        c.panel = "reports";
        c.params = set;
        try {
            runtime::ParamValues pv = runtime::resolveParams(L, set);
            sim::LaunchOptions opt;
            opt.initcheck = checkers.count("initcheck") > 0;
            opt.racecheck = checkers.count("racecheck") > 0;
            opt.instructionBudget = kLearnerBudget;   // a learner's endless loop stops quickly
            run::RunSpec rs;
            rs.sim = opt;
            GradeProbe probe;
            rs.observers.push_back(&probe);
            run::RunReport rr = run::run(L, pv, rs);
            if (!rr.error) {
                anyRan = true;
                // Judged on the run with the most work: in a tiny run the threads that only check
                // their index and leave would outweigh one thread's loop.
                // Only the kernels the exercise names for it (a serial reference kernel given in
                // the learner's file, as merge's, is not the learner's work).
                auto counts = [&](size_t k) {
                    if (ex.parallelKernels.empty()) return true;
                    return k < rr.launches.size() &&
                           std::find(ex.parallelKernels.begin(), ex.parallelKernels.end(), rr.launches[k].kernel) != ex.parallelKernels.end();
                };
                size_t busiest = 0;
                uint64_t work = 0;
                double sp = probe.spread(counts, &work, &busiest);
                if (work > mostWork) {
                    mostWork = work;
                    bestSpread = sp;
                    spreadWhere = paramText(set) + ": the busiest thread (warp " + std::to_string(busiest / 32) + " of the launch, lane " +
                                  std::to_string(busiest % 32) + ") ran " + num(100.0 / std::max(sp, 1e-9), 0) + " % of all thread instructions";
                }
                // A launch may split the warps that straddle the end of the data once per line: one
                // warp, or two where a kernel gives each warp pair interleaved elements.
                uint64_t allowance = 2 * rr.launches.size();
                for (auto& [line, n] : probe.divergentByLine)
                    if (line && n > allowance && (!worstSplit || n > worstSplit->branches)) worstSplit = LineSplit{line, n, set};
            }
            // The checkers' findings count also when the run stopped at a fault.
            std::set<std::string> reported;
            for (auto& rep : rr.reports) {
                auto& t = tally[rep.tool];
                if (!t.count++) {
                    t.first = rep.hazard + ": " + rep.message + " (" + paramText(set) + ")";
                    t.line = rep.site.sourceLine ? int(*rep.site.sourceLine) : 0;
                    t.params = set;
                }
                if (t.params == set) ++t.firstRunCount;
                if (reported.insert(rep.tool).second) ++t.runs;
            }
            if (rr.error) throw *rr.error;
            const runtime::RunResult& r = rr.result;
            size_t good = 0;
            for (auto& ch : r.checks) {
                if (ch.passed) ++good;
                else if (c.detail.empty()) c.detail = ch.buffer + ": " + ch.detail;
            }
            c.passed = good == r.checks.size();
            c.measured = std::to_string(good) + " of " + std::to_string(r.checks.size()) + " checks pass";
            c.panel = "heatmap";
        } catch (const Error& e) {
            c.measured = std::string("stopped: ") + Error::kindName(e.kind());
            c.detail = e.what();
            if (e.site().sourceLine) c.line = int(*e.site().sourceLine);
            if (e.kind() == Error::Kind::Fault || e.kind() == Error::Kind::Deadlock) {
                auto& t = tally[checkerForFault(e)];
                if (!t.count++) {
                    t.first = std::string(e.what()) + " (" + paramText(set) + ")";
                    t.line = c.line;
                    t.params = set;
                }
                if (t.params == set) ++t.firstRunCount;
                ++t.runs;
            }
        }
        out.criteria.push_back(c);
    }
    for (auto& name : ex.checkers) {
        Criterion c = checkerCriterion(name);
        auto it = tally.find(name);
        int n = it == tally.end() ? 0 : it->second.count;
        c.passed = n == 0;
        c.measured = n == 0 ? "no reports" : std::to_string(n) + (n == 1 ? " report" : " reports");
        // Over several parameter sets: how many of them are in the run Show why replays (the
        // Checker reports panel lists that run's reports, not the sum).
        if (n && it->second.runs > 1)
            c.measured += " in " + std::to_string(it->second.runs) + " runs; " + std::to_string(it->second.firstRunCount) + " with " + paramText(it->second.params);
        if (n) {
            c.detail = it->second.first;
            c.line = it->second.line;
            c.params = it->second.params;
        }
        out.criteria.push_back(c);
    }
    if (ex.parallelMin && anyRan) {
        Criterion c = parallelCriterion(*ex.parallelMin, bestSpread);
        if (!c.passed)
            c.detail = "The work is not spread over the threads: at " + spreadWhere +
                       ". Give each thread its own share of the elements (its index, or a grid-stride loop) instead of "
                       "letting one thread loop over all of them.";
        out.criteria.push_back(c);
    }
    if (!ex.performance.empty()) {
        PerfRun pr = cachedPerfRun(L, ex, ptx, hostJson);
        for (size_t gi = 0; gi < ex.performance.size(); ++gi) {
            const PerfGoal& g = ex.performance[gi];
            auto base = options.starterBaselines.find(gi);
            Criterion c = measure(ex, g, pr, options, base == options.starterBaselines.end() ? std::nullopt : std::optional<double>(base->second));
            // A split that the performance size hides (it falls on a warp boundary there) still
            // counts: every correctness run is measured line by line.
            if (g.measure == "divergent_branches" && g.max && *g.max == 0 && c.passed && worstSplit) {
                c.passed = false;
                c.line = int(worstSplit->line);
                c.params = worstSplit->params;
                c.measured = c.measured + " here; line " + std::to_string(worstSplit->line) + ": " + std::to_string(worstSplit->branches) +
                             " at " + paramText(worstSplit->params);
                c.detail = "Line " + std::to_string(worstSplit->line) + " splits warps at " + paramText(worstSplit->params) +
                           " (" + std::to_string(worstSplit->branches) +
                           " divergent branches, more than the warps that straddle the end of the data): the condition "
                           "is warp-uniform only at some sizes.";
            }
            out.criteria.push_back(c);
        }
    }
    return finish();
}

runtime::Lesson learnerLesson(const Exercise& ex, const fs::path& file, const GradeOptions& options) {
    if (!fs::is_regular_file(file)) throw Error(Error::Kind::Input, "No file '" + file.string() + "'.");
    if (ex.program)
        throw Error(Error::Kind::Input, ex.lesson + "/" + ex.id + " is a whole program: open " + file.string() +
                                            " as a program (File > Open, then Run) to step its launches");
    std::string text = readText(file), ptx, hostJson;
    if (ex.hostProgram) {
        hostJson = text;
    } else {
        Compiled comp = compileLearner(text, file.filename().string(), options, ex);
        if (!comp.ok) throw Error(Error::Kind::Input, file.string() + " does not compile: " + comp.message);
        ptx = comp.ptx;
    }
    Built b = buildLesson(ex, ptx, hostJson, file);
    if (!b.error.empty()) throw Error(Error::Kind::Input, file.string() + ": " + b.error);
    return b.lesson;
}

} // namespace warpscope::grade
