#include "hw/ncu_import.hpp"

#include "base/error.hpp"

#include <cstdlib>
#include <sstream>

namespace warpscope::hw {

namespace {
// One CSV line: fields in double quotes (which may contain commas), or bare.
std::vector<std::string> fields(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        char c = line[i];
        if (c == '"') {
            if (quoted && i + 1 < line.size() && line[i + 1] == '"') {
                cur += '"';
                ++i;
            } else {
                quoted = !quoted;
            }
        } else if (c == ',' && !quoted) {
            out.push_back(cur);
            cur.clear();
        } else if (c != '\r') {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

bool number(std::string s, double& v) {
    std::string t;
    for (char c : s)
        if (c != ',') t += c;   // thousands separators
    if (t.empty()) return false;
    char* end = nullptr;
    v = std::strtod(t.c_str(), &end);
    return end && *end == 0;
}
} // namespace

NcuReport parseNcuCsv(const std::string& text) {
    std::istringstream in(text);
    std::string line;
    std::vector<std::vector<std::string>> lines;
    while (std::getline(in, line))
        if (!line.empty() && line[0] == '"') lines.push_back(fields(line));   // skip ==PROF== and program output
    if (lines.size() < 2) throw Error(Error::Kind::Input, "Not an Nsight Compute CSV: expected a header row and a units row (ncu --csv --page raw).");
    const auto& header = lines[0];
    auto col = [&](const char* name) -> int {
        for (size_t i = 0; i < header.size(); ++i)
            if (header[i] == name) return static_cast<int>(i);
        return -1;
    };
    const int kernel = col("Kernel Name");
    if (kernel < 0) throw Error(Error::Kind::Input, "Not an Nsight Compute CSV: no \"Kernel Name\" column.");
    const int block = col("Block Size"), grid = col("Grid Size");
    NcuReport r;
    for (size_t i = 0; i < header.size() && i < lines[1].size(); ++i)
        if (header[i].find("__") != std::string::npos) r.units[header[i]] = lines[1][i];
    for (size_t k = 2; k < lines.size(); ++k) {
        const auto& f = lines[k];
        if (f.size() != header.size())
            throw Error(Error::Kind::Input, "Nsight Compute CSV row " + std::to_string(k + 1) + " has " + std::to_string(f.size()) +
                                                " fields; the header has " + std::to_string(header.size()) + ".");
        NcuRow row;
        row.kernel = f[size_t(kernel)];
        if (block >= 0) row.blockSize = f[size_t(block)];
        if (grid >= 0) row.gridSize = f[size_t(grid)];
        for (size_t i = 0; i < header.size(); ++i) {
            double v;
            if (header[i].find("__") != std::string::npos && number(f[i], v)) row.metrics[header[i]] = v;
        }
        r.rows.push_back(std::move(row));
    }
    return r;
}

} // namespace warpscope::hw
