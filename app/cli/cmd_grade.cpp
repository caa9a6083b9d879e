// warpscope grade <lesson> --exercise <id> --solution <file> [--json] [--compiler NAME] [--seed S]:
// grades a learner's file on correctness (the visible parameter sets and hidden ones drawn from
// the seed, printed so the grade can be reproduced), the checkers, whether the work runs in
// parallel, and the exercise's performance goals. --baselines FILE (grade-all passes it) gives
// the starter's measures so a class's processes need not each re-run the starter.
// Exit 0 pass, 1 fail (a compile error included), 2 bad input.
//
// A solution with host code (a main: a whole CUDA program) is built and run in the sandbox
// (base/sandbox.hpp: limits, a private folder, with bubblewrap no network and a read-only system),
// and graded on building, running to its end within the limits, exiting 0, and no kernel fault or
// checker report. (The grader's exercise criteria apply to kernel and host-script solutions, and
// to exercises of kind "program", which grade::gradeFile grades in the sandbox itself.)
#include "cli.hpp"
#include "base/files.hpp"
#include "base/data_dir.hpp"
#include "base/sandbox.hpp"
#include "cudart/build.hpp"
#include "grade/class_report.hpp"
#include "grade/grader.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace warpscope;
using nlohmann::json;

namespace {

// Runs a whole-program solution in the sandbox; the criteria as the grader gives them.
grade::GradeResult gradeProgram(const std::string& file, std::string* output) {
    grade::GradeResult r;
    auto criterion = [&](const std::string& name, bool passed, const std::string& measured, const std::string& target, const std::string& detail = "") {
        grade::Criterion c;
        c.name = name;
        c.kind = "program";
        c.passed = passed;
        c.measured = measured;
        c.target = target;
        c.detail = detail;
        r.criteria.push_back(c);
    };
    cudart::BuildOptions o;
    o.sources = {file};
    const cudart::BuildResult b = cudart::buildProgram(o);
    std::string diag;
    for (auto& d : b.diagnostics) diag += (diag.empty() ? "" : "\n        ") + d.text();
    criterion("builds (host and device code)", b.ok, b.ok ? "built" : "did not build", "builds", b.ok ? "" : (diag.empty() ? b.error : diag));
    if (!b.ok) return r;
    sandbox::Spec spec;
    spec.argv = {b.executable};
    spec.captureOutput = true;
    spec.limits.cpuSeconds = 120;
    spec.limits.wallSeconds = 300;
    if (const std::string data = base::findDataDir().string(); !data.empty()) spec.env.push_back({"WARPSCOPE_DATA_DIR", data});
    spec.env.push_back({"WARPSCOPE_LINE_BUFFERED", "1"});
    sandbox::Runner run(spec);
    std::string error;
    if (!run.start(&error)) {
        criterion("runs in the sandbox", false, error, "runs to its end");
        return r;
    }
    // The program's output, read as it comes.
    run.pump([&](bool, const char* data, size_t size) { output->append(data, size); });
    const sandbox::Result res = run.result();
    std::string status;
    std::ifstream st(run.workDir() + "/.warpscope-status");
    std::getline(st, status);
    const bool inLimits = res.limit == sandbox::Limit::None && res.exited;
    std::string how = res.limit != sandbox::Limit::None ? res.message
                      : res.exited                      ? "ended (exit code " + std::to_string(res.exitCode) + ")"
                                                        : "crashed (signal " + std::to_string(res.signal) + ")";
    if (how.rfind("warpscope: ", 0) == 0) how.erase(0, 11);
    criterion("runs to its end within the sandbox's limits", inLimits, how, "ends by itself", run.isolated() ? "" : sandbox::isolationNote());
    if (!inLimits) return r;
    criterion("exits with code 0", res.exitCode == 0, "exit code " + std::to_string(res.exitCode), "0");
    const bool clean = status != "fault" && status != "check";
    criterion("no kernel fault or checker report", clean, clean ? "none" : status == "fault" ? "a kernel faulted" : "a checker reported", "none",
              clean ? "" : "run it with warpscope run " + file + " to see the report");
    r.passed = true;
    for (auto& c : r.criteria) r.passed = r.passed && c.passed;
    return r;
}

std::string readWhole(const std::string& file) { return base::readFile(file).value_or(""); }

} // namespace

