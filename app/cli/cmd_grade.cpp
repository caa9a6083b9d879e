// warpscope grade <lesson> --exercise <id> --solution <file> [--json] [--compiler NAME] [--seed S]:
// grades a learner's file on correctness (the visible parameter sets and hidden ones drawn from
// the seed, printed so the grade can be reproduced), the checkers, whether the work runs in
// parallel, and the exercise's performance goals. --baselines FILE (grade-all passes it) gives
// the starter's measures so a class's processes need not each re-run the starter.
// Exit 0 pass, 1 fail (a compile error included), 2 bad input.
#include "cli.hpp"
#include "grade/class_report.hpp"
#include "grade/grader.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>

using namespace warpscope;
using nlohmann::json;

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
    grade::GradeResult r = grade::gradeFile(ex, file, opt);
    if (asJson) {
        json out = grade::gradeToJson(ex, r, file);
        std::cout << out.dump(2) << "\n";
    } else {
        std::printf("%s / %s: %s\n", ex.lesson.c_str(), ex.id.c_str(), ex.title.c_str());
        for (auto& c : r.criteria) {
            std::printf("  %s  %-40s %s   (target: %s)\n", c.passed ? "PASS" : "FAIL", c.name.c_str(), c.measured.c_str(), c.target.c_str());
            if (!c.passed) {
                if (c.line || !c.panel.empty())
                    std::printf("        see: %s%s%s\n", c.panel.empty() ? "" : ("panel " + c.panel).c_str(), c.line ? ", line " : "",
                                c.line ? std::to_string(c.line).c_str() : "");
                if (!c.detail.empty()) std::printf("        %s\n", c.detail.c_str());
            }
        }
        std::printf("hidden parameter sets drawn from seed %llu (the same grade again: --seed %llu)\n",
                    static_cast<unsigned long long>(r.seed), static_cast<unsigned long long>(r.seed));
        std::printf("%s\n", r.passed ? "PASSED" : "NOT YET: fix the failing criteria above.");
    }
    return r.passed ? 0 : 1;
}
