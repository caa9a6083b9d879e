#include "mem/memory.hpp"

#include "base/error.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sstream>

#include <unistd.h>

namespace warpscope::mem {

uint64_t defaultDeviceMemoryLimit() {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || size <= 0) return uint64_t(8) << 30;
    return uint64_t(pages) * uint64_t(size) / 2;
}

std::string formatBytes(uint64_t bytes) {
    char buf[64];
    if (bytes >= (uint64_t(1) << 30)) std::snprintf(buf, sizeof buf, "%.1f GiB", double(bytes) / double(uint64_t(1) << 30));
    else if (bytes >= (uint64_t(1) << 20)) std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / double(uint64_t(1) << 20));
    else std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(bytes));
    return buf;
}

uint64_t GlobalMemory::allocate(uint64_t bytes, std::string name, bool readOnly) {
    if (limit_ && (bytes > limit_ || live_ + bytes > limit_))
        throw Error(Error::Kind::Input, "Allocation '" + name + "' of " + formatBytes(bytes) +
                                            (bytes >= (1u << 20) ? " (" + std::to_string(bytes) + " bytes)" : std::string()) +
                                            " does not fit in the simulated device memory: its limit is " + formatBytes(limit_) +
                                            " and " + formatBytes(live_) + " are in use. Allocate less, or raise the limit "
                                            "(warpscope run --device-memory SIZE, e.g. 16G).");
    if (bytes > kMaxAllocation)
        throw Error(Error::Kind::Input, "Allocation '" + name + "' of " + std::to_string(bytes) +
                                            " bytes is larger than the simulator allows (4 GiB).");
    auto a = std::make_unique<Allocation>();
    try {
        a->data = std::make_unique<uint8_t[]>(std::max<uint64_t>(bytes, 1));
    } catch (const std::bad_alloc&) {
        throw Error(Error::Kind::Input, "Not enough host memory for allocation '" + name + "' (" + std::to_string(bytes) + " bytes).");
    }
    uint64_t& next = readOnly ? nextConst_ : nextGlobal_;
    a->base = next;
    a->size = bytes;
    a->name = std::move(name);
    a->readOnly = readOnly;
    std::memset(a->data.get(), 0, std::max<uint64_t>(bytes, 1));
    if (trackInit_) {
        a->init = std::make_unique<uint8_t[]>(std::max<uint64_t>(bytes, 1));
        std::memset(a->init.get(), 0, std::max<uint64_t>(bytes, 1));
    }
    // Leave a gap after every allocation so running off its end never lands in the next one.
    next += ((bytes + kAllocationAlign - 1) / kAllocationAlign + 1) * kAllocationAlign;
    live_ += bytes;
    uint64_t base = a->base;
    auto pos = std::lower_bound(allocs_.begin(), allocs_.end(), base,
                                [](const std::unique_ptr<Allocation>& x, uint64_t b) { return x->base < b; });
    allocs_.insert(pos, std::move(a));
    last_ = nullptr;
    return base;
}

void GlobalMemory::free(uint64_t base) {
    for (auto& a : allocs_) {
        if (a->base == base) {
            if (a->freed)
                throw Error(Error::Kind::Input, "Double free of allocation '" + a->name + "'.");
            a->freed = true;
            a->data.reset();
            live_ -= std::min(live_, a->size);
            last_ = nullptr;
            return;
        }
    }
    throw Error(Error::Kind::Input, "free() of an address that is not the start of an allocation.");
}

void GlobalMemory::markWritten(uint64_t addr, uint64_t bytes) {
    Allocation* a = find(addr, bytes);
    if (a && a->init) std::memset(a->init.get() + (addr - a->base), 1, bytes);
}

void GlobalMemory::reset() {
    allocs_.clear();
    last_ = nullptr;
    live_ = 0;
    nextGlobal_ = kGlobalBase;
    nextConst_ = kConstBase;
}

Allocation* GlobalMemory::findSlow(uint64_t addr, uint64_t bytes) const {
    auto it = std::upper_bound(allocs_.begin(), allocs_.end(), addr,
                               [](uint64_t x, const std::unique_ptr<Allocation>& a) { return x < a->base; });
    if (it == allocs_.begin()) return nullptr;
    Allocation* a = std::prev(it)->get();
    if (a->freed || addr + bytes > a->base + a->size || addr + bytes < addr) return nullptr;
    return a;
}

const Allocation* GlobalMemory::nearest(uint64_t addr) const {
    auto it = std::upper_bound(allocs_.begin(), allocs_.end(), addr,
                               [](uint64_t x, const std::unique_ptr<Allocation>& a) { return x < a->base; });
    if (it == allocs_.begin()) return allocs_.empty() ? nullptr : allocs_.front().get();
    return std::prev(it)->get();
}

const Allocation* GlobalMemory::byName(const std::string& name) const {
    for (auto& a : allocs_)
        if (a->name == name && !a->freed) return a.get();
    return nullptr;
}

uint8_t* GlobalMemory::hostPointer(uint64_t addr, uint64_t bytes, const char* what) {
    Allocation* a = find(addr, bytes);
    if (!a) {
        std::string name;
        std::optional<int64_t> off;
        throw Error(Error::Kind::Input, std::string(what) + ": " + std::to_string(bytes) + " bytes at " +
                                            describeAddress(*this, addr, &name, &off) + " are not inside one allocation.");
    }
    return a->data.get() + (addr - a->base);
}

std::string describeAddress(const GlobalMemory& mem, uint64_t addr, std::string* allocName, std::optional<int64_t>* offset) {
    std::ostringstream os;
    os << "0x" << std::hex << addr << std::dec;
    const Allocation* a = mem.nearest(addr);
    if (!a) return os.str() + " (no allocations exist)";
    int64_t off = static_cast<int64_t>(addr - a->base);
    if (allocName) *allocName = a->name;
    if (offset) *offset = off;
    if (a->freed) {
        os << " (inside '" << a->name << "', which was freed)";
    } else if (addr >= a->base && addr < a->base + a->size) {
        os << " ('" << a->name << "' + " << off << ")";
    } else if (addr >= a->base) {
        os << " (" << (addr - a->base - a->size) << " bytes past the end of '" << a->name << "', which has "
           << a->size << " bytes)";
    } else {
        os << " (" << (a->base - addr) << " bytes before '" << a->name << "')";
    }
    return os.str();
}

} // namespace warpscope::mem
