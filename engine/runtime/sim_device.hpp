// The simulator behind the Device interface: parses the PTX, places module variables in device
// memory, compiles kernels on first use and runs launches on a sim::Gpu.
#pragma once
#include "mem/memory.hpp"
#include "ptx/ast.hpp"
#include "runtime/device.hpp"
#include "sim/gpu.hpp"
#include "sim/program.hpp"

#include <functional>
#include <map>
#include <memory>

namespace warpscope::runtime {

class SimDevice : public Device {
public:
    explicit SimDevice(sim::LaunchOptions options = {}) : options_(options) { memory_.setTrackInit(options.initcheck); }

    std::string name() const override { return "warpscope simulator"; }
    bool isSimulator() const override { return true; }
    void loadModule(const std::string& ptxText, const std::string& displayName) override;
    DevPtr malloc(size_t bytes, const std::string& label) override;
    void free(DevPtr ptr) override;
    void memcpyHtoD(DevPtr dst, const void* src, size_t bytes) override;
    void memcpyDtoH(void* dst, DevPtr src, size_t bytes) override;
    void memcpyDtoD(DevPtr dst, DevPtr src, size_t bytes) override;
    void memset(DevPtr dst, uint8_t value, size_t bytes) override;
    DevPtr symbolAddress(const std::string& name, size_t* bytes = nullptr) override;
    LaunchResult launch(const std::string& kernel, const LaunchConfig& config,
                        const std::vector<ParamBytes>& params) override;
    void synchronize() override {}

    // Simulator-only access.
    const ptx::Module& module() const { return module_; }
    const sim::Program& program(const std::string& kernel);
    mem::GlobalMemory& memory() { return memory_; }
    sim::LaunchOptions& options() { return options_; }
    // Called for each launch before it runs, e.g. to attach a trace listener or step it by hand.
    // If the hook runs the launch itself (to completion) SimDevice only collects the result.
    std::function<void(sim::Gpu&)> onLaunch;
    const sim::LaunchStats& lastStats() const { return lastStats_; }
    // Checker reports of every launch so far (initcheck, racecheck), in launch order.
    const std::vector<sim::CheckReport>& reports() const { return reports_; }

private:
    ptx::Module module_;
    bool loaded_ = false;
    mem::GlobalMemory memory_;
    sim::SymbolAddresses symbols_;
    std::map<std::string, size_t> symbolSizes_;
    std::map<std::string, std::unique_ptr<sim::Program>> programs_;
    sim::LaunchOptions options_;
    sim::LaunchStats lastStats_;
    std::vector<sim::CheckReport> reports_;
};

} // namespace warpscope::runtime
