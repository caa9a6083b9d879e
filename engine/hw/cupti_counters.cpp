// CUPTI range-profiler client (see cupti_counters.hpp).
//
// Sections: 1. finding libcupti  2. the profiling session  3. without CUPTI headers
#include "hw/cupti_counters.hpp"

#include "hw/cuda_device.hpp"
#include "base/error.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <memory>
#include <mutex>

#ifdef WARPSCOPE_HAVE_CUPTI
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#endif

namespace warpscope::hw {

#ifdef WARPSCOPE_HAVE_CUPTI
// ---------------------------------------------------------------- 1. finding libcupti
namespace {
struct CuptiApi {
    void* handle = nullptr;
    std::string error;
#define WARPSCOPE_CUPTI_FNS(X)                                                                                      \
    X(cuptiGetResultString) X(cuptiProfilerInitialize) X(cuptiProfilerDeInitialize) X(cuptiDeviceGetChipName)      \
    X(cuptiProfilerGetCounterAvailability) X(cuptiProfilerHostInitialize) X(cuptiProfilerHostDeinitialize)          \
    X(cuptiProfilerHostConfigAddMetrics) X(cuptiProfilerHostGetConfigImageSize) X(cuptiProfilerHostGetConfigImage) \
    X(cuptiProfilerHostEvaluateToGpuValues) X(cuptiRangeProfilerEnable) X(cuptiRangeProfilerDisable)               \
    X(cuptiRangeProfilerGetCounterDataSize) X(cuptiRangeProfilerCounterDataImageInitialize)                        \
    X(cuptiRangeProfilerSetConfig) X(cuptiRangeProfilerStart) X(cuptiRangeProfilerStop)                            \
    X(cuptiRangeProfilerDecodeData) X(cuptiRangeProfilerGetCounterDataInfo)
#define WARPSCOPE_CUPTI_PTR(f) decltype(&::f) f = nullptr;
    WARPSCOPE_CUPTI_FNS(WARPSCOPE_CUPTI_PTR)
#undef WARPSCOPE_CUPTI_PTR
};

const CuptiApi& cupti() {
    static std::once_flag once;
    static CuptiApi api;
    std::call_once(once, [] {
        // $WARPSCOPE_CUPTI names the library; otherwise the toolkit's usual places, then the
        // loader's search path.
        std::vector<std::string> candidates;
        if (const char* env = std::getenv("WARPSCOPE_CUPTI"); env && *env) candidates.push_back(env);
        for (const char* p : {"/usr/local/cuda/extras/CUPTI/lib64/libcupti.so", "/usr/local/cuda/lib64/libcupti.so",
                              "/usr/local/cuda/lib/libcupti.so", "libcupti.so", "libcupti.so.13", "libcupti.so.12"})
            candidates.push_back(p);
        for (auto& c : candidates)
            if ((api.handle = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
        if (!api.handle) {
            api.error = "CUPTI (libcupti.so) was not found; set WARPSCOPE_CUPTI to its path";
            return;
        }
        std::string missing;
#define WARPSCOPE_CUPTI_BIND(f)                                                        \
    api.f = reinterpret_cast<decltype(api.f)>(dlsym(api.handle, #f));                   \
    if (!api.f) missing += std::string(missing.empty() ? "" : ", ") + #f;
        WARPSCOPE_CUPTI_FNS(WARPSCOPE_CUPTI_BIND)
#undef WARPSCOPE_CUPTI_BIND
        if (!missing.empty()) api.error = "this libcupti has no range profiler (missing " + missing + ")";
    });
    return api;
}

// A CUPTI parameter block: zeroed, with its size set (the library checks which fields exist).
template <class T>
T params(size_t structSize) {
    T p{};
    p.structSize = structSize;
    return p;
}

#define WARPSCOPE_CUPTI_PARAMS(T) params<T>(T##_STRUCT_SIZE)

// Runs a clean-up step when the session leaves its scope, by return or by exception.
template <class F>
struct AtExit {
    F f;
    ~AtExit() { f(); }
};
template <class F>
AtExit(F) -> AtExit<F>;

void check(const CuptiApi& api, CUptiResult r, const char* what) {
    if (r == CUPTI_SUCCESS) return;
    const char* text = nullptr;
    api.cuptiGetResultString(r, &text);
    throw Error(Error::Kind::Device, std::string("CUPTI ") + what + " failed: " + (text ? text : "unknown error") +
                                         ". Hardware counters can still be imported from `ncu --csv`.");
}
} // namespace

std::string cuptiAvailability() {
    const CuptiApi& api = cupti();
    return api.error.empty() ? "" : "Live hardware counters are unavailable: " + api.error + ".";
}

// ---------------------------------------------------------------- 2. the profiling session
std::vector<std::map<std::string, double>> profileWithCupti(CudaDevice& device, const std::vector<std::string>& metrics,
                                                            const std::function<void()>& work) {
    const CuptiApi& api = cupti();
    if (!api.error.empty()) throw Error(Error::Kind::Device, cuptiAvailability());
    device.makeCurrent();
    auto ctx = static_cast<CUcontext>(device.contextHandle());
    std::vector<const char*> names;
    for (auto& m : metrics) names.push_back(m.c_str());

    auto init = WARPSCOPE_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
    check(api, api.cuptiProfilerInitialize(&init), "initialisation");
    AtExit deinit{[&api] {
        auto p = WARPSCOPE_CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params);
        api.cuptiProfilerDeInitialize(&p);
    }};

    auto chip = WARPSCOPE_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
    chip.deviceIndex = static_cast<size_t>(device.ordinal());
    check(api, api.cuptiDeviceGetChipName(&chip), "chip name");

    auto avail = WARPSCOPE_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
    avail.ctx = ctx;
    check(api, api.cuptiProfilerGetCounterAvailability(&avail), "counter availability");
    std::vector<uint8_t> availImage(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = availImage.data();
    check(api, api.cuptiProfilerGetCounterAvailability(&avail), "counter availability");

    // Host side: which counters the metrics need, as a configuration image.
    auto host = WARPSCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
    host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    host.pChipName = chip.pChipName;
    host.pCounterAvailabilityImage = availImage.data();
    check(api, api.cuptiProfilerHostInitialize(&host), "host initialisation");
    AtExit hostDeinit{[&api, obj = host.pHostObject] {
        auto p = WARPSCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
        p.pHostObject = obj;
        api.cuptiProfilerHostDeinitialize(&p);
    }};
    auto add = WARPSCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
    add.pHostObject = host.pHostObject;
    add.ppMetricNames = names.data();
    add.numMetrics = names.size();
    check(api, api.cuptiProfilerHostConfigAddMetrics(&add), "adding the metrics");
    auto cfgSize = WARPSCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
    cfgSize.pHostObject = host.pHostObject;
    check(api, api.cuptiProfilerHostGetConfigImageSize(&cfgSize), "configuration size");
    std::vector<uint8_t> config(cfgSize.configImageSize);
    auto cfg = WARPSCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
    cfg.pHostObject = host.pHostObject;
    cfg.configImageSize = config.size();
    cfg.pConfigImage = config.data();
    check(api, api.cuptiProfilerHostGetConfigImage(&cfg), "configuration image");

    // Target side: one range per kernel launch, each replayed for every pass it needs.
    auto enable = WARPSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
    enable.ctx = ctx;
    check(api, api.cuptiRangeProfilerEnable(&enable), "enabling the range profiler");
    AtExit disable{[&api, obj = enable.pRangeProfilerObject] {
        auto p = WARPSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params);
        p.pRangeProfilerObject = obj;
        api.cuptiRangeProfilerDisable(&p);
    }};
    constexpr size_t kMaxRanges = 256;   // launches one profiled run may hold
    auto dataSize = WARPSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
    dataSize.pRangeProfilerObject = enable.pRangeProfilerObject;
    dataSize.pMetricNames = names.data();
    dataSize.numMetrics = names.size();
    dataSize.maxNumOfRanges = kMaxRanges;
    dataSize.maxNumRangeTreeNodes = kMaxRanges;
    check(api, api.cuptiRangeProfilerGetCounterDataSize(&dataSize), "counter data size");
    std::vector<uint8_t> data(dataSize.counterDataSize);
    auto dataInit = WARPSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
    dataInit.pRangeProfilerObject = enable.pRangeProfilerObject;
    dataInit.counterDataSize = data.size();
    dataInit.pCounterData = data.data();
    check(api, api.cuptiRangeProfilerCounterDataImageInitialize(&dataInit), "counter data image");
    auto set = WARPSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
    set.pRangeProfilerObject = enable.pRangeProfilerObject;
    set.configSize = config.size();
    set.pConfig = config.data();
    set.counterDataImageSize = data.size();
    set.pCounterDataImage = data.data();
    set.range = CUPTI_AutoRange;
    set.replayMode = CUPTI_KernelReplay;
    set.maxRangesPerPass = kMaxRanges;
    set.numNestingLevels = 1;
    set.minNestingLevel = 1;
    set.passIndex = 0;
    set.targetNestingLevel = 1;
    check(api, api.cuptiRangeProfilerSetConfig(&set), "configuration");
    auto start = WARPSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
    start.pRangeProfilerObject = enable.pRangeProfilerObject;
    check(api, api.cuptiRangeProfilerStart(&start), "start");
    work();
    device.makeCurrent();
    auto stop = WARPSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
    stop.pRangeProfilerObject = enable.pRangeProfilerObject;
    check(api, api.cuptiRangeProfilerStop(&stop), "stop");
    auto decode = WARPSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
    decode.pRangeProfilerObject = enable.pRangeProfilerObject;
    check(api, api.cuptiRangeProfilerDecodeData(&decode), "decoding");

    auto info = WARPSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
    info.pCounterDataImage = data.data();
    info.counterDataImageSize = data.size();
    check(api, api.cuptiRangeProfilerGetCounterDataInfo(&info), "reading the ranges");
    std::vector<std::map<std::string, double>> out;
    std::vector<double> values(names.size());
    for (size_t r = 0; r < info.numTotalRanges; ++r) {
        auto eval = WARPSCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
        eval.pHostObject = host.pHostObject;
        eval.pCounterDataImage = data.data();
        eval.counterDataImageSize = data.size();
        eval.rangeIndex = r;
        eval.ppMetricNames = names.data();
        eval.numMetrics = names.size();
        eval.pMetricValues = values.data();
        check(api, api.cuptiProfilerHostEvaluateToGpuValues(&eval), "evaluating the metrics");
        std::map<std::string, double> row;
        for (size_t k = 0; k < names.size(); ++k) row[metrics[k]] = values[k];
        out.push_back(std::move(row));
    }
    return out;
}

#else
// ---------------------------------------------------------------- 3. without CUPTI headers
std::string cuptiAvailability() {
    return "Live hardware counters are unavailable: this build found no CUPTI headers (build where the CUDA toolkit "
           "is installed to read them through CUPTI).";
}

std::vector<std::map<std::string, double>> profileWithCupti(CudaDevice&, const std::vector<std::string>&, const std::function<void()>&) {
    throw Error(Error::Kind::Device, cuptiAvailability());
}
#endif

} // namespace warpscope::hw
