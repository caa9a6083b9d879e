// Reads the CSV that `ncu --csv --page raw --metrics ...` writes: one row per profiled kernel
// launch, a units row, and metric columns named as Nsight Compute names them. Used to compare
// hardware counters with the simulator's when no profiling API is available at run time.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace warpscope::hw {

struct NcuRow {
    std::string kernel;
    std::string blockSize, gridSize;
    std::map<std::string, double> metrics;   // only numeric metric columns
};

struct NcuReport {
    std::vector<NcuRow> rows;
    std::map<std::string, std::string> units;   // metric -> unit ("sector", "%", ...)
};

// Throws warpscope::Error(Input) when the text is not an ncu CSV (names the line).
NcuReport parseNcuCsv(const std::string& text);

} // namespace warpscope::hw
