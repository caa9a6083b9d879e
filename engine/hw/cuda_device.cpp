// CudaDevice over the CUDA driver API, loaded at run time.
//
// Sections:
//   1. The few driver API types and constants we need (declared here: no cuda.h, no -lcuda)
//   2. DriverApi: dlopen + dlsym, cuInit, error text
//   3. Availability probe and factory
//   4. CudaDevice: context, module, memory, symbols, launch
//   5. Host runtime: host memory, streams, events, graphs, and the measured timeline
#include "hw/cuda_device.hpp"

#include "base/error.hpp"
#include "base/web.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>

namespace warpscope::hw {

using runtime::DevPtr;

// ---------------------------------------------------------------------------------------------
// 1. Driver API declarations. Values and signatures follow the CUDA driver API reference; only
//    what this file uses. CUresult is a C enum (int-sized); CUdeviceptr is unsigned long long on
//    64-bit hosts; handles are opaque pointers.
// ---------------------------------------------------------------------------------------------
namespace {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = void*;
using CUmodule = void*;
using CUfunction = void*;
using CUstream = void*;
using CUevent = void*;
using CUjit_option = int;   // enum CUjit_option_enum
using CUgraph = void*;
using CUgraphExec = void*;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
constexpr CUresult CUDA_ERROR_ILLEGAL_ADDRESS = 700;
constexpr CUresult CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701;
constexpr CUresult CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720;
constexpr CUresult CUDA_ERROR_LAUNCH_TIMEOUT = 702;
constexpr CUresult CUDA_ERROR_ASSERT = 710;
constexpr CUresult CUDA_ERROR_HARDWARE_STACK_ERROR = 714;
constexpr CUresult CUDA_ERROR_ILLEGAL_INSTRUCTION = 715;
constexpr CUresult CUDA_ERROR_MISALIGNED_ADDRESS = 716;
constexpr CUresult CUDA_ERROR_INVALID_ADDRESS_SPACE = 717;
constexpr CUresult CUDA_ERROR_INVALID_PC = 718;
constexpr CUresult CUDA_ERROR_LAUNCH_FAILED = 719;

constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER = 3;
constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr CUjit_option CU_JIT_LOG_VERBOSE = 12;

constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
constexpr unsigned CU_EVENT_DEFAULT = 0;
constexpr unsigned CU_STREAM_DEFAULT = 0;
constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
constexpr int CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1;

// Shared memory a kernel may use without opting in (cuFuncSetAttribute) on every GPU since Kepler.
constexpr uint32_t kDefaultSharedLimit = 48 * 1024;

// Errors after which the context is unusable ("sticky"): the process must make a new context.
bool isStickyFault(CUresult r) {
    switch (r) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_LAUNCH_FAILED:
        return true;
    default:
        return false;
    }
}

} // namespace

// ---------------------------------------------------------------------------------------------
// 2. DriverApi
// ---------------------------------------------------------------------------------------------
struct DriverApi {
    void* handle = nullptr;
    CUresult initResult = CUDA_SUCCESS;

    CUresult (*cuInit)(unsigned) = nullptr;
    CUresult (*cuDriverGetVersion)(int*) = nullptr;
    CUresult (*cuGetErrorName)(CUresult, const char**) = nullptr;
    CUresult (*cuGetErrorString)(CUresult, const char**) = nullptr;
    CUresult (*cuDeviceGetCount)(int*) = nullptr;
    CUresult (*cuDeviceGet)(CUdevice*, int) = nullptr;
    CUresult (*cuDeviceGetName)(char*, int, CUdevice) = nullptr;
    CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice) = nullptr;
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice) = nullptr;
    CUresult (*cuDevicePrimaryCtxRelease)(CUdevice) = nullptr;   // _v2
    CUresult (*cuDevicePrimaryCtxReset)(CUdevice) = nullptr;     // _v2
    CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
    CUresult (*cuCtxSynchronize)() = nullptr;
    CUresult (*cuModuleLoadDataEx)(CUmodule*, const void*, unsigned, CUjit_option*, void**) = nullptr;
    CUresult (*cuModuleUnload)(CUmodule) = nullptr;
    CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
    CUresult (*cuModuleGetGlobal)(CUdeviceptr*, size_t*, CUmodule, const char*) = nullptr;  // _v2
    CUresult (*cuMemAlloc)(CUdeviceptr*, size_t) = nullptr;                                // _v2
    CUresult (*cuMemFree)(CUdeviceptr) = nullptr;                                          // _v2
    CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, size_t) = nullptr;                  // _v2
    CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, size_t) = nullptr;                        // _v2
    CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t) = nullptr;                  // _v2
    CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t) = nullptr;                  // _v2
    CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                               unsigned, unsigned, CUstream, void**, void**) = nullptr;
    CUresult (*cuEventCreate)(CUevent*, unsigned) = nullptr;
    CUresult (*cuEventRecord)(CUevent, CUstream) = nullptr;
    CUresult (*cuEventSynchronize)(CUevent) = nullptr;
    CUresult (*cuEventElapsedTime)(float*, CUevent, CUevent) = nullptr;  // _v2 or the original
    CUresult (*cuEventDestroy)(CUevent) = nullptr;                       // _v2
    // Streams, asynchronous copies, page-locked host memory.
    CUresult (*cuStreamCreate)(CUstream*, unsigned) = nullptr;
    CUresult (*cuStreamDestroy)(CUstream) = nullptr;                     // _v2
    CUresult (*cuStreamSynchronize)(CUstream) = nullptr;
    CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned) = nullptr;
    CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void*, size_t, CUstream) = nullptr;   // _v2
    CUresult (*cuMemcpyDtoHAsync)(void*, CUdeviceptr, size_t, CUstream) = nullptr;         // _v2
    CUresult (*cuMemHostAlloc)(void**, size_t, unsigned) = nullptr;
    CUresult (*cuMemFreeHost)(void*) = nullptr;
    // Optional (newer drivers): nullptr when absent.
    CUresult (*cuStreamBeginCapture)(CUstream, int) = nullptr;           // _v2
    CUresult (*cuStreamEndCapture)(CUstream, CUgraph*) = nullptr;
    CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec*, CUgraph, unsigned long long) = nullptr;
    CUresult (*cuGraphLaunch)(CUgraphExec, CUstream) = nullptr;
    CUresult (*cuGraphExecDestroy)(CUgraphExec) = nullptr;
    CUresult (*cuGraphDestroy)(CUgraph) = nullptr;
    CUresult (*cuFuncSetAttribute)(CUfunction, int, int) = nullptr;
    CUresult (*cuLaunchCooperativeKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                          CUstream, void**) = nullptr;   // (optional: only cooperative launches need it)
    CUresult (*cuFuncGetParamInfo)(CUfunction, size_t, size_t*, size_t*) = nullptr;
    CUresult (*cuFuncGetAttribute)(int*, int, CUfunction) = nullptr;

    // "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)"
    std::string describe(CUresult r) const {
        const char* errName = nullptr;
        const char* errText = nullptr;
        if (cuGetErrorName) cuGetErrorName(r, &errName);
        if (cuGetErrorString) cuGetErrorString(r, &errText);
        std::string s = errName ? errName : "CUDA error " + std::to_string(r);
        if (errText) s += std::string(" (") + errText + ")";
        return s;
    }
};

