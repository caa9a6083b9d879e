// The Async copies panel's model (see async_view.hpp).
#include "gui/model/async_view.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <map>

namespace warpscope::gui {

namespace {
std::string hexText(uint64_t v) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
}

const BufferHeat* bufferAt(const Snapshot& s, uint64_t addr) {
    if (!s.heat) return nullptr;
    for (const BufferHeat& b : s.heat->buffers)
        if (addr >= b.base && addr < b.base + b.bytes) return &b;
    return nullptr;
}
} // namespace

std::string rangeText(uint64_t lo, uint64_t hi, bool hex) {
    if (hex) return "[" + hexText(lo) + ", " + hexText(hi) + ")";
    return "[" + std::to_string(lo) + ", " + std::to_string(hi) + ")";
}

std::string laneListText(uint32_t mask) {
    if (!mask) return "none";
    std::string out;
    for (int l = 0; l < 32;) {
        if (!((mask >> l) & 1)) {
            ++l;
            continue;
        }
        int e = l;
        while (e + 1 < 32 && ((mask >> (e + 1)) & 1)) ++e;
        if (!out.empty()) out += ", ";
        out += e > l ? std::to_string(l) + "-" + std::to_string(e) : std::to_string(l);
        l = e + 1;
    }
    return out;
}

std::string destinationText(const AsyncGroupRow& g, size_t maxRuns) {
    std::string t;
    for (size_t i = 0; i < g.dstRuns.size() && i < maxRuns; ++i) t += (i ? ", " : "") + rangeText(g.dstRuns[i].first, g.dstRuns[i].second, false);
    if (g.dstRuns.size() > maxRuns) t += " + " + std::to_string(g.dstRuns.size() - maxRuns) + " more";
    return t;
}

std::string sourceText(const AsyncGroupRow& g) {
    if (g.sourcesKnown == 0) return "global (not in the recent history)";
    std::string t;
    for (const AsyncGroupRow::Source& src : g.sources)
        t += (t.empty() ? "" : ", ") + (src.buffer.empty() ? std::string("global ") : src.buffer + " ") + rangeText(src.lo, src.hi, true);
    if (g.sourcesKnown < g.copies) t += " (" + std::to_string(g.sourcesKnown) + " of the copies)";
    return t;
}

std::string asyncGroupText(const AsyncGroupRow& g) {
    std::string t = g.group == ~0u ? std::string("not committed yet") : "group " + std::to_string(g.group);
    t += ": " + std::to_string(g.copies) + (g.copies == 1 ? " copy, " : " copies, ") + std::to_string(g.bytes) + " bytes, lanes " +
         laneListText(g.lanes) + "; from " + sourceText(g) + " to shared " + destinationText(g) + "; " + g.state;
    return t;
}

