// warpscope exercises [--json]: every exercise of the bundled lessons (lessons/<id>/exercises/).
#include "cli.hpp"
#include "grade/grader.hpp"

#include <cstdio>
#include <iostream>

using namespace warpscope;
using nlohmann::json;

int cmdExercises(int argc, char** argv, const fs::path& lessonsDir) {
    bool asJson = false;
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--json") asJson = true;
        else throw Error(Error::Kind::Input, "Unknown argument '" + a + "' for exercises (only --json).");
    }
    if (lessonsDir.empty()) throw Error(Error::Kind::Input, "No lessons folder found (set WARPSCOPE_LESSONS).");
    std::vector<std::string> errors;
    std::vector<grade::Exercise> list = grade::listExercises(lessonsDir, &errors);
    for (auto& e : errors) std::cerr << "warning: " << e << "\n";
    if (asJson) {
        json out = json::array();
        for (auto& ex : list)
            out.push_back({{"lesson", ex.lesson}, {"id", ex.id}, {"title", ex.title}, {"goal", ex.goal},
                           {"kind", ex.hostProgram ? "host" : "kernel"}, {"kernels", ex.kernels},
                           {"starter", ex.starter.string()}, {"solution", ex.solution.string()},
                           {"hints", ex.hints.size()}});
        std::cout << out.dump(2) << "\n";
        return 0;
    }
    std::string lesson;
    for (auto& ex : list) {
        if (ex.lesson != lesson) std::printf("%s\n", (lesson = ex.lesson).c_str());
        std::printf("  %-22s %s\n", ex.id.c_str(), ex.title.c_str());
    }
    std::printf("%zu exercises. Grade one: warpscope grade <lesson> --exercise <id> --solution <file>\n", list.size());
    return 0;
}