namespace {

template <typename Fn>
bool bindSymbol(void* handle, Fn& fn, const char* symbol) {
    fn = reinterpret_cast<Fn>(dlsym(handle, symbol));
    return fn != nullptr;
}

// Loads libcuda once per process and calls cuInit. Throws Error(Kind::Device).
std::shared_ptr<const DriverApi> loadDriver() {
    static std::mutex mutex;
    static std::shared_ptr<const DriverApi> cached;
    std::lock_guard lock(mutex);
    if (cached) return cached;
    if constexpr (base::kInBrowser) throw Error(Error::Kind::Device, base::kNoGpuInBrowser);

    dlerror();
    void* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* why = dlerror();
        throw Error(Error::Kind::Device,
                    std::string("No NVIDIA driver found (libcuda.so.1 could not be loaded): ") +
                        (why ? why : "unknown reason") +
                        ". Install the NVIDIA driver to run kernels on a GPU; the simulator "
                        "works without it.");
    }
    auto api = std::make_shared<DriverApi>();
    api->handle = handle;   // never dlclose'd: the driver stays loaded for the process's life

    std::string missing;
    auto need = [&](auto& fn, const char* symbol) {
        if (!bindSymbol(handle, fn, symbol)) missing += std::string(missing.empty() ? "" : ", ") + symbol;
    };
    need(api->cuInit, "cuInit");
    need(api->cuDriverGetVersion, "cuDriverGetVersion");
    need(api->cuGetErrorName, "cuGetErrorName");
    need(api->cuGetErrorString, "cuGetErrorString");
    need(api->cuDeviceGetCount, "cuDeviceGetCount");
    need(api->cuDeviceGet, "cuDeviceGet");
    need(api->cuDeviceGetName, "cuDeviceGetName");
    need(api->cuDeviceGetAttribute, "cuDeviceGetAttribute");
    need(api->cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    need(api->cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
    need(api->cuDevicePrimaryCtxReset, "cuDevicePrimaryCtxReset_v2");
    need(api->cuCtxSetCurrent, "cuCtxSetCurrent");
    need(api->cuCtxSynchronize, "cuCtxSynchronize");
    need(api->cuModuleLoadDataEx, "cuModuleLoadDataEx");
    need(api->cuModuleUnload, "cuModuleUnload");
    need(api->cuModuleGetFunction, "cuModuleGetFunction");
    need(api->cuModuleGetGlobal, "cuModuleGetGlobal_v2");
    need(api->cuMemAlloc, "cuMemAlloc_v2");
    need(api->cuMemFree, "cuMemFree_v2");
    need(api->cuMemcpyHtoD, "cuMemcpyHtoD_v2");
    need(api->cuMemcpyDtoH, "cuMemcpyDtoH_v2");
    need(api->cuMemcpyDtoD, "cuMemcpyDtoD_v2");
    need(api->cuMemsetD8, "cuMemsetD8_v2");
    need(api->cuLaunchKernel, "cuLaunchKernel");
    need(api->cuEventCreate, "cuEventCreate");
    need(api->cuEventRecord, "cuEventRecord");
    need(api->cuEventSynchronize, "cuEventSynchronize");
    need(api->cuEventDestroy, "cuEventDestroy_v2");
    if (!bindSymbol(handle, api->cuEventElapsedTime, "cuEventElapsedTime_v2"))
        need(api->cuEventElapsedTime, "cuEventElapsedTime");
    need(api->cuStreamCreate, "cuStreamCreate");
    need(api->cuStreamDestroy, "cuStreamDestroy_v2");
    need(api->cuStreamSynchronize, "cuStreamSynchronize");
    need(api->cuStreamWaitEvent, "cuStreamWaitEvent");
    need(api->cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
    need(api->cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2");
    need(api->cuMemHostAlloc, "cuMemHostAlloc");
    need(api->cuMemFreeHost, "cuMemFreeHost");
    bindSymbol(handle, api->cuStreamBeginCapture, "cuStreamBeginCapture_v2");
    bindSymbol(handle, api->cuStreamEndCapture, "cuStreamEndCapture");
    bindSymbol(handle, api->cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags");
    bindSymbol(handle, api->cuFuncGetAttribute, "cuFuncGetAttribute");
    bindSymbol(handle, api->cuGraphLaunch, "cuGraphLaunch");
    bindSymbol(handle, api->cuGraphExecDestroy, "cuGraphExecDestroy");
    bindSymbol(handle, api->cuGraphDestroy, "cuGraphDestroy");
    bindSymbol(handle, api->cuFuncSetAttribute, "cuFuncSetAttribute");
    bindSymbol(handle, api->cuLaunchCooperativeKernel, "cuLaunchCooperativeKernel");
    bindSymbol(handle, api->cuFuncGetParamInfo, "cuFuncGetParamInfo");
    if (!missing.empty())
        throw Error(Error::Kind::Device,
                    "The NVIDIA driver (libcuda.so.1) is too old or incomplete: it lacks " +
                        missing + ". Update the NVIDIA driver.");

    api->initResult = api->cuInit(0);
    cached = api;
    return cached;
}

// Throws when cuInit failed, with the most useful sentence for the common causes.
void requireInitialised(const DriverApi& api) {
    CUresult r = api.initResult;
    if (r == CUDA_SUCCESS) return;
    std::string msg;
    if (r == CUDA_ERROR_NO_DEVICE)
        msg = "The NVIDIA driver is installed but found no CUDA-capable GPU (cuInit: " +
              api.describe(r) + ").";
    else if (r == CUDA_ERROR_STUB_LIBRARY)
        msg = "The libcuda.so.1 found is the CUDA toolkit's stub library, not a real NVIDIA driver "
              "(cuInit: " + api.describe(r) + ").";
    else
        msg = "The NVIDIA driver could not be initialised (cuInit: " + api.describe(r) +
              "). Check that the driver matches the kernel module and that the GPU is visible "
              "to this process.";
    throw Error(Error::Kind::Device, msg);
}

int deviceCount(const DriverApi& api) {
    int count = 0;
    CUresult r = api.cuDeviceGetCount(&count);
    if (r != CUDA_SUCCESS)
        throw Error(Error::Kind::Device,
                    "Could not count the CUDA GPUs (cuDeviceGetCount: " + api.describe(r) + ").");
    return count;
}

FaultSite siteOf(const std::string& kernel) {
    FaultSite site;
    site.kernel = kernel;
    return site;
}

std::string hex(uint64_t v) {
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

} // namespace

// ---------------------------------------------------------------------------------------------
// 3. Availability and factory
// ---------------------------------------------------------------------------------------------
std::string cudaAvailability() {
    try {
        auto api = loadDriver();
        requireInitialised(*api);
        if (deviceCount(*api) < 1) return "The NVIDIA driver is installed but found no CUDA-capable GPU.";
        return "";
    } catch (const Error& e) {
        return e.what();
    } catch (const std::exception& e) {
        return std::string("The CUDA driver could not be probed: ") + e.what();
    }
}

std::unique_ptr<runtime::Device> openCudaDevice(int ordinal) {
    return std::make_unique<CudaDevice>(ordinal);
}

std::unique_ptr<runtime::Device> openCudaDeviceOrWhy(std::string& why) {
    why = cudaAvailability();
    if (!why.empty()) return nullptr;
    try {
        return openCudaDevice(0);
    } catch (const std::exception& e) {
        why = e.what();
    }
    return nullptr;
}

// ---------------------------------------------------------------------------------------------
// 4. CudaDevice
// ---------------------------------------------------------------------------------------------
CudaDevice::CudaDevice(int ordinal) : api_(loadDriver()), ordinal_(ordinal) {
    const DriverApi& api = *api_;
    requireInitialised(api);
    int count = deviceCount(api);
    if (count < 1)
        throw Error(Error::Kind::Device, "The NVIDIA driver is installed but found no CUDA-capable GPU.");
    if (ordinal < 0 || ordinal >= count)
        throw Error(Error::Kind::Device, "There is no GPU number " + std::to_string(ordinal) +
                                             ": this machine has " + std::to_string(count) +
                                             (count == 1 ? " GPU (number 0)." : " GPUs (numbers 0 to " +
                                                  std::to_string(count - 1) + ")."));
    check(api.cuDeviceGet(&device_, ordinal), "cuDeviceGet");

    char buf[256] = {};
    check(api.cuDeviceGetName(buf, int(sizeof buf) - 1, device_), "cuDeviceGetName");
    name_ = buf;
    api.cuDeviceGetAttribute(&ccMajor_, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device_);
    api.cuDeviceGetAttribute(&ccMinor_, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device_);
    api.cuDriverGetVersion(&driverVersion_);

    CUcontext ctx = nullptr;
    CUresult r = api.cuDevicePrimaryCtxRetain(&ctx, device_);
    if (r != CUDA_SUCCESS)
        throw Error(Error::Kind::Device, "Could not create a CUDA context on " + name_ +
                                             " (cuDevicePrimaryCtxRetain: " + api.describe(r) +
                                             "). The GPU may be in exclusive use by another process.");
    context_ = ctx;
    r = api.cuCtxSetCurrent(ctx);
    if (r != CUDA_SUCCESS) {
        api.cuDevicePrimaryCtxRelease(device_);
        context_ = nullptr;
        throw Error(Error::Kind::Device, "Could not make the CUDA context current (cuCtxSetCurrent: " +
                                             api.describe(r) + ").");
    }
}

CudaDevice::~CudaDevice() {
    if (!context_) return;
    const DriverApi& api = *api_;
    api.cuCtxSetCurrent(context_);
    if (lostReason_.empty()) {
        api.cuCtxSynchronize();
        releaseRuntime();
        // Return what we hold so a long GUI session does not leak GPU memory across reopenings.
        for (const auto& [ptr, alloc] : allocations_) api.cuMemFree(ptr);
        if (module_) api.cuModuleUnload(module_);
        if (spinModule_) api.cuModuleUnload(spinModule_);
        api.cuDevicePrimaryCtxRelease(device_);
    } else {
        // The poisoned primary context must be destroyed, or the next open gets it back.
        releaseRuntime();   // the driver calls fail harmlessly; host memory is still ours to free
        api.cuDevicePrimaryCtxRelease(device_);
        api.cuDevicePrimaryCtxReset(device_);
    }
    api.cuCtxSetCurrent(nullptr);
}

void CudaDevice::bind() const {
    // Cheap, and makes the device usable from whichever thread (GUI worker, CLI) calls it.
    api_->cuCtxSetCurrent(context_);
}

void CudaDevice::ensureUsable() const {
    if (!lostReason_.empty())
        throw Error(Error::Kind::Device,
                    "The GPU context is no longer usable after an earlier fault (" + lostReason_ +
                        "). Reopen the GPU device to continue.");
}

void CudaDevice::check(int result, const char* what) {
    if (result == CUDA_SUCCESS) return;
    if (isStickyFault(result)) {
        // A fault from an earlier asynchronous launch surfaced here.
        lostReason_ = api_->describe(result);
        throw Error(Error::Kind::Device,
                    std::string("The GPU reported a fault during ") + what + ": " +
                        api_->describe(result) + ". Reopen the GPU device to continue.");
    }
    throw Error(Error::Kind::Device,
                std::string("CUDA driver call ") + what + " failed on " +
                    (name_.empty() ? std::string("the GPU") : name_) + ": " + api_->describe(result) + ".");
}

void CudaDevice::markLost(int result, const std::string& kernel) {
    lostReason_ = api_->describe(result) + " in kernel '" + kernel + "'";
}

// If `ptr` lies in one of our allocations, the whole range must too: a host-side overrun would
// otherwise corrupt a neighbouring allocation silently instead of failing.
void CudaDevice::checkRange(DevPtr ptr, size_t bytes, const char* what) const {
    auto it = allocations_.upper_bound(ptr);
    if (it == allocations_.begin()) return;
    --it;
    DevPtr base = it->first;
    const Allocation& a = it->second;
    if (ptr >= base + a.bytes) return;   // not ours (e.g. a module variable): the driver checks
    if (bytes > a.bytes - (ptr - base))
        throw Error(Error::Kind::Input,
                    std::string(what) + " of " + std::to_string(bytes) + " bytes at offset " +
                        std::to_string(ptr - base) + " runs past the end of allocation '" + a.label +
                        "' (" + std::to_string(a.bytes) + " bytes).");
}

void CudaDevice::loadModule(const std::string& ptxText, const std::string& displayName) {
    ensureUsable();
    bind();
    const DriverApi& api = *api_;
    // The same PTX again (a lesson run repeatedly): keep the module and its loaded functions, so
    // that repeated runs do not pay for the JIT and the driver's lazy loading each time.
    if (module_ && ptxText == moduleText_) {
        moduleName_ = displayName;
        return;
    }
    if (module_) {
        api.cuModuleUnload(module_);
        module_ = nullptr;
        functions_.clear();
        moduleName_.clear();
        moduleText_.clear();
    }

    constexpr size_t kLogBytes = 64 * 1024;
    std::string infoLog(kLogBytes, '\0');
    std::string errorLog(kLogBytes, '\0');
    CUjit_option options[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                              CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                              CU_JIT_LOG_VERBOSE};
    // Size options are passed by value in the pointer slot, as the driver API specifies.
    void* values[] = {infoLog.data(), reinterpret_cast<void*>(uintptr_t(kLogBytes)),
                      errorLog.data(), reinterpret_cast<void*>(uintptr_t(kLogBytes)),
                      reinterpret_cast<void*>(uintptr_t(0))};
    CUmodule mod = nullptr;
    CUresult r = api.cuModuleLoadDataEx(&mod, ptxText.c_str(), unsigned(std::size(options)), options, values);
    auto trim = [](std::string& s) {
        s.resize(std::strlen(s.c_str()));
        while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    };
    trim(infoLog);
    trim(errorLog);
    jitInfoLog_ = infoLog;
    if (r != CUDA_SUCCESS) {
        if (isStickyFault(r)) markLost(r, "(module load)");
        std::string msg = "The CUDA driver could not compile the PTX of '" + displayName + "' for " +
                          name_ + ": " + api.describe(r) + ".";
        if (!errorLog.empty()) msg += " JIT log:\n" + errorLog;
        else if (!infoLog.empty()) msg += " JIT log:\n" + infoLog;
        throw Error(Error::Kind::Device, msg);
    }
    module_ = mod;
    moduleName_ = displayName;
    moduleText_ = ptxText;
}

DevPtr CudaDevice::malloc(size_t bytes, const std::string& label) {
    ensureUsable();
    bind();
    CUdeviceptr p = 0;
    // cuMemAlloc rejects 0 bytes; a zero-sized buffer still needs a distinct address.
    CUresult r = api_->cuMemAlloc(&p, std::max<size_t>(bytes, 1));
    if (r == CUDA_ERROR_OUT_OF_MEMORY)
        throw Error(Error::Kind::Device, "The GPU " + name_ + " is out of memory allocating " +
                                             std::to_string(bytes) + " bytes for '" + label + "'.");
    check(r, "cuMemAlloc");
    allocations_[p] = Allocation{bytes, label};
    return p;
}

void CudaDevice::free(DevPtr ptr) {
    ensureUsable();
    auto it = allocations_.find(ptr);
    if (it == allocations_.end())
        throw Error(Error::Kind::Input,
                    "free(" + hex(ptr) + "): that address is not the start of a live GPU allocation.");
    bind();
    CUresult r = api_->cuMemFree(ptr);
    allocations_.erase(it);
    check(r, "cuMemFree");
}

void CudaDevice::memcpyHtoD(DevPtr dst, const void* src, size_t bytes) {
    ensureUsable();
    if (bytes == 0) return;
    checkRange(dst, bytes, "Host-to-device copy");
    bind();
    check(api_->cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD");
}

void CudaDevice::memcpyDtoH(void* dst, DevPtr src, size_t bytes) {
    ensureUsable();
    if (bytes == 0) return;
    checkRange(src, bytes, "Device-to-host copy");
    bind();
    check(api_->cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH");
}

void CudaDevice::memcpyDtoD(DevPtr dst, DevPtr src, size_t bytes) {
    ensureUsable();
    if (bytes == 0) return;
    checkRange(src, bytes, "Device-to-device copy (source)");
    checkRange(dst, bytes, "Device-to-device copy (destination)");
    bind();
    check(api_->cuMemcpyDtoD(dst, src, bytes), "cuMemcpyDtoD");
    // Keep the interface synchronous, like the simulator.
    check(api_->cuCtxSynchronize(), "cuCtxSynchronize");
}

void CudaDevice::memset(DevPtr dst, uint8_t value, size_t bytes) {
    ensureUsable();
    if (bytes == 0) return;
    checkRange(dst, bytes, "memset");
    bind();
    check(api_->cuMemsetD8(dst, value, bytes), "cuMemsetD8");
    check(api_->cuCtxSynchronize(), "cuCtxSynchronize");
}

DevPtr CudaDevice::symbolAddress(const std::string& symbol, size_t* bytes) {
    ensureUsable();
    if (!module_) throw Error(Error::Kind::Input, "No PTX module is loaded, so there is no variable '" + symbol + "'.");
    bind();
    CUdeviceptr p = 0;
    size_t size = 0;
    CUresult r = api_->cuModuleGetGlobal(&p, &size, module_, symbol.c_str());
    if (r == CUDA_ERROR_NOT_FOUND)
        throw Error(Error::Kind::Input, "Module '" + moduleName_ + "' has no module-scope variable named '" +
                                            symbol + "'.");
    check(r, "cuModuleGetGlobal");
    if (bytes) *bytes = size;
    return p;
}

int CudaDevice::registersPerThread(const std::string& kernel) {
    ensureUsable();
    bind();
    if (!api_->cuFuncGetAttribute) return 0;
    int regs = 0;
    constexpr int kNumRegs = 4;   // CU_FUNC_ATTRIBUTE_NUM_REGS
    if (api_->cuFuncGetAttribute(&regs, kNumRegs, static_cast<CUfunction>(function(kernel))) != CUDA_SUCCESS) return 0;
    return regs;
}

void* CudaDevice::function(const std::string& kernel) {
    if (auto it = functions_.find(kernel); it != functions_.end()) return it->second;
    if (!module_) throw Error(Error::Kind::Input, "No PTX module is loaded, so kernel '" + kernel + "' cannot run.");
    CUfunction f = nullptr;
    CUresult r = api_->cuModuleGetFunction(&f, module_, kernel.c_str());
    if (r == CUDA_ERROR_NOT_FOUND)
        throw Error(Error::Kind::Input, "Module '" + moduleName_ + "' has no kernel named '" + kernel +
                                            "' (C++ kernels need extern \"C\" or their mangled name).");
    check(r, "cuModuleGetFunction");
    functions_[kernel] = f;
    return f;
}

namespace {
std::string describeConfig(const runtime::LaunchConfig& config) {
    const auto& g = config.grid;
    const auto& b = config.block;
    return "grid (" + std::to_string(g.x) + ", " + std::to_string(g.y) + ", " + std::to_string(g.z) + "), block (" +
           std::to_string(b.x) + ", " + std::to_string(b.y) + ", " + std::to_string(b.z) + "), " +
           std::to_string(config.dynamicSharedBytes) + " bytes of dynamic shared memory";
}
} // namespace

// Checks the parameters and issues the launch on `stream`; launch-time rejections throw.
void CudaDevice::enqueueKernel(void* stream, const std::string& kernel, const runtime::LaunchConfig& config,
                               const std::vector<runtime::ParamBytes>& params) {
    const DriverApi& api = *api_;
    CUfunction f = function(kernel);

    // The driver copies each parameter by the size the kernel declares, reading past a short
    // host buffer. Newer drivers tell us those sizes: check them instead of reading garbage.
    // Only the given indices are queried: asking past the last parameter is an API error that
    // compute-sanitizer reports (the host script already checked the count against the PTX).
    if (api.cuFuncGetParamInfo) {
        for (size_t i = 0; i < params.size(); ++i) {
            size_t offset = 0, size = 0;
            CUresult r = api.cuFuncGetParamInfo(f, i, &offset, &size);
            if (r != CUDA_SUCCESS)
                throw Error(Error::Kind::Input, "Kernel '" + kernel + "' takes " + std::to_string(i) +
                                                    " parameters but " + std::to_string(params.size()) +
                                                    " were given.");
            if (params[i].size() < size)
                throw Error(Error::Kind::Input, "Parameter " + std::to_string(i) + " of kernel '" + kernel +
                                                    "' is " + std::to_string(size) + " bytes but only " +
                                                    std::to_string(params[i].size()) + " were given.");
        }
    }

    std::vector<void*> kernelParams;
    kernelParams.reserve(params.size() + 1);
    for (const auto& p : params) kernelParams.push_back(const_cast<uint8_t*>(p.data()));
    kernelParams.push_back(nullptr);

    if (config.dynamicSharedBytes > kDefaultSharedLimit && api.cuFuncSetAttribute)
        check(api.cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                     int(config.dynamicSharedBytes)),
              "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");

    if (config.cooperative && !api.cuLaunchCooperativeKernel)
        throw Error(Error::Kind::Device, "The CUDA driver has no cuLaunchCooperativeKernel for the cooperative launch of '" + kernel + "'.",
                    siteOf(kernel));
    CUresult r = config.cooperative
                     ? api.cuLaunchCooperativeKernel(f, config.grid.x, config.grid.y, config.grid.z, config.block.x, config.block.y,
                                                     config.block.z, config.dynamicSharedBytes, stream, kernelParams.data())
                     : api.cuLaunchKernel(f, config.grid.x, config.grid.y, config.grid.z, config.block.x, config.block.y,
                                          config.block.z, config.dynamicSharedBytes, stream, kernelParams.data(), nullptr);
    if (r == CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE)
        throw Error(Error::Kind::Input, "The GPU rejected the cooperative launch of kernel '" + kernel + "' with " + describeConfig(config) +
                                            ": " + api.describe(r) + " (cudaErrorCooperativeLaunchTooLarge: the grid cannot be resident at once).",
                    siteOf(kernel));
    if (r == CUDA_ERROR_INVALID_VALUE || r == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
        throw Error(Error::Kind::Input, "The GPU rejected the launch of kernel '" + kernel + "' with " +
                                            describeConfig(config) + ": " + api.describe(r) + ".",
                    siteOf(kernel));
    if (r != CUDA_SUCCESS && !isStickyFault(r))
        throw Error(Error::Kind::Device, "Launching kernel '" + kernel + "' failed: " + api.describe(r) + ".",
                    siteOf(kernel));
    if (r != CUDA_SUCCESS) throwLaunchFailure(r, kernel);
}

void CudaDevice::throwLaunchFailure(int r, const std::string& kernel) {
    if (isStickyFault(r)) {
        markLost(r, kernel);
        throw Error(Error::Kind::Fault,
                    "Kernel '" + kernel + "' faulted on " + name_ + ": " + api_->describe(r) +
                        ". The hardware does not say which thread or address; run the same launch "
                        "on the simulator to find it. The GPU context is now unusable: reopen the "
                        "GPU device to continue.",
                    siteOf(kernel));
    }
    throw Error(Error::Kind::Device, "Kernel '" + kernel + "' did not complete on " + name_ + ": " +
                                         api_->describe(r) + ".",
                siteOf(kernel));
}

runtime::LaunchResult CudaDevice::launch(const std::string& kernel, const runtime::LaunchConfig& config,
                                         const std::vector<runtime::ParamBytes>& params) {
    ensureUsable();
    bind();
    if (captureStream_ >= 0) throw Error(Error::Kind::Input, "A synchronous launch is not allowed while a stream is being captured.");
    const DriverApi& api = *api_;
    runtime::TimelineOp op;
    op.kind = runtime::TimelineKind::Kernel;
    op.engine = runtime::TimelineEngine::Compute;
    op.label = kernel;
    size_t rec = beginRecord(op, 0, true);
    double h0 = hostNowUs();
    enqueueKernel(nullptr, kernel, config, params);
    hostOp(runtime::TimelineKind::HostCall, "cuLaunchKernel " + kernel, h0);
    endRecord(rec, 0);
    h0 = hostNowUs();
    CUresult r = api.cuEventSynchronize(records_[rec].after);
    if (r == CUDA_SUCCESS) r = api.cuCtxSynchronize();
    if (r != CUDA_SUCCESS) throwLaunchFailure(r, kernel);
    hostOp(runtime::TimelineKind::HostWait, "wait for " + kernel, h0);

    runtime::LaunchResult result;
    result.kernel = kernel;
    result.grid = config.grid;
    result.block = config.block;
    result.dynamicSharedBytes = config.dynamicSharedBytes;
    float ms = 0;
    if (api.cuEventElapsedTime(&ms, records_[rec].before, records_[rec].after) == CUDA_SUCCESS) result.elapsedMs = ms;
    if (steadyRepeats_ > 0) {
        result.firstLaunchMs = result.elapsedMs;
        result.elapsedMs = steadyStateMs(kernel, config, params);
    }
    return result;
}

namespace {
// Keeps one thread busy for a number of SM clock cycles: launched ahead of the timed launches so
// that they all queue up behind it and then run back to back, with no host in between.
constexpr const char* kSpinPtx = R"(.version 7.0
.target sm_75
.address_size 64
.visible .entry warpscope_spin(.param .u64 cycles)
{
    .reg .pred %p;
    .reg .b64 %rd<5>;
    ld.param.u64 %rd1, [cycles];
    mov.u64 %rd2, %clock64;
$L_spin:
    mov.u64 %rd3, %clock64;
    sub.s64 %rd4, %rd3, %rd2;
    setp.lt.s64 %p, %rd4, %rd1;
    @%p bra $L_spin;
    ret;
}
)";
} // namespace

double CudaDevice::steadyStateMs(const std::string& kernel, const runtime::LaunchConfig& config,
                                 const std::vector<runtime::ParamBytes>& params) {
    const DriverApi& api = *api_;
    const size_t n = static_cast<size_t>(steadyRepeats_);
    enqueueKernel(nullptr, kernel, config, params);   // warm-up: caches, TLBs, lazy loading
    if (!spinModule_) {
        CUmodule m = nullptr;
        check(api.cuModuleLoadDataEx(&m, kSpinPtx, 0, nullptr, nullptr), "cuModuleLoadDataEx (timing spin kernel)");
        spinModule_ = m;
        CUfunction f = nullptr;
        check(api.cuModuleGetFunction(&f, m, "warpscope_spin"), "cuModuleGetFunction (timing spin kernel)");
        spinFunction_ = f;
    }
    // The spin must outlast the host's time to queue the n launches (about 5 us each): 4 ms of
    // clocks at a boost clock of 2 GHz, longer if the GPU idles at a lower clock.
    unsigned long long cycles = 8'000'000ull + 200'000ull * n;
    void* spinArgs[] = {&cycles, nullptr};
    check(api.cuLaunchKernel(static_cast<CUfunction>(spinFunction_), 1, 1, 1, 1, 1, 1, 0, nullptr, spinArgs, nullptr),
          "cuLaunchKernel (timing spin kernel)");
    std::vector<void*> marks(n + 1);
    for (auto& e : marks) e = takeEvent();
    check(api.cuEventRecord(static_cast<CUevent>(marks[0]), nullptr), "cuEventRecord");
    for (size_t i = 0; i < n; ++i) {
        enqueueKernel(nullptr, kernel, config, params);
        check(api.cuEventRecord(static_cast<CUevent>(marks[i + 1]), nullptr), "cuEventRecord");
    }
    CUresult r = api.cuEventSynchronize(static_cast<CUevent>(marks[n]));
    if (r != CUDA_SUCCESS) throwLaunchFailure(r, kernel);
    std::vector<double> ms;
    for (size_t i = 0; i < n; ++i) {
        float m = 0;
        check(api.cuEventElapsedTime(&m, static_cast<CUevent>(marks[i]), static_cast<CUevent>(marks[i + 1])), "cuEventElapsedTime");
        ms.push_back(m);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

// ---------------------------------------------------------------------------------------------
// 5. Host runtime: host memory, streams, events, graphs, and the measured timeline
// ---------------------------------------------------------------------------------------------
double CudaDevice::hostNowUs() const {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - hostBase_).count();
}

void CudaDevice::hostOp(runtime::TimelineKind kind, const std::string& label, double startUs) {
    runtime::TimelineOp op;
    op.kind = kind;
    op.engine = runtime::TimelineEngine::Host;
    op.stream = -1;
    op.label = label;
    op.startUs = startUs;
    op.endUs = hostNowUs();
    hostOps_.push_back(op);
}

void* CudaDevice::takeEvent() {
    if (poolUsed_ < eventPool_.size()) return eventPool_[poolUsed_++];
    CUevent e = nullptr;
    check(api_->cuEventCreate(&e, CU_EVENT_DEFAULT), "cuEventCreate");
    eventPool_.push_back(e);
    ++poolUsed_;
    return e;
}

// Events come from a pool that lives as long as the device: creating events is slow enough
// (microseconds) to distort the timeline it measures.
size_t CudaDevice::beginRecord(runtime::TimelineOp op, int stream, bool always) {
    if (!baseEvent_) resetTimeline();
    if (!recordOps_ && !always) return SIZE_MAX;
    Record r;
    op.stream = stream;
    r.op = op;
    r.before = takeEvent();
    records_.push_back(r);
    check(api_->cuEventRecord(static_cast<CUevent>(r.before), static_cast<CUstream>(streamHandle(stream, "event"))), "cuEventRecord");
    return records_.size() - 1;
}

void CudaDevice::endRecord(size_t index, int stream) {
    if (index == SIZE_MAX) return;
    records_[index].after = takeEvent();
    check(api_->cuEventRecord(static_cast<CUevent>(records_[index].after), static_cast<CUstream>(streamHandle(stream, "event"))),
          "cuEventRecord");
}

void* CudaDevice::streamHandle(int stream, const char* what) const {
    if (stream < 0 || static_cast<size_t>(stream) >= streams_.size())
        throw Error(Error::Kind::Input, std::string(what) + ": stream " + std::to_string(stream) + " was never created.");
    return streams_[static_cast<size_t>(stream)];
}

void* CudaDevice::eventHandle(int event, const char* what) const {
    if (event < 0 || static_cast<size_t>(event) >= events_.size())
        throw Error(Error::Kind::Input, std::string(what) + ": event " + std::to_string(event) + " was never created.");
    return events_[static_cast<size_t>(event)];
}

void* CudaDevice::hostAlloc(size_t bytes, bool pinned) {
    ensureUsable();
    bind();
    void* p = nullptr;
    if (pinned) {
        CUresult r = api_->cuMemHostAlloc(&p, std::max<size_t>(bytes, 1), 0);
        if (r == CUDA_ERROR_OUT_OF_MEMORY)
            throw Error(Error::Kind::Device, "Cannot page-lock " + std::to_string(bytes) + " bytes of host memory.");
        check(r, "cuMemHostAlloc");
    } else {
        p = std::malloc(std::max<size_t>(bytes, 1));
        if (!p) throw Error(Error::Kind::Device, "Out of host memory allocating " + std::to_string(bytes) + " bytes.");
    }
    hostBlocks_[p] = pinned;
    return p;
}

void CudaDevice::hostFree(void* ptr) {
    if (!ptr) return;
    auto it = hostBlocks_.find(ptr);
    if (it == hostBlocks_.end()) throw Error(Error::Kind::Input, "hostFree: not a pointer from hostAlloc.");
    bind();
    if (it->second) api_->cuMemFreeHost(ptr);
    else std::free(ptr);
    hostBlocks_.erase(it);
}

int CudaDevice::createStream(bool nonBlocking) {
    ensureUsable();
    bind();
    CUstream s = nullptr;
    check(api_->cuStreamCreate(&s, nonBlocking ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT), "cuStreamCreate");
    streams_.push_back(s);
    return static_cast<int>(streams_.size()) - 1;
}

int CudaDevice::createEvent() {
    ensureUsable();
    bind();
    CUevent e = nullptr;
    check(api_->cuEventCreate(&e, CU_EVENT_DEFAULT), "cuEventCreate");
    events_.push_back(e);
    return static_cast<int>(events_.size()) - 1;
}

void CudaDevice::copyToDevice(DevPtr dst, const void* src, size_t bytes, int stream, bool hostSync, const std::string& label) {
    ensureUsable();
    checkRange(dst, bytes, "Host-to-device copy");
    copyAsync(runtime::TimelineKind::CopyHtoD, src, bytes, stream, hostSync, label, "cuMemcpyHtoDAsync",
              [&](CUstream s) { return api_->cuMemcpyHtoDAsync(dst, src, bytes, s); });
}

void CudaDevice::copyToHost(void* dst, DevPtr src, size_t bytes, int stream, bool hostSync, const std::string& label) {
    ensureUsable();
    checkRange(src, bytes, "Device-to-host copy");
    copyAsync(runtime::TimelineKind::CopyDtoH, dst, bytes, stream, hostSync, label, "cuMemcpyDtoHAsync",
              [&](CUstream s) { return api_->cuMemcpyDtoHAsync(dst, src, bytes, s); });
}

void CudaDevice::copyAsync(runtime::TimelineKind kind, const void* host, size_t bytes, int stream, bool hostSync, const std::string& label,
                           const char* call, const std::function<int(void*)>& copy) {
    const bool toDevice = kind == runtime::TimelineKind::CopyHtoD;
    bind();
    CUstream s = static_cast<CUstream>(streamHandle(stream, toDevice ? "copy to device" : "copy to host"));
    if (capturing(stream)) {
        check(copy(s), (std::string(call) + " (captured)").c_str());
        ++captureNodes_;
        return;
    }
    runtime::TimelineOp op;
    op.kind = kind;
    op.engine = toDevice ? runtime::TimelineEngine::CopyHtoD : runtime::TimelineEngine::CopyDtoH;
    op.label = label;
    op.bytes = bytes;
    auto hb = hostBlocks_.upper_bound(const_cast<void*>(host));
    op.pinned = hb != hostBlocks_.begin() && std::prev(hb)->second;
    size_t rec = beginRecord(op, stream);
    double h0 = hostNowUs();
    check(copy(s), call);
    hostOp(runtime::TimelineKind::HostCall, call + (" " + label), h0);
    endRecord(rec, stream);
    if (hostSync) synchronizeStream(stream);
}

runtime::LaunchResult CudaDevice::launchOn(int stream, const std::string& kernel, const runtime::LaunchConfig& config,
                                           const std::vector<runtime::ParamBytes>& params) {
    ensureUsable();
    bind();
    CUstream s = static_cast<CUstream>(streamHandle(stream, "launch"));
    runtime::LaunchResult result;
    result.kernel = kernel;
    result.grid = config.grid;
    result.block = config.block;
    result.dynamicSharedBytes = config.dynamicSharedBytes;
    if (capturing(stream)) {
        enqueueKernel(s, kernel, config, params);
        ++captureNodes_;
        return result;
    }
    runtime::TimelineOp op;
    op.kind = runtime::TimelineKind::Kernel;
    op.engine = runtime::TimelineEngine::Compute;
    op.label = kernel;
    size_t rec = beginRecord(op, stream);
    double h0 = hostNowUs();
    enqueueKernel(s, kernel, config, params);
    hostOp(runtime::TimelineKind::HostCall, "cuLaunchKernel " + kernel, h0);
    endRecord(rec, stream);
    return result;
}

void CudaDevice::recordEvent(int event, int stream) {
    ensureUsable();
    bind();
    if (capturing(stream)) throw Error(Error::Kind::Input, "Events inside a captured graph are not supported yet.");
    check(api_->cuEventRecord(static_cast<CUevent>(eventHandle(event, "event record")),
                              static_cast<CUstream>(streamHandle(stream, "event record"))),
          "cuEventRecord");
}

void CudaDevice::streamWaitEvent(int stream, int event) {
    ensureUsable();
    bind();
    if (capturing(stream)) throw Error(Error::Kind::Input, "Events inside a captured graph are not supported yet.");
    check(api_->cuStreamWaitEvent(static_cast<CUstream>(streamHandle(stream, "stream wait")),
                                  static_cast<CUevent>(eventHandle(event, "stream wait")), 0),
          "cuStreamWaitEvent");
}

void CudaDevice::hostWait(const char* call, const std::string& label, const std::function<int()>& wait) {
    ensureUsable();
    bind();
    const double h0 = hostNowUs();
    const CUresult r = wait();
    if (r != CUDA_SUCCESS && isStickyFault(r)) markLost(r, "(an earlier launch)");
    check(r, call);
    if (!label.empty()) hostOp(runtime::TimelineKind::HostWait, label, h0);
}

void CudaDevice::synchronizeStream(int stream) {
    hostWait("cuStreamSynchronize", "wait for stream " + std::to_string(stream),
             [&] { return api_->cuStreamSynchronize(static_cast<CUstream>(streamHandle(stream, "stream synchronize"))); });
}

void CudaDevice::synchronizeEvent(int event) {
    hostWait("cuEventSynchronize", "wait for event " + std::to_string(event),
             [&] { return api_->cuEventSynchronize(static_cast<CUevent>(eventHandle(event, "event synchronize"))); });
}

double CudaDevice::eventElapsedMs(int from, int to) {
    ensureUsable();
    bind();
    float ms = 0;
    check(api_->cuEventElapsedTime(&ms, static_cast<CUevent>(eventHandle(from, "elapsed time")),
                                   static_cast<CUevent>(eventHandle(to, "elapsed time"))),
          "cuEventElapsedTime");
    return ms;
}

void CudaDevice::beginCapture(int stream) {
    ensureUsable();
    bind();
    if (!api_->cuStreamBeginCapture || !api_->cuGraphInstantiateWithFlags || !api_->cuGraphLaunch)
        throw Error(Error::Kind::Device, "This NVIDIA driver has no CUDA graph support (CUDA 11.4 or later is needed).");
    if (stream == 0) throw Error(Error::Kind::Input, "The legacy default stream cannot be captured; capture a created stream.");
    if (captureStream_ >= 0) throw Error(Error::Kind::Input, "Stream " + std::to_string(captureStream_) + " is already being captured.");
    check(api_->cuStreamBeginCapture(static_cast<CUstream>(streamHandle(stream, "begin capture")), CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
          "cuStreamBeginCapture");
    captureStream_ = stream;
    captureNodes_ = 0;
}

int CudaDevice::endCapture(int stream) {
    ensureUsable();
    bind();
    if (captureStream_ != stream) throw Error(Error::Kind::Input, "Stream " + std::to_string(stream) + " is not being captured.");
    captureStream_ = -1;
    CUgraph g = nullptr;
    check(api_->cuStreamEndCapture(static_cast<CUstream>(streamHandle(stream, "end capture")), &g), "cuStreamEndCapture");
    graphs_.push_back(g);
    CUgraphExec ge = nullptr;
    check(api_->cuGraphInstantiateWithFlags(&ge, g, 0), "cuGraphInstantiateWithFlags");
    graphExecs_.push_back(ge);
    graphNodes_.push_back(captureNodes_);
    return static_cast<int>(graphExecs_.size()) - 1;
}

void CudaDevice::launchGraph(int graph, int stream) {
    ensureUsable();
    bind();
    if (graph < 0 || static_cast<size_t>(graph) >= graphExecs_.size()) throw Error(Error::Kind::Input, "Graph " + std::to_string(graph) + " does not exist.");
    CUstream s = static_cast<CUstream>(streamHandle(stream, "graph launch"));
    runtime::TimelineOp op;
    op.kind = runtime::TimelineKind::Kernel;   // the nodes are not timed one by one on hardware
    op.engine = runtime::TimelineEngine::Compute;
    op.inGraph = true;
    op.label = "graph " + std::to_string(graph) + " (" + std::to_string(graphNodes_[static_cast<size_t>(graph)]) + " nodes)";
    size_t rec = beginRecord(op, stream);
    double h0 = hostNowUs();
    check(api_->cuGraphLaunch(static_cast<CUgraphExec>(graphExecs_[static_cast<size_t>(graph)]), s), "cuGraphLaunch");
    hostOp(runtime::TimelineKind::HostCall, "cuGraphLaunch", h0);
    endRecord(rec, stream);
}

void CudaDevice::resetTimeline() {
    ensureUsable();
    bind();
    api_->cuCtxSynchronize();
    records_.clear();
    poolUsed_ = 0;
    hostOps_.clear();
    if (!baseEvent_) {
        CUevent e = nullptr;
        check(api_->cuEventCreate(&e, CU_EVENT_DEFAULT), "cuEventCreate");
        baseEvent_ = e;
    }
    hostBase_ = std::chrono::steady_clock::now();
    check(api_->cuEventRecord(static_cast<CUevent>(baseEvent_), nullptr), "cuEventRecord");
}

runtime::Timeline CudaDevice::timeline() {
    runtime::Timeline t;
    t.measured = true;
    t.source = "measured: " + name_;
    if (!baseEvent_) return t;
    ensureUsable();
    bind();
    check(api_->cuCtxSynchronize(), "cuCtxSynchronize");
    for (auto& r : records_) {
        if (!r.before || !r.after) continue;
        float a = 0, b = 0;
        check(api_->cuEventElapsedTime(&a, static_cast<CUevent>(baseEvent_), static_cast<CUevent>(r.before)), "cuEventElapsedTime");
        check(api_->cuEventElapsedTime(&b, static_cast<CUevent>(baseEvent_), static_cast<CUevent>(r.after)), "cuEventElapsedTime");
        runtime::TimelineOp op = r.op;
        op.startUs = a * 1000.0;
        op.endUs = std::max(b, a) * 1000.0;
        t.ops.push_back(op);
    }
    // The event before an operation fires when its stream reaches it; a copy may then still wait
    // for its engine. Copy engines work one copy at a time, so a copy starts no earlier than the
    // previous copy on the same engine ended.
    for (auto engine : {runtime::TimelineEngine::CopyHtoD, runtime::TimelineEngine::CopyDtoH}) {
        std::vector<runtime::TimelineOp*> lane;
        for (auto& op : t.ops)
            if (op.engine == engine) lane.push_back(&op);
        std::sort(lane.begin(), lane.end(), [](auto* x, auto* y) { return x->endUs < y->endUs; });
        for (size_t i = 1; i < lane.size(); ++i) lane[i]->startUs = std::min(lane[i]->endUs, std::max(lane[i]->startUs, lane[i - 1]->endUs));
    }
    int launch = 0;
    for (auto& op : t.ops)
        if (op.kind == runtime::TimelineKind::Kernel && !op.inGraph) op.launchIndex = launch++;
    t.ops.insert(t.ops.end(), hostOps_.begin(), hostOps_.end());
    // Time zero is the program's first operation, as in the model (the moments between the
    // reset and the first call belong to the harness, not to the program).
    double t0 = 0;
    bool first = true;
    for (auto& op : t.ops)
        if (first || op.startUs < t0) {
            t0 = op.startUs;
            first = false;
        }
    for (auto& op : t.ops) {
        op.startUs -= t0;
        op.endUs -= t0;
    }
    return t;
}

void CudaDevice::releaseRuntime() {
    const DriverApi& api = *api_;
    records_.clear();
    for (auto e : eventPool_) api.cuEventDestroy(e);
    eventPool_.clear();
    poolUsed_ = 0;
    if (baseEvent_) api.cuEventDestroy(baseEvent_);
    baseEvent_ = nullptr;
    for (auto e : events_) api.cuEventDestroy(e);
    events_.clear();
    for (auto g : graphExecs_)
        if (api.cuGraphExecDestroy) api.cuGraphExecDestroy(g);
    for (auto g : graphs_)
        if (api.cuGraphDestroy) api.cuGraphDestroy(g);
    graphExecs_.clear();
    graphs_.clear();
    for (size_t i = 1; i < streams_.size(); ++i) api.cuStreamDestroy(streams_[i]);
    streams_.resize(1);
    for (auto& [p, pinned] : hostBlocks_) {
        if (pinned) api.cuMemFreeHost(p);
        else std::free(p);
    }
    hostBlocks_.clear();
}

void CudaDevice::synchronize() {
    // Timed only while the timeline is being recorded (it has a base event).
    hostWait("cuCtxSynchronize", baseEvent_ ? "cuCtxSynchronize" : "", [&] { return api_->cuCtxSynchronize(); });
}

} // namespace warpscope::hw
