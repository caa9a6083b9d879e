// Per-launch counters of a whole program (launch_counters.hpp).
#include "cudart/launch_counters.hpp"

#include <algorithm>
#include <cstdio>

namespace warpscope::cudart {

void LaunchProbe::onStep(const sim::Step& s) {
    counters_.onStep(s);
    const size_t base = size_t(s.warp) * 32;
    if (perThread_.size() < base + 32) perThread_.resize(std::max(base + 32, perThread_.size() * 2));
    for (uint32_t m = s.execMask; m; m &= m - 1) ++perThread_[base + size_t(__builtin_ctz(m))];
    threadTotal_ += uint64_t(__builtin_popcount(s.execMask));
}

uint64_t LaunchProbe::busiestThread() const {
    return perThread_.empty() ? 0 : *std::max_element(perThread_.begin(), perThread_.end());
}

uint64_t LaunchProbe::threadsThatRan() const {
    return uint64_t(std::count_if(perThread_.begin(), perThread_.end(), [](uint64_t n) { return n > 0; }));
}

std::string jsonString(const std::string& t) {
    std::string o = "\"";
    for (char ch : t) {
        if (ch == '"' || ch == '\\') o += '\\';
        if (static_cast<unsigned char>(ch) < 0x20) ch = ' ';
        o += ch;
    }
    return o + "\"";
}

std::string launchCountersLine(const std::string& kernel, const std::string& name, const uint32_t grid[3], const uint32_t block[3],
                               uint64_t warpInstructions, const LaunchProbe& probe, double micros, bool timed) {
    const trace::MemCounters& t = probe.total();
    char nums[768];
    std::snprintf(nums, sizeof nums,
                  "\"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"warp_inst\": %llu, \"thread_inst\": %llu, \"busiest_thread_inst\": %llu, "
                  "\"threads_ran\": %llu, \"divergent_branches\": %llu, \"global_requests\": %llu, \"global_sectors\": %llu, "
                  "\"us\": %.6g, \"timed\": %s",
                  grid[0], grid[1], grid[2], block[0], block[1], block[2], static_cast<unsigned long long>(warpInstructions),
                  static_cast<unsigned long long>(probe.threadInstructions()), static_cast<unsigned long long>(probe.busiestThread()),
                  static_cast<unsigned long long>(probe.threadsThatRan()), static_cast<unsigned long long>(t.divergentBranches),
                  static_cast<unsigned long long>(t.globalLdRequests + t.globalStRequests),
                  static_cast<unsigned long long>(t.globalLdSectors + t.globalStSectors), micros, timed ? "true" : "false");
    return "{\"kernel\": " + jsonString(kernel) + ", \"name\": " + jsonString(name) + ", " + nums + "}\n";
}

} // namespace warpscope::cudart
