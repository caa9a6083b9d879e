// warpscope lessons: the bundled lessons.
#include "cli.hpp"
#include "runtime/lesson.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>
#include <iostream>

using namespace warpscope;
using nlohmann::json;

int cmdLessons(int argc, char** argv, const fs::path& dir) {
    bool asJson = argc > 0 && std::strcmp(argv[0], "--json") == 0;
    std::vector<std::string> errors;
    auto lessons = runtime::listLessons(dir, &errors);
    if (asJson) {
        json out = json::array();
        for (auto& l : lessons) out.push_back({{"id", l.id}, {"title", l.title}, {"summary", l.summary}, {"path", l.dir.string()}});
        std::cout << out.dump(2) << "\n";
    } else {
        if (dir.empty()) std::cout << "No lessons folder found (set WARPSCOPE_LESSONS).\n";
        for (auto& l : lessons) std::printf("%-24s %s: %s\n", l.id.c_str(), l.title.c_str(), l.summary.c_str());
    }
    for (auto& e : errors) std::cerr << "warning: lesson skipped: " << e << "\n";
    return 0;
}
