#include "runtime/sim_device.hpp"

#include "ptx/parser.hpp"
#include "runtime/error.hpp"

#include <chrono>
#include <cstring>

namespace warpscope::runtime {

void SimDevice::loadModule(const std::string& ptxText, const std::string& displayName) {
    ptx::Module m = ptx::parse(ptxText, displayName);
    // Module variables become named allocations; their initialisers are copied in. Addresses in
    // initialisers (generic(sym)) are patched once every variable has a place.
    memory_.reset();
    memory_.setTrackInit(options_.initcheck);
    symbols_.clear();
    symbolSizes_.clear();
    programs_.clear();
    for (auto& v : m.variables) {
        if (v.space != ptx::StateSpace::Global && v.space != ptx::StateSpace::Const) continue;
        if (v.isExtern) continue;
        int64_t size = v.sizeInBytes();
        if (size <= 0) size = static_cast<int64_t>(v.init.size());
        if (size > (int64_t(256) << 20))
            throw Error(Error::Kind::Input, "Module variable '" + v.name + "' has " + std::to_string(size) +
                                                " bytes; the simulator allows at most 256 MiB per variable.");
        DevPtr p = memory_.allocate(static_cast<uint64_t>(std::max<int64_t>(size, 1)), v.name, v.space == ptx::StateSpace::Const);
        symbols_[v.name] = p;
        symbolSizes_[v.name] = static_cast<size_t>(size);
    }
    for (auto& v : m.variables) {
        auto it = symbols_.find(v.name);
        if (it == symbols_.end() || v.init.empty()) continue;
        std::vector<uint8_t> bytes = v.init;
        for (auto& [off, sym] : v.initSymbols) {
            auto s = symbols_.find(sym);
            if (s == symbols_.end()) continue;   // a function or shared symbol: leave the offset
            uint64_t add = 0;
            std::memcpy(&add, bytes.data() + off, std::min<size_t>(8, bytes.size() - off));
            uint64_t val = s->second + add;
            std::memcpy(bytes.data() + off, &val, std::min<size_t>(8, bytes.size() - off));
        }
        uint8_t* dst = memory_.hostPointer(it->second, bytes.size(), "module initialiser");
        std::memcpy(dst, bytes.data(), bytes.size());
    }
    // Module variables are zero-initialised by the loader: all of their bytes count as written.
    for (auto& [name, addr] : symbols_) memory_.markWritten(addr, std::max<size_t>(symbolSizes_[name], 1));
    module_ = std::move(m);
    loaded_ = true;
}

const sim::Program& SimDevice::program(const std::string& kernel) {
    if (!loaded_) throw Error(Error::Kind::Input, "No PTX module is loaded.");
    auto it = programs_.find(kernel);
    if (it == programs_.end())
        it = programs_.emplace(kernel, std::make_unique<sim::Program>(sim::compile(module_, kernel, symbols_))).first;
    return *it->second;
}

DevPtr SimDevice::malloc(size_t bytes, const std::string& label) { return memory_.allocate(bytes, label); }
void SimDevice::free(DevPtr ptr) { memory_.free(ptr); }

void SimDevice::memcpyHtoD(DevPtr dst, const void* src, size_t bytes) {
    if (bytes == 0) return;
    std::memcpy(memory_.hostPointer(dst, bytes, "cudaMemcpy host-to-device"), src, bytes);
    memory_.markWritten(dst, bytes);
}
void SimDevice::memcpyDtoH(void* dst, DevPtr src, size_t bytes) {
    if (bytes == 0) return;
    std::memcpy(dst, memory_.hostPointer(src, bytes, "cudaMemcpy device-to-host"), bytes);
}
void SimDevice::memcpyDtoD(DevPtr dst, DevPtr src, size_t bytes) {
    if (bytes == 0) return;
    const uint8_t* s = memory_.hostPointer(src, bytes, "cudaMemcpy device-to-device (source)");
    std::memmove(memory_.hostPointer(dst, bytes, "cudaMemcpy device-to-device (destination)"), s, bytes);
    memory_.markWritten(dst, bytes);
}
void SimDevice::memset(DevPtr dst, uint8_t value, size_t bytes) {
    if (bytes == 0) return;
    std::memset(memory_.hostPointer(dst, bytes, "cudaMemset"), value, bytes);
    memory_.markWritten(dst, bytes);
}

DevPtr SimDevice::symbolAddress(const std::string& name, size_t* bytes) {
    auto it = symbols_.find(name);
    if (it == symbols_.end()) throw Error(Error::Kind::Input, "No __device__ or __constant__ variable named '" + name + "' in the module.");
    if (bytes) *bytes = symbolSizes_[name];
    return it->second;
}

LaunchResult SimDevice::launch(const std::string& kernel, const LaunchConfig& config, const std::vector<ParamBytes>& params) {
    const sim::Program& prog = program(kernel);
    auto t0 = std::chrono::steady_clock::now();
    sim::Gpu gpu(prog, memory_, config, params, options_);
    if (onLaunch) onLaunch(gpu);
    struct KeepReports {   // keep the checkers' findings even when the launch faults
        sim::Gpu& g;
        std::vector<sim::CheckReport>& out;
        ~KeepReports() { out.insert(out.end(), g.reports().begin(), g.reports().end()); }
    } keep{gpu, reports_};
    gpu.run();
    auto t1 = std::chrono::steady_clock::now();
    lastStats_ = gpu.stats();
    LaunchResult r;
    r.elapsedMs = std::chrono::duration<double, std::milli>(t1 - t0).count();
    r.warpInstructions = gpu.stats().warpInstructions;
    r.threadInstructions = gpu.stats().threadInstructions;
    r.branches = gpu.stats().branches;
    r.divergentBranches = gpu.stats().divergentBranches;
    r.kernel = kernel;
    r.grid = config.grid;
    r.block = config.block;
    r.dynamicSharedBytes = config.dynamicSharedBytes;
    return r;
}

} // namespace warpscope::runtime
