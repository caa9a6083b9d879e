// CudaDevice against a real GPU through the CUDA driver API. Without a driver or GPU this checks
// that opening fails with a readable Error(Kind::Device) and skips the rest with a warning.
// The fault test comes last: an illegal address poisons the CUDA context for the process.
#include "hw/cuda_device.hpp"
#include "hw/cupti_counters.hpp"
#include "base/error.hpp"
#include "runtime/lesson.hpp"
#include "runtime/sim_device.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

using warpscope::Error;
using namespace warpscope::runtime;
using warpscope::hw::cudaAvailability;
using warpscope::hw::openCudaDevice;

namespace {

// nvcc -ptx -arch=compute_75 of:
//   extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n)
//       { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) c[i] = a[i] + b[i]; }
//   extern "C" __global__ void poke(int* p, long long offset) { p[offset + threadIdx.x] = 1; }
//   __constant__ int scale = 3;
//   extern "C" __global__ void scaled(int* out) { out[threadIdx.x] = scale * threadIdx.x; }
const char* kPtx = R"PTX(
.version 9.0
.target sm_75
.address_size 64

	// .globl	vadd
.const .align 4 .u32 scale = 3;

.visible .entry vadd(
	.param .u64 vadd_param_0,
	.param .u64 vadd_param_1,
	.param .u64 vadd_param_2,
	.param .u32 vadd_param_3
)
{
	.reg .pred 	%p<2>;
	.reg .f32 	%f<4>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<11>;


	ld.param.u64 	%rd1, [vadd_param_0];
	ld.param.u64 	%rd2, [vadd_param_1];
	ld.param.u64 	%rd3, [vadd_param_2];
	ld.param.u32 	%r2, [vadd_param_3];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB0_2;

	cvta.to.global.u64 	%rd4, %rd1;
	mul.wide.s32 	%rd5, %r1, 4;
	add.s64 	%rd6, %rd4, %rd5;
	cvta.to.global.u64 	%rd7, %rd2;
	add.s64 	%rd8, %rd7, %rd5;
	ld.global.f32 	%f1, [%rd8];
	ld.global.f32 	%f2, [%rd6];
	add.f32 	%f3, %f2, %f1;
	cvta.to.global.u64 	%rd9, %rd3;
	add.s64 	%rd10, %rd9, %rd5;
	st.global.f32 	[%rd10], %f3;

$L__BB0_2:
	ret;

}
	// .globl	poke
.visible .entry poke(
	.param .u64 poke_param_0,
	.param .u64 poke_param_1
)
{
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<8>;


	ld.param.u64 	%rd1, [poke_param_0];
	ld.param.u64 	%rd2, [poke_param_1];
	cvta.to.global.u64 	%rd3, %rd1;
	mov.u32 	%r1, %tid.x;
	cvt.u64.u32 	%rd4, %r1;
	add.s64 	%rd5, %rd4, %rd2;
	shl.b64 	%rd6, %rd5, 2;
	add.s64 	%rd7, %rd3, %rd6;
	mov.u32 	%r2, 1;
	st.global.u32 	[%rd7], %r2;
	ret;

}
	// .globl	scaled
.visible .entry scaled(
	.param .u64 scaled_param_0
)
{
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<5>;


	ld.param.u64 	%rd1, [scaled_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	ld.const.u32 	%r1, [scale];
	mov.u32 	%r2, %tid.x;
	mul.lo.s32 	%r3, %r1, %r2;
	mul.wide.u32 	%rd3, %r2, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r3;
	ret;

}
)PTX";

// A typo in an opcode ("ad.f32"): the JIT must reject it and its log must say where.
std::string malformedPtx() {
    std::string s = kPtx;
    auto at = s.find("add.f32");
    s.replace(at, 7, "ad.f32");
    return s;
}

template <typename T>
ParamBytes param(T value) {
    ParamBytes b(sizeof(T));
    std::memcpy(b.data(), &value, sizeof(T));
    return b;
}

// nullptr when this machine has no usable GPU (the first test case warns about that once).
std::unique_ptr<Device> openOrSkip() {
    if (!cudaAvailability().empty()) return nullptr;
    return openCudaDevice(0);
}

LaunchConfig config1d(uint32_t grid, uint32_t block) {
    LaunchConfig c;
    c.grid.x = grid;
    c.block.x = block;
    return c;
}

void runVectorAdd(Device& dev) {
    const int n = 1000;
    std::vector<float> a(n), b(n), c(n, -1.0f);
    for (int i = 0; i < n; ++i) {
        a[i] = float(i) * 0.5f;
        b[i] = float(n - i) * 0.25f;
    }
    DevPtr da = dev.malloc(n * sizeof(float), "a");
    DevPtr db = dev.malloc(n * sizeof(float), "b");
    DevPtr dc = dev.malloc(n * sizeof(float), "c");
    dev.memcpyHtoD(da, a.data(), n * sizeof(float));
    dev.memcpyHtoD(db, b.data(), n * sizeof(float));
    dev.memset(dc, 0xff, n * sizeof(float));
    LaunchResult r = dev.launch("vadd", config1d((n + 255) / 256, 256),
                                {param(da), param(db), param(dc), param(int32_t(n))});
    CHECK(r.elapsedMs >= 0);
    dev.memcpyDtoH(c.data(), dc, n * sizeof(float));
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += c[i] != a[i] + b[i];
    CHECK(wrong == 0);
    dev.free(da);
    dev.free(db);
    dev.free(dc);
}

} // namespace

