#include "grade/why.hpp"

#include "run/run.hpp"
#include "runtime/references.hpp"
#include "trace/write_watch.hpp"

#include <sstream>

namespace warpscope::grade {

namespace {
std::string number(double v) {
    std::ostringstream os;
    os.precision(9);
    os << v;
    return os.str();
}
} // namespace

std::string WrongElement::text() const {
    std::string s = buffer + "[" + std::to_string(index) + "]: got " + number(got) + ", expected " + number(expected) + "; ";
    if (!written) return s + "no kernel stored to it (it still holds what the host put there)";
    s += std::string(atomic ? "last updated by an atomic" : "last written") + " by " + site.kernel;
    if (site.blockX) s += " block (" + std::to_string(*site.blockX) + "," + std::to_string(*site.blockY) + "," + std::to_string(*site.blockZ) + ")";
    if (site.threadX) s += " thread (" + std::to_string(*site.threadX) + "," + std::to_string(*site.threadY) + "," + std::to_string(*site.threadZ) + ")";
    if (site.sourceLine) s += ", line " + std::to_string(*site.sourceLine);
    return s;
}

WrongResult explainWrongResult(const runtime::Lesson& lesson, const runtime::ParamValues& params,
                               const sim::LaunchOptions& options, size_t maxElements) {
    WrongResult out;
    run::RunSpec spec;
    spec.sim = options;
    run::RunReport first = run::run(lesson, params, spec);
    if (first.error) {
        out.error = first.error->what();
        return out;
    }
    // The wrong elements and their addresses.
    struct Watched {
        WrongElement e;
        size_t range = 0;
    };
    std::vector<Watched> watched;
    trace::WriteWatch watch;
    for (const runtime::CheckResult& c : first.result.checks) {
        if (c.passed) continue;
        out.checks.push_back(c.buffer + ": " + c.detail);
        auto buf = first.result.buffers.find(c.buffer);
        auto addr = first.result.addresses.find(c.buffer);
        std::string type;
        for (auto& b : lesson.buffers)
            if (b.name == c.buffer) type = b.type;
        if (buf == first.result.buffers.end() || addr == first.result.addresses.end() || type.empty()) continue;
        runtime::HostBuffer hb;
        hb.type = type;
        hb.bytes = buf->second;
        const size_t count = hb.count();
        if (!count) continue;
        const uint32_t size = uint32_t(buf->second.size() / count);
        for (const runtime::ElementDiff& d : c.firstDiffs) {
            if (watched.size() >= maxElements) break;
            Watched w;
            w.e.buffer = c.buffer;
            w.e.index = d.index;
            w.e.got = d.got;
            w.e.expected = d.expected;
            w.range = watch.watch(addr->second + d.index * size, size);
            watched.push_back(std::move(w));
        }
    }
    if (watched.empty()) return out;
    // The same run again, watching the stores.
    spec.observers.push_back(&watch);
    run::RunReport second = run::run(lesson, params, spec);
    for (Watched& w : watched) {
        const std::optional<trace::Write>& wr = watch.write(w.range);
        if (wr) {
            w.e.written = true;
            w.e.atomic = wr->atomic;
            w.e.instruction = wr->instruction;
            FaultSite& s = w.e.site;
            if (wr->launch < second.launches.size()) {
                const run::LaunchReport& l = second.launches[wr->launch];
                s.kernel = l.kernel;
                w.e.grid = l.config.grid;
                w.e.block = l.config.block;
                const base::Dim3 g = l.config.grid, b = l.config.block;
                const base::Dim3 bi = g.at(wr->block);
                s.blockX = bi.x;
                s.blockY = bi.y;
                s.blockZ = bi.z;
                const base::Dim3 ti = b.at(uint64_t(wr->warpInBlock) * 32 + wr->lane);
                s.threadX = ti.x;
                s.threadY = ti.y;
                s.threadZ = ti.z;
            }
            s.lane = wr->lane;
            if (wr->line) s.sourceLine = wr->line;
            s.ptxLine = wr->ptxLine;
        }
        out.elements.push_back(std::move(w.e));
    }
    return out;
}

} // namespace warpscope::grade
