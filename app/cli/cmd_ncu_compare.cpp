// warpscope ncu-compare <lesson|spec> <ncu.csv>: runs the lesson on the simulator with counters
// and prints, per launch, each metric the Nsight Compute CSV also has: hardware, simulator and
// their ratio, as a Markdown table (used to write docs/validation.md).
#include "cli.hpp"
#include "base/files.hpp"
#include "hw/ncu_import.hpp"
#include "base/error.hpp"
#include "runtime/lesson.hpp"
#include "run/run.hpp"
#include "trace/counters.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace warpscope;

int runNcuCompare(int argc, char** argv) {
    if (argc < 2) throw Error(Error::Kind::Input, "ncu-compare needs a lesson or spec and an ncu CSV file.");
    runtime::Lesson lesson = runtime::loadLesson(argv[0]);
    hw::NcuReport report = hw::parseNcuCsv(base::readFileOrThrow(argv[1]));

    run::RunSpec spec;
    spec.counters = true;   // the default preset's caches
    run::RunReport rep = run::run(lesson, runtime::resolveParams(lesson, {}), spec);
    if (rep.error) throw *rep.error;
    std::vector<std::shared_ptr<trace::CounterCollector>> collectors;
    for (auto& l : rep.launches) collectors.push_back(l.counters);
    if (collectors.size() != report.rows.size())
        throw Error(Error::Kind::Input, "The CSV has " + std::to_string(report.rows.size()) + " kernel rows but the lesson launched " +
                                            std::to_string(collectors.size()) + " kernels: profile the same lesson with the same parameters.");
    const auto& estimated = trace::CounterCollector::estimatedMetrics();
    std::printf("| # | kernel | metric | H100 | simulator | sim / hw |\n| --- | --- | --- | ---: | ---: | ---: |\n");
    for (size_t i = 0; i < collectors.size(); ++i) {
        auto sim = collectors[i]->metrics();
        for (auto& [name, hwValue] : report.rows[i].metrics) {
            auto it = sim.find(name);
            if (it == sim.end()) continue;
            std::string note;
            if (std::find(estimated.begin(), estimated.end(), name) != estimated.end()) note = " (estimated)";
            // Instruction and branch counts are SASS on hardware and PTX here (ptxas predicates
            // short branches, unrolls and merges instructions).
            if (name.rfind("smsp__inst_executed", 0) == 0 || name.rfind("smsp__thread_inst", 0) == 0 ||
                name.rfind("smsp__sass_branch_targets", 0) == 0)
                note = " (SASS vs PTX)";
            char ratio[32] = "-";
            if (hwValue != 0) std::snprintf(ratio, sizeof ratio, "%.3f", it->second / hwValue);
            else if (it->second == 0) std::snprintf(ratio, sizeof ratio, "=");
            std::printf("| %zu | %s | `%s`%s | %.6g | %.6g | %s |\n", i, report.rows[i].kernel.c_str(), name.c_str(), note.c_str(), hwValue,
                        it->second, ratio);
        }
    }
    return 0;
}