int cmdGrade(int argc, char** argv, const fs::path& lessonsDir) {
    std::string lesson, id, file, compiler, seedText, baselinesFile;
    bool asJson = false;
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--json") asJson = true;
        else if (a == "--exercise") id = optionValue(argc, argv, i);
        else if (a == "--solution") file = optionValue(argc, argv, i);
        else if (a == "--compiler") compiler = optionValue(argc, argv, i);
        else if (a == "--seed") seedText = optionValue(argc, argv, i);
        else if (a == "--baselines") baselinesFile = optionValue(argc, argv, i);
        else if (!a.empty() && a[0] == '-') throw Error(Error::Kind::Input, "Unknown option '" + a + "' for grade.");
        else if (lesson.empty()) lesson = a;
        else throw Error(Error::Kind::Input, "grade takes one lesson; got '" + lesson + "' and '" + a + "'.");
    }
    if (lesson.empty() || id.empty() || file.empty())
        throw Error(Error::Kind::Input, "usage: warpscope grade <lesson> --exercise <id> --solution <file.cu> [--json]");
    if (lessonsDir.empty()) throw Error(Error::Kind::Input, "No lessons folder found (set WARPSCOPE_LESSONS).");
    grade::Exercise ex = grade::findExercise(lessonsDir, lesson, id);
    grade::GradeResult r;
    std::string programOutput;
    // An exercise of kind "program" grades it on its own criteria (engine/grade/program_exercise.cpp).
    const bool wholeProgram = !ex.program && cudart::isProgramSource(file) && cudart::hasHostMain(readWhole(file));
    if (wholeProgram) {
        r = gradeProgram(file, &programOutput);
    } else {
        grade::GradeOptions opt;
        opt.compiler = compiler;
        if (!seedText.empty()) {
            char* end = nullptr;
            unsigned long long v = std::strtoull(seedText.c_str(), &end, 10);
            if (seedText[0] == '-' || !end || *end) throw Error(Error::Kind::Input, "--seed takes a whole number, not '" + seedText + "'.");
            opt.seed = v;
        }
        if (!baselinesFile.empty()) {
            std::ifstream f(baselinesFile);
            json b;
            try {
                b = json::parse(f);
                for (auto& [k, v] : b.items()) opt.starterBaselines[std::stoul(k)] = v.get<double>();
            } catch (const std::exception& e) {
                throw Error(Error::Kind::Input, "--baselines " + baselinesFile + ": not a baselines file (" + e.what() + ").");
            }
        }
        r = grade::gradeFile(ex, file, opt);
    }
    if (asJson) {
        json out = grade::gradeToJson(ex, r, file);
        if (wholeProgram) out["program_output"] = programOutput;
        std::cout << out.dump(2) << "\n";
    } else {
        std::printf("%s / %s: %s\n", ex.lesson.c_str(), ex.id.c_str(), ex.title.c_str());
        if (wholeProgram) {
            std::printf("  a whole program: built and run in the sandbox; its output:\n");
            std::istringstream lines(programOutput);
            for (std::string l; std::getline(lines, l);) std::printf("    | %s\n", l.c_str());
        }
        for (auto& c : r.criteria) {
            std::printf("  %s  %-40s %s   (target: %s)\n", c.passed ? "PASS" : "FAIL", c.name.c_str(), c.measured.c_str(), c.target.c_str());
            if (!c.passed) {
                if (c.line || !c.panel.empty())
                    std::printf("        see: %s%s%s\n", c.panel.empty() ? "" : ("panel " + c.panel).c_str(), c.line ? ", line " : "",
                                c.line ? std::to_string(c.line).c_str() : "");
                if (!c.detail.empty()) std::printf("        %s\n", c.detail.c_str());
            }
        }
        if (!wholeProgram)
            std::printf("hidden parameter sets drawn from seed %llu (the same grade again: --seed %llu)\n",
                        static_cast<unsigned long long>(r.seed), static_cast<unsigned long long>(r.seed));
        std::printf("%s\n", r.passed ? "PASSED" : "NOT YET: fix the failing criteria above.");
    }
    return r.passed ? 0 : 1;
}
