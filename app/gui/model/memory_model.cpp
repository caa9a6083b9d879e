// Lane -> sector and lane -> bank layouts for the memory panels.
#include "gui/model/memory_model.hpp"

#include "mem/access.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace warpscope::gui {

// ---------------------------------------------------------------- 1. global
GlobalDiagram buildGlobalDiagram(const MemAccess& a) {
    GlobalDiagram d;
    d.laneSector.fill(-1);
    d.laneSectorLast.fill(-1);
    if (a.shared || a.mask == 0 || a.bytes == 0) return d;
    d.valid = true;
    d.isLoad = a.isLoad;
    d.isStore = a.isStore && !a.isAtomic;
    d.isAtomic = a.isAtomic;
    d.bytesPerLane = a.bytes;
    d.activeLanes = static_cast<uint32_t>(std::popcount(a.mask));

    // Distinct sectors with the bytes the lanes touch in each.
    for (int l = 0; l < 32; ++l) {
        if (!((a.mask >> l) & 1)) continue;
        for (uint64_t b = a.addr[l]; b < a.addr[l] + a.bytes; ++b) {
            uint64_t s = b & ~uint64_t(31);
            auto it = std::lower_bound(d.sectors.begin(), d.sectors.end(), s, [](const SectorUse& x, uint64_t v) { return x.addr < v; });
            if (it == d.sectors.end() || it->addr != s) it = d.sectors.insert(it, SectorUse{s, 0, 0, 0, 0});
            it->usedMask |= 1u << (b & 31);
            it->lanes |= 1u << l;
        }
    }
    for (auto& s : d.sectors) {
        s.usedBytes = static_cast<uint32_t>(std::popcount(s.usedMask));
        uint64_t line = s.addr & ~uint64_t(127);
        if (d.lines.empty() || d.lines.back().addr != line) d.lines.push_back({line, 0});
        d.lines.back().sectorMask |= 1u << ((s.addr >> 5) & 3);
        s.line = static_cast<uint32_t>(d.lines.size() - 1);
    }
    for (size_t i = 0; i < d.sectors.size(); ++i)
        for (int l = 0; l < 32; ++l)
            if ((d.sectors[i].lanes >> l) & 1) {
                if (d.laneSector[static_cast<size_t>(l)] < 0) d.laneSector[static_cast<size_t>(l)] = static_cast<int>(i);
                d.laneSectorLast[static_cast<size_t>(l)] = static_cast<int>(i);
            }

    mem::GlobalAccess g;
    mem::coalesce(a.addr.data(), a.mask, a.bytes, g);
    d.requests = g.requests;
    d.sectorCount = g.sectors;
    d.lineCount = g.lines;
    d.bytesRequested = g.bytesRequested;
    d.bytesUsed = g.bytesUsed;
    d.bytesMoved = g.sectors * 32;
    return d;
}

