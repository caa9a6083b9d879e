// warpscope grade <lesson> --exercise <id> --solution <file> [--json] [--compiler NAME]: grades a
// learner's file on correctness, the checkers and the exercise's performance goals.
// Exit 0 pass, 1 fail (a compile error included), 2 bad input.
#include "cli.hpp"
#include "grade/grader.hpp"

#include <cstdio>
#include <iostream>

using namespace warpscope;
using nlohmann::json;

int cmdGrade(int argc, char** argv, const fs::path& lessonsDir) {
    std::string lesson, id, file, compiler;
    bool asJson = false;
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--json") asJson = true;
        else if (a == "--exercise") id = optionValue(argc, argv, i);
        else if (a == "--solution") file = optionValue(argc, argv, i);
        else if (a == "--compiler") compiler = optionValue(argc, argv, i);
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
    grade::GradeResult r = grade::gradeFile(ex, file, opt);
    if (asJson) {
        json out = {{"lesson", ex.lesson}, {"exercise", ex.id}, {"title", ex.title}, {"solution", file}, {"passed", r.passed}};
        out["criteria"] = json::array();
        for (auto& c : r.criteria) {
            json jc = {{"name", c.name}, {"kind", c.kind}, {"passed", c.passed}, {"measured", c.measured}, {"target", c.target}};
            if (c.value) jc["value"] = *c.value;
            if (!c.panel.empty()) jc["panel"] = c.panel;
            if (c.line) jc["line"] = c.line;
            if (!c.detail.empty()) jc["detail"] = c.detail;
            out["criteria"].push_back(jc);
        }
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
        std::printf("%s\n", r.passed ? "PASSED" : "NOT YET: fix the failing criteria above.");
    }
    return r.passed ? 0 : 1;
}
