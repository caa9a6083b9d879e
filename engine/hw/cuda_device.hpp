// CudaDevice: the runtime::Device interface over a real NVIDIA GPU, through the CUDA *driver* API.
//
// libcuda.so.1 is opened with dlopen at run time and every entry point is looked up with dlsym,
// so warpscope builds and runs where no CUDA is installed; only opening a CudaDevice fails there,
// with a sentence saying why. The PTX handed to loadModule is the same text the simulator runs;
// the driver JIT-compiles it for the GPU in the machine.
//
// Sections: availability probe, factory, the class.
#pragma once
#include "runtime/device.hpp"

#include <map>
#include <memory>
#include <string>

namespace warpscope::hw {

// "" when a CUDA GPU can be opened, else the reason in one sentence (for the GUI's disabled
// hardware toggle). Never throws.
std::string cudaAvailability();

// Opens GPU `ordinal` (0 = first). Throws warpscope::Error(Kind::Device) with a clear sentence
// when there is no driver, the driver cannot initialise, or there is no such GPU.
std::unique_ptr<runtime::Device> openCudaDevice(int ordinal = 0);

struct DriverApi;   // the dlopen'ed entry points (cuda_device.cpp)

class CudaDevice : public runtime::Device {
public:
    // Prefer openCudaDevice(); this throws the same errors.
    explicit CudaDevice(int ordinal);
    ~CudaDevice() override;
    CudaDevice(const CudaDevice&) = delete;
    CudaDevice& operator=(const CudaDevice&) = delete;

    std::string name() const override { return name_; }
    bool isSimulator() const override { return false; }

    void loadModule(const std::string& ptxText, const std::string& displayName) override;

    runtime::DevPtr malloc(size_t bytes, const std::string& label) override;
    void free(runtime::DevPtr ptr) override;
    void memcpyHtoD(runtime::DevPtr dst, const void* src, size_t bytes) override;
    void memcpyDtoH(void* dst, runtime::DevPtr src, size_t bytes) override;
    void memcpyDtoD(runtime::DevPtr dst, runtime::DevPtr src, size_t bytes) override;
    void memset(runtime::DevPtr dst, uint8_t value, size_t bytes) override;

    runtime::DevPtr symbolAddress(const std::string& name, size_t* bytes = nullptr) override;

    runtime::LaunchResult launch(const std::string& kernel, const runtime::LaunchConfig& config,
                                 const std::vector<runtime::ParamBytes>& params) override;
    void synchronize() override;

    // After a kernel fault (illegal address, trap, ...) the CUDA context is poisoned: every later
    // call fails. Then this is true and every method throws Error(Kind::Device) saying so;
    // destroy this object and open a new device (the destructor resets the context).
    bool needsReopen() const { return !lostReason_.empty(); }

    int ordinal() const { return ordinal_; }
    int computeCapabilityMajor() const { return ccMajor_; }
    int computeCapabilityMinor() const { return ccMinor_; }
    int driverVersion() const { return driverVersion_; }      // e.g. 13000 for CUDA 13.0
    const std::string& jitInfoLog() const { return jitInfoLog_; }  // of the last loadModule

private:
    struct Allocation {
        size_t bytes = 0;
        std::string label;
    };

    void bind() const;                      // make our context current on this thread
    void ensureUsable() const;              // throws when needsReopen()
    void check(int result, const char* what);   // throws Error(Device) on failure
    void checkRange(runtime::DevPtr ptr, size_t bytes, const char* what) const;
    void* function(const std::string& kernel);         // CUfunction, cached per module
    void markLost(int result, const std::string& kernel);

    std::shared_ptr<const DriverApi> api_;
    int ordinal_ = 0;
    int device_ = 0;                        // CUdevice
    void* context_ = nullptr;               // CUcontext (the device's primary context)
    void* module_ = nullptr;                // CUmodule
    std::string moduleName_;
    std::map<std::string, void*> functions_;
    std::map<runtime::DevPtr, Allocation> allocations_;
    std::string name_;
    int ccMajor_ = 0, ccMinor_ = 0, driverVersion_ = 0;
    std::string jitInfoLog_;
    std::string lostReason_;                // non-empty once the context is poisoned
};

} // namespace warpscope::hw