// ---------------------------------------------------------------- 2. shared
SharedDiagram buildSharedDiagram(const MemAccess& a) {
    SharedDiagram d;
    d.laneBank.fill(-1);
    d.laneRow.fill(-1);
    if (!a.shared || a.mask == 0 || a.bytes == 0) return d;
    d.valid = true;
    d.isLoad = a.isLoad && !a.isAtomic;
    d.bytesPerLane = a.bytes;
    d.activeLanes = static_cast<uint32_t>(std::popcount(a.mask));
    int nPhases = a.bytes >= 16 ? 4 : a.bytes == 8 ? 2 : 1;
    int perPhase = 32 / nPhases;
    d.phases.resize(static_cast<size_t>(nPhases));
    bool first = true;
    for (int p = 0; p < nPhases; ++p) {
        SharedPhase& ph = d.phases[static_cast<size_t>(p)];
        for (int l = p * perPhase; l < (p + 1) * perPhase; ++l) {
            ph.laneMask |= 1u << l;
            if (!((a.mask >> l) & 1)) continue;
            uint64_t w0 = a.addr[l] / 4, w1 = (a.addr[l] + std::max<uint32_t>(a.bytes, 1) - 1) / 4;
            for (uint64_t w = w0; w <= w1; ++w) {
                uint32_t bank = static_cast<uint32_t>(w % 32), row = static_cast<uint32_t>(w / 32);
                auto& words = ph.banks[bank];
                auto it = std::lower_bound(words.begin(), words.end(), row, [](const BankWord& x, uint32_t r) { return x.row < r; });
                if (it == words.end() || it->row != row) it = words.insert(it, BankWord{row, 0});
                it->lanes |= 1u << l;
                if (w == w0) {
                    d.laneBank[static_cast<size_t>(l)] = static_cast<int>(bank);
                    d.laneRow[static_cast<size_t>(l)] = static_cast<int>(row);
                }
                if (first) d.minRow = d.maxRow = row, first = false;
                d.minRow = std::min(d.minRow, row);
                d.maxRow = std::max(d.maxRow, row);
            }
        }
        for (uint32_t b = 0; b < 32; ++b) {
            const auto& words = ph.banks[b];
            ph.ways = std::max<uint32_t>(ph.ways, static_cast<uint32_t>(words.size()));
            for (const BankWord& w : words)
                if (std::popcount(w.lanes) > 1) ++d.broadcastWords;
        }
    }
    for (uint32_t b = 0; b < 32; ++b)
        for (const SharedPhase& ph : d.phases)
            if (ph.banks[b].size() > 1) {
                ++d.conflictBanks;
                break;
            }
    mem::SharedAccess s = mem::sharedWavefronts(a.addr.data(), a.mask, a.bytes, d.isLoad);
    d.wavefronts = s.wavefronts;
    d.ideal = s.ideal;
    d.conflicts = s.conflicts();
    d.worstBank = s.worstBank;
    return d;
}

const MemAccess* pickAccess(const std::vector<MemAccess>& history, bool shared, uint64_t pick) {
    const MemAccess* newest = nullptr;
    for (auto it = history.rbegin(); it != history.rend(); ++it) {
        if (it->shared != shared) continue;
        if (!newest) newest = &*it;
        if (pick && it->stepIndex + 1 == pick) return &*it;
    }
    return newest;
}

// ---------------------------------------------------------------- 3. heat-map helpers
uint32_t elementBytes(const std::string& type) {
    if (type.size() < 2) return 4;
    std::string digits;
    for (char c : type)
        if (c >= '0' && c <= '9') digits += c;
    if (digits.empty()) return 4;
    int bits = std::stoi(digits);
    return bits >= 8 ? static_cast<uint32_t>(bits / 8) : 1;
}

uint64_t defaultHeatWidth(uint64_t count) {
    if (count == 0) return 1;
    uint64_t r = static_cast<uint64_t>(std::llround(std::sqrt(static_cast<double>(count))));
    if (r * r == count) return r;
    // Not a square: a wide strip, rows of a power of two up to 256 elements.
    uint64_t w = 1;
    while (w < 256 && w * w < count) w *= 2;
    return std::min<uint64_t>(w, count);
}

std::string formatElement(const BufferHeat& b, uint64_t index) {
    uint64_t off = index * b.elemBytes;
    if (off + b.elemBytes > b.data.size()) return "?";
    const uint8_t* p = b.data.data() + off;
    char buf[64];
    const std::string& t = b.type;
    if (t == "f32") {
        float f;
        std::memcpy(&f, p, 4);
        std::snprintf(buf, sizeof buf, "%.7g", static_cast<double>(f));
    } else if (t == "f64") {
        double f;
        std::memcpy(&f, p, 8);
        std::snprintf(buf, sizeof buf, "%.10g", f);
    } else if (!t.empty() && t[0] == 's') {
        int64_t v = 0;
        if (b.elemBytes == 1) v = static_cast<int8_t>(p[0]);
        else if (b.elemBytes == 2) { int16_t x; std::memcpy(&x, p, 2); v = x; }
        else if (b.elemBytes == 4) { int32_t x; std::memcpy(&x, p, 4); v = x; }
        else std::memcpy(&v, p, 8);
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    } else {
        uint64_t v = 0;
        std::memcpy(&v, p, std::min<uint32_t>(b.elemBytes, 8));
        std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
    }
    return buf;
}

} // namespace warpscope::gui