TEST_CASE("Without a GPU, opening one fails with a readable Device error", "[gpu]") {
    std::string why = cudaAvailability();
    if (why.empty()) {
        SUCCEED("a GPU is available; the no-GPU path is not exercised here");
        return;
    }
    INFO("cudaAvailability(): " << why);
    CHECK(why.size() > 20);
    CHECK(why.back() == '.');
    try {
        openCudaDevice(0);
        FAIL("openCudaDevice succeeded although cudaAvailability() said: " << why);
    } catch (const Error& e) {
        CHECK(e.kind() == Error::Kind::Device);
        std::string msg = e.what();
        CHECK(msg.size() > 20);
        CHECK((msg.find("NVIDIA") != std::string::npos || msg.find("GPU") != std::string::npos));
    }
    WARN("GPU tests skipped: " << why);
}

TEST_CASE("CudaDevice runs a PTX vector add", "[gpu]") {
    auto dev = openOrSkip();
    if (!dev) return;
    CHECK_FALSE(dev->isSimulator());
    CHECK_FALSE(dev->name().empty());
    dev->loadModule(kPtx, "test.ptx");
    runVectorAdd(*dev);
}

TEST_CASE("Steady-state timing (compare, time-compare): a median of queued launches, the first launch kept beside it", "[gpu]") {
    auto dev = openOrSkip();
    if (!dev) return;
    auto* cuda = dynamic_cast<warpscope::hw::CudaDevice*>(dev.get());
    REQUIRE(cuda);
    Lesson l = loadLesson(wst::sourcePath("lessons/vector-add"));
    std::map<std::string, std::string> params{{"N", "4194304"}};
    RunResult once = runLesson(l, resolveParams(l, params), *dev);
    REQUIRE_FALSE(once.launches.empty());
    CHECK(once.launches[0].firstLaunchMs == 0);   // without steady-state timing: the launch's own time
    cuda->setSteadyStateRepeats(warpscope::hw::CudaDevice::kSteadyStateRepeats);
    RunResult steady = runLesson(l, resolveParams(l, params), *dev);
    cuda->setSteadyStateRepeats(0);
    CHECK(steady.allChecksPassed());
    for (auto& launch : steady.launches) {
        CHECK(launch.elapsedMs > 0);
        CHECK(launch.firstLaunchMs > 0);
        // a 4 Mi-element add is tens of microseconds; queued launches cannot take a millisecond
        CHECK(launch.elapsedMs < 1.0);
    }
}

TEST_CASE("CudaDevice copies, sets and reads module variables", "[gpu]") {
    auto dev = openOrSkip();
    if (!dev) return;
    dev->loadModule(kPtx, "test.ptx");

    size_t bytes = 0;
    DevPtr scale = dev->symbolAddress("scale", &bytes);
    CHECK(bytes == 4);
    int32_t value = 0;
    dev->memcpyDtoH(&value, scale, 4);
    CHECK(value == 3);   // the initialiser in the PTX
    value = 5;
    dev->memcpyHtoD(scale, &value, 4);

    DevPtr out = dev->malloc(64 * 4, "out");
    DevPtr copy = dev->malloc(64 * 4, "copy");
    dev->launch("scaled", config1d(1, 64), {param(out)});
    dev->memcpyDtoD(copy, out, 64 * 4);
    std::vector<int32_t> host(64, 0);
    dev->memcpyDtoH(host.data(), copy, 64 * 4);
    for (int i = 0; i < 64; ++i) CHECK(host[i] == 5 * i);

    dev->memset(copy, 0x7f, 64 * 4);
    dev->memcpyDtoH(host.data(), copy, 64 * 4);
    CHECK(host[0] == 0x7f7f7f7f);
    CHECK(host[63] == 0x7f7f7f7f);

    // Host-side overruns of a known allocation are caught before the driver sees them.
    std::vector<int32_t> big(65, 0);
    CHECK_THROWS_AS(dev->memcpyHtoD(out, big.data(), 65 * 4), Error);
    CHECK_THROWS_AS(dev->symbolAddress("no_such_variable"), Error);
    dev->free(out);
    dev->free(copy);
    CHECK_THROWS_AS(dev->free(out), Error);
}

TEST_CASE("CudaDevice reports JIT errors with the log and unknown kernels clearly", "[gpu]") {
    auto dev = openOrSkip();
    if (!dev) return;
    try {
        dev->loadModule(malformedPtx(), "broken.ptx");
        FAIL("malformed PTX was accepted");
    } catch (const Error& e) {
        CHECK(e.kind() == Error::Kind::Device);
        std::string msg = e.what();
        INFO(msg);
        CHECK(msg.find("broken.ptx") != std::string::npos);
        CHECK(msg.find("JIT log") != std::string::npos);
        CHECK(msg.find("known instruction: 'ad'") != std::string::npos);   // ptxas names the bad opcode
    }
    // The device is still usable after a JIT error.
    dev->loadModule(kPtx, "test.ptx");
    try {
        dev->launch("vsub", config1d(1, 32), {});
        FAIL("an unknown kernel launched");
    } catch (const Error& e) {
        CHECK(e.kind() == Error::Kind::Input);
        CHECK(std::string(e.what()).find("vsub") != std::string::npos);
    }
    runVectorAdd(*dev);
}