AsyncView buildAsyncView(const Snapshot& s) {
    AsyncView v;
    if (!s.selected) {
        v.message = "No warp selected.";
        return v;
    }
    const WarpDetail& d = *s.selected;
    v.valid = true;
    v.block = d.block;
    v.warp = d.warpInBlock;
    v.timed = d.asyncTimed;
    v.cycle = d.asyncCycle;
    for (uint32_t c : d.asyncCommitted) v.committedGroups = std::max(v.committedGroups, c);

    // The global source of each copy: the engine keeps only its bytes, so it is read from the warp's
    // recent memory instructions (the cp.async Steps, each with its lanes' source addresses). A
    // lane's pending copies from one instruction, in issue order, are that instruction's last
    // executions that included the lane; older than the history reaches, the source stays unknown.
    std::vector<AsyncCopyView> copies = d.asyncCopies;
    {
        std::map<std::pair<int32_t, uint32_t>, std::vector<size_t>> byPcLane;   // copies in issue order
        for (size_t i = 0; i < copies.size(); ++i) byPcLane[{copies[i].pc, copies[i].lane}].push_back(i);
        for (auto& [key, idx] : byPcLane) {
            size_t k = idx.size();
            for (auto it = s.memHistory.rbegin(); it != s.memHistory.rend() && k > 0; ++it)
                if (it->pc == key.first && !it->shared && ((it->mask >> key.second) & 1)) {
                    AsyncCopyView& c = copies[idx[--k]];
                    c.src = it->addr[key.second];
                    c.srcKnown = true;
                }
        }
    }

    // Groups, oldest first; the copies not committed yet (group ~0u) sort last.
    std::map<uint32_t, AsyncGroupRow> byGroup;
    for (const AsyncCopyView& c : copies) {
        AsyncGroupRow& g = byGroup[c.group];
        if (g.copies == 0) {
            g.group = c.group;
            g.dstLo = c.dst;
            g.dstHi = c.dst + c.bytes;
        }
        ++g.copies;
        g.bytes += c.bytes;
        g.lanes |= 1u << c.lane;
        if (c.srcKnown) {
            if (g.sourcesKnown == 0) {
                g.srcLo = c.src;
                g.srcHi = c.src + c.bytes;
            }
            ++g.sourcesKnown;
            g.srcLo = std::min(g.srcLo, c.src);
            g.srcHi = std::max(g.srcHi, c.src + c.bytes);
        }
        g.dstLo = std::min(g.dstLo, c.dst);
        g.dstHi = std::max(g.dstHi, c.dst + c.bytes);
        ++v.copies;
        v.bytes += c.bytes;
    }
    // The cycle model keeps the warp's newest committed groups, oldest first: the last of them is
    // group committedGroups - 1.
    const size_t known = d.asyncGroupReady.size();
    for (auto& [num, g] : byGroup) {
        if (g.sourcesKnown)
            if (const BufferHeat* b = bufferAt(s, g.srcLo)) g.srcBuffer = b->name;
        // Sources per buffer, destinations as contiguous runs.
        std::map<uint64_t, AsyncGroupRow::Source> bySource;   // by the buffer's base (0: none)
        std::vector<std::pair<uint32_t, uint32_t>> dst;
        for (const AsyncCopyView& c : copies) {
            if (c.group != num) continue;
            dst.push_back({c.dst, c.dst + c.bytes});
            if (!c.srcKnown) continue;
            const BufferHeat* b = bufferAt(s, c.src);
            AsyncGroupRow::Source& src = bySource[b ? b->base : 0];
            if (src.hi == 0) {
                src.buffer = b ? b->name : "";
                src.lo = c.src;
            }
            src.lo = std::min(src.lo, c.src);
            src.hi = std::max(src.hi, c.src + c.bytes);
        }
        for (auto& [base, src] : bySource) g.sources.push_back(src);
        std::sort(dst.begin(), dst.end());
        for (auto& r : dst) {
            if (!g.dstRuns.empty() && r.first <= g.dstRuns.back().second) g.dstRuns.back().second = std::max(g.dstRuns.back().second, r.second);
            else g.dstRuns.push_back(r);
        }
        if (v.timed) {
            if (num == ~0u) {
                g.timed = d.asyncOpenReady != 0;
                g.readyCycle = d.asyncOpenReady;
            } else if (num < v.committedGroups && v.committedGroups - num <= known) {
                g.timed = true;
                g.readyCycle = d.asyncGroupReady[known - (v.committedGroups - num)];
            }
            g.arrived = g.timed && g.readyCycle <= v.cycle;
        }
        if (num == ~0u)
            g.state = "issued, not committed yet";
        else if (g.arrived)
            g.state = "data back at cycle " + std::to_string(g.readyCycle) + "; lands at the wait";
        else if (g.timed)
            g.state = "in flight: data back at cycle " + std::to_string(g.readyCycle) + " (" + std::to_string(g.readyCycle - v.cycle) + " from now)";
        else
            g.state = "committed, pending: lands when a wait_group waits for it";
        v.groups.push_back(g);
    }
    v.copyList = copies;
    std::stable_sort(v.copyList.begin(), v.copyList.end(), [](const AsyncCopyView& a, const AsyncCopyView& b) {
        if (a.group != b.group) return a.group < b.group;
        return a.lane < b.lane;
    });

    // Shared memory: the words pending copies will write; this warp's own drawn apart.
    const uint32_t words = (s.sharedBytesPerBlock + 3) / 4;
    v.words.assign(words, SharedWord::Idle);
    for (uint32_t w = 0; w < words && w < d.sharedPending.size(); ++w)
        if (d.sharedPending[w]) {
            v.words[w] = SharedWord::PendingOther;
            ++v.pendingWords;
        }
    for (const AsyncCopyView& c : copies)
        for (uint32_t w = c.dst / 4; w < (c.dst + c.bytes + 3) / 4 && w < words; ++w)
            if (v.words[w] != SharedWord::PendingThisWarp) {
                if (v.words[w] == SharedWord::Idle) ++v.pendingWords;   // (not expected: the block counts every copy)
                v.words[w] = SharedWord::PendingThisWarp;
                ++v.pendingWordsThisWarp;
            }
    if (v.copies == 0)
        v.message = v.committedGroups == 0 ? "This warp has issued no cp.async in this launch."
                                           : "No copies in flight: every group this warp committed (" + std::to_string(v.committedGroups) +
                                                 ") has landed in shared memory.";
    return v;
}

} // namespace warpscope::gui