// Keep last: a fault poisons the process's context until it is reset.
TEST_CASE("CudaDevice runs streams, events and graphs: same results as the simulator, a measured timeline", "[gpu]") {
    auto dev = openOrSkip();
    if (!dev) return;
    Lesson l = loadLesson(wst::sourcePath("lessons/streams-overlap"));
    for (auto params : std::vector<std::map<std::string, std::string>>{
             {{"N", "262144"}, {"STREAMS", "4"}}, {{"N", "262144"}, {"STREAMS", "2"}, {"PINNED", "0"}}, {{"MODE", "2"}, {"KERNELS", "20"}}}) {
        SimDevice sim;
        RunResult rs = runLesson(l, resolveParams(l, params), sim);
        RunResult rh = runLesson(l, resolveParams(l, params), *dev);
        CHECK(rh.allChecksPassed());
        CHECK(rs.buffers == rh.buffers);
        REQUIRE(rh.timeline.measured);
        size_t copies = 0, kernels = 0;
        for (auto& op : rh.timeline.ops) {
            CHECK(op.endUs >= op.startUs);
            copies += op.kind == TimelineKind::CopyHtoD || op.kind == TimelineKind::CopyDtoH;
            kernels += op.kind == TimelineKind::Kernel;
        }
        if (params.count("STREAMS")) {
            CHECK(copies == 2 * std::stoul(params["STREAMS"]));
            CHECK(kernels == std::stoul(params["STREAMS"]));
        } else {
            CHECK(kernels == 1);   // the graph launch, timed as one
        }
        CHECK(rh.timeline.totalUs() > 0);
    }
    // Events and elapsed time on the GPU.
    int s = dev->createStream(true);
    int a = dev->createEvent(), b = dev->createEvent();
    dev->recordEvent(a, s);
    dev->recordEvent(b, s);
    dev->synchronizeEvent(b);
    CHECK(dev->eventElapsedMs(a, b) >= 0);
    CHECK_THROWS_AS(dev->recordEvent(a, 99), Error);
}

// Before the fault test below: after an illegal address some drivers cannot open the GPU again
// in the same process.
TEST_CASE("CUPTI reads the vector add's global requests and sectors live, as the simulator counts them", "[gpu]") {
    std::string why = warpscope::hw::cuptiAvailability();
    auto dev = openOrSkip();
    if (!dev || !why.empty()) {
        WARN("CUPTI test skipped: " << (dev ? why : std::string("no GPU")));
        return;
    }
    dev->loadModule(kPtx, "test.ptx");
    const std::vector<std::string> metrics = {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                                              "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                              "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"};
    auto rows = warpscope::hw::profileWithCupti(dynamic_cast<warpscope::hw::CudaDevice&>(*dev), metrics,
                                                [&] { runVectorAdd(*dev); });
    REQUIRE(rows.size() == 1);
    // 1000 floats, 4 blocks of 256 threads: 31 full warps and one with 8 lanes inside the bounds
    // check load a and b (2 x 32 requests, 2 x 125 sectors) and store c (32 requests). The
    // simulator counts the same.
    CHECK(rows[0].at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 64);
    CHECK(rows[0].at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 250);
    CHECK(rows[0].at("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum") == 32);
}

TEST_CASE("CudaDevice turns an illegal address into a Fault and asks to be reopened", "[gpu]") {
    auto dev = openOrSkip();
    if (!dev) return;
    dev->loadModule(kPtx, "test.ptx");
    try {
        // p = nullptr: every lane stores to the first page, which is never mapped.
        dev->launch("poke", config1d(1, 32), {param(uint64_t(0)), param(int64_t(0))});
        FAIL("a store through a null pointer did not fault");
    } catch (const Error& e) {
        CHECK(e.kind() == Error::Kind::Fault);
        CHECK(e.site().kernel == "poke");
        CHECK(std::string(e.what()).find("poke") != std::string::npos);
    }
    auto* cuda = dynamic_cast<warpscope::hw::CudaDevice*>(dev.get());
    REQUIRE(cuda);
    CHECK(cuda->needsReopen());
    try {
        dev->malloc(16, "after");
        FAIL("the poisoned device accepted more work");
    } catch (const Error& e) {
        CHECK(e.kind() == Error::Kind::Device);
        CHECK(std::string(e.what()).find("eopen") != std::string::npos);
    }

    dev.reset();   // resets the primary context
    try {
        auto again = openCudaDevice(0);
        again->loadModule(kPtx, "test.ptx");
        runVectorAdd(*again);
    } catch (const Error& e) {
        WARN("Reopening the GPU after a fault failed (some drivers need a new process): " << e.what());
    }
}
