// The pre-decoded whole-warp handlers (sim/predecode.hpp, sim/fast_exec.cpp) and the register
// files block admission leaves uncleared: results are bit-for-bit those of the general
// interpreter with every register file cleared.
//
// The reference run attaches a Step listener and turns initcheck on: a Step listener makes block
// admission clear every register file, and a checker keeps every instruction on the general path.
#include "support.hpp"

#include "base/error.hpp"
#include "mem/memory.hpp"
#include "ptx/parser.hpp"
#include "runtime/lesson.hpp"
#include "sim/gpu.hpp"
#include "sim/predecode.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

using namespace warpscope;
namespace fs = std::filesystem;

namespace {

// Every handler kind, with the edge values below: f32 add/sub/mul/fma (NaN, infinities,
// subnormals, -0), 32/64-bit add/sub, mul.lo/mad.lo/mul.wide, shifts, cvt, cvta, special
// registers, setp (every comparison, signed and unsigned, register and immediate), and/or/xor and
// selp on 32-bit values (registers and immediates), bar.sync, guarded instructions (the lanes
// whose guard is false keep their destination; so do the exited lanes of a partial warp), shared and
// global loads/stores of 4 and 8 bytes (addresses in 32- and 64-bit registers, values in registers
// and immediates) and .param loads; div.rn.f32 (overflow, underflow to subnormals, zeros,
// infinities, NaNs; the destination a source) and setp.f32 with every comparison, guarded and
// with two predicates, as clang writes them for `x / y` and `x < 0`. Threads past n exit at once
// (partial warps).
const char* kFastOps = R"PTX(
.version 7.0
.target sm_75
.address_size 64

.visible .entry fastops(
	.param .u64 fastops_a,
	.param .u64 fastops_b,
	.param .u64 fastops_out,
	.param .u32 fastops_n
)
{
	.reg .pred 	%p<16>;
	.reg .b32 	%r<64>;
	.reg .f32 	%f<16>;
	.reg .b64 	%rd<40>;
	.shared .align 8 .b8 sh[4096];

	ld.param.u64 	%rd1, [fastops_a];
	ld.param.u64 	%rd2, [fastops_b];
	ld.param.u64 	%rd3, [fastops_out];
	ld.param.u32 	%r60, [fastops_n];
	cvta.to.global.u64 	%rd4, %rd1;
	cvta.to.global.u64 	%rd5, %rd2;
	cvta.to.global.u64 	%rd6, %rd3;
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	mov.u32 	%r3, %tid.x;
	mad.lo.s32 	%r4, %r1, %r2, %r3;
	setp.ge.s32 	%p15, %r4, %r60;
	@%p15 exit;
	mul.wide.s32 	%rd7, %r4, 4;
	add.s64 	%rd8, %rd4, %rd7;
	add.s64 	%rd9, %rd5, %rd7;
	ld.global.u32 	%r5, [%rd8];
	ld.global.u32 	%r6, [%rd9];
	mov.b32 	%f1, %r5;
	mov.b32 	%f2, %r6;
	add.f32 	%f3, %f1, %f2;
	sub.f32 	%f4, %f1, %f2;
	mul.f32 	%f5, %f1, %f2;
	fma.rn.f32 	%f6, %f1, %f2, %f3;
	add.f32 	%f7, %f1, 0f3F800000;
	mul.f32 	%f8, %f2, 0fC0000000;
	add.s32 	%r7, %r5, %r6;
	sub.s32 	%r8, %r5, %r6;
	mul.lo.s32 	%r9, %r5, %r6;
	mad.lo.s32 	%r10, %r5, %r6, %r7;
	shl.b32 	%r11, %r5, 7;
	shr.u32 	%r12, %r5, 5;
	shr.s32 	%r13, %r5, 31;
	mul.wide.s32 	%rd10, %r5, %r6;
	mul.wide.u32 	%rd11, %r5, %r6;
	cvt.u64.u32 	%rd12, %r5;
	cvt.s64.s32 	%rd13, %r5;
	add.s64 	%rd14, %rd13, %rd11;
	sub.s64 	%rd15, %rd12, %rd10;
	mov.u32 	%r14, %laneid;
	mov.u32 	%r15, %nctaid.x;
	add.s32 	%r16, %r5, -7;
	mov.u64 	%rd16, %rd13;
	setp.eq.s32 	%p1, %r5, %r6;
	setp.ne.s32 	%p2, %r5, %r6;
	setp.lt.s32 	%p3, %r5, %r6;
	setp.le.s32 	%p4, %r5, %r6;
	setp.gt.s32 	%p5, %r5, %r6;
	setp.ge.s32 	%p6, %r5, %r6;
	setp.lo.u32 	%p7, %r5, %r6;
	setp.ls.u32 	%p8, %r5, %r6;
	setp.hi.u32 	%p9, %r5, %r6;
	setp.hs.u32 	%p10, %r5, %r6;
	setp.lt.s32 	%p11, %r5, 100;
	setp.gt.u32 	%p12, %r5, 100;
	selp.u32 	%r20, 1, 0, %p1;
	selp.u32 	%r21, 2, 0, %p2;
	selp.u32 	%r22, 4, 0, %p3;
	selp.u32 	%r23, 8, 0, %p4;
	selp.u32 	%r24, 16, 0, %p5;
	selp.u32 	%r25, 32, 0, %p6;
	selp.u32 	%r26, 64, 0, %p7;
	selp.u32 	%r27, 128, 0, %p8;
	selp.u32 	%r28, 256, 0, %p9;
	selp.u32 	%r29, 512, 0, %p10;
	selp.u32 	%r30, 1024, 0, %p11;
	selp.u32 	%r31, 2048, 0, %p12;
	or.b32 	%r32, %r20, %r21;
	or.b32 	%r32, %r32, %r22;
	or.b32 	%r32, %r32, %r23;
	or.b32 	%r32, %r32, %r24;
	or.b32 	%r32, %r32, %r25;
	or.b32 	%r32, %r32, %r26;
	or.b32 	%r32, %r32, %r27;
	or.b32 	%r32, %r32, %r28;
	or.b32 	%r32, %r32, %r29;
	or.b32 	%r32, %r32, %r30;
	or.b32 	%r32, %r32, %r31;
	mov.u32 	%r40, sh;
	shl.b32 	%r41, %r3, 2;
	add.s32 	%r42, %r40, %r41;
	st.shared.u32 	[%r42], %r7;
	shl.b32 	%r43, %r3, 3;
	add.s32 	%r44, %r40, %r43;
	st.shared.u64 	[%r44+1024], %rd10;
	bar.sync 	0;
	xor.b32 	%r45, %r3, 1;
	shl.b32 	%r46, %r45, 2;
	add.s32 	%r47, %r40, %r46;
	ld.shared.u32 	%r48, [%r47];
	shl.b32 	%r49, %r45, 3;
	add.s32 	%r50, %r40, %r49;
	ld.shared.u64 	%rd17, [%r50+1024];
	mul.wide.s32 	%rd20, %r4, 256;
	add.s64 	%rd21, %rd6, %rd20;
	st.global.f32 	[%rd21], %f3;
	st.global.f32 	[%rd21+4], %f4;
	st.global.f32 	[%rd21+8], %f5;
	st.global.f32 	[%rd21+12], %f6;
	st.global.f32 	[%rd21+16], %f7;
	st.global.f32 	[%rd21+20], %f8;
	st.global.u32 	[%rd21+24], %r7;
	st.global.u32 	[%rd21+28], %r8;
	st.global.u32 	[%rd21+32], %r9;
	st.global.u32 	[%rd21+36], %r10;
	st.global.u32 	[%rd21+40], %r11;
	st.global.u32 	[%rd21+44], %r12;
	st.global.u32 	[%rd21+48], %r13;
	st.global.u32 	[%rd21+52], %r14;
	st.global.u32 	[%rd21+56], %r15;
	st.global.u32 	[%rd21+60], %r16;
	st.global.u64 	[%rd21+64], %rd10;
	st.global.u64 	[%rd21+72], %rd11;
	st.global.u64 	[%rd21+80], %rd12;
	st.global.u64 	[%rd21+88], %rd13;
	st.global.u64 	[%rd21+96], %rd14;
	st.global.u64 	[%rd21+104], %rd15;
	st.global.u64 	[%rd21+112], %rd16;
	st.global.u32 	[%rd21+120], %r32;
	st.global.u32 	[%rd21+124], %r48;
	st.global.u64 	[%rd21+128], %rd17;
	st.global.u32 	[%rd21+136], %r3;
	st.global.u32 	[%rd21+140], 12345;
	cvt.u64.u32 	%rd30, %r47;
	ld.shared.u32 	%r51, [%rd30];
	st.global.u32 	[%rd21+144], %r51;
	cvt.u64.u32 	%rd31, %r44;
	st.shared.u64 	[%rd31+2048], -3;
	ld.shared.u64 	%rd32, [%rd31+2048];
	st.global.u64 	[%rd21+152], %rd32;
	st.global.f32 	[%rd21+160], 0f3FC00000;
	and.b32 	%r52, %r5, %r6;
	and.b32 	%r53, %r5, 16711935;
	xor.b32 	%r54, %r5, %r6;
	or.b32 	%r55, %r6, -16;
	selp.b32 	%r56, %r5, %r6, %p3;
	selp.b32 	%r57, %r6, -5, %p12;
	st.global.u32 	[%rd21+164], %r52;
	st.global.u32 	[%rd21+168], %r53;
	st.global.u32 	[%rd21+172], %r54;
	st.global.u32 	[%rd21+176], %r55;
	st.global.u32 	[%rd21+180], %r56;
	st.global.u32 	[%rd21+184], %r57;
	@%p3 add.s32 	%r58, %r5, %r6;
	@!%p5 mul.f32 	%f9, %f1, %f2;
	@%p12 setp.lt.u32 	%p13, %r5, %r6;
	@%p2 mul.wide.u32 	%rd18, %r5, %r6;
	@%p4 and.b32 	%r57, %r57, %r3;
	selp.u32 	%r59, 1, 0, %p13;
	st.global.u32 	[%rd21+188], %r58;
	st.global.f32 	[%rd21+192], %f9;
	st.global.u32 	[%rd21+196], %r59;
	st.global.u64 	[%rd21+200], %rd18;
	st.global.u32 	[%rd21+208], %r57;
	div.rn.f32 	%f10, %f1, %f2;
	div.rn.f32 	%f11, %f2, 0f40400000;
	@%p3 div.rn.f32 	%f12, %f2, %f1;
	st.global.f32 	[%rd21+212], %f10;
	st.global.f32 	[%rd21+216], %f11;
	st.global.f32 	[%rd21+220], %f12;
	setp.eq.f32 	%p1, %f1, %f2;
	setp.ne.f32 	%p2, %f1, %f2;
	setp.lt.f32 	%p3, %f1, %f2;
	setp.le.f32 	%p4, %f1, %f2;
	setp.gt.f32 	%p5, %f1, %f2;
	setp.ge.f32 	%p6, %f1, %f2;
	setp.equ.f32 	%p7, %f1, %f2;
	setp.neu.f32 	%p8, %f1, %f2;
	setp.ltu.f32 	%p9, %f1, %f2;
	setp.leu.f32 	%p10, %f1, %f2;
	setp.gtu.f32 	%p11, %f1, %f2;
	setp.geu.f32 	%p12, %f1, %f2;
	setp.num.f32 	%p13, %f1, %f2;
	setp.nan.f32 	%p14, %f1, %f2;
	selp.u32 	%r20, 1, 0, %p1;
	selp.u32 	%r21, 2, 0, %p2;
	selp.u32 	%r22, 4, 0, %p3;
	selp.u32 	%r23, 8, 0, %p4;
	selp.u32 	%r24, 16, 0, %p5;
	selp.u32 	%r25, 32, 0, %p6;
	selp.u32 	%r26, 64, 0, %p7;
	selp.u32 	%r27, 128, 0, %p8;
	selp.u32 	%r28, 256, 0, %p9;
	selp.u32 	%r29, 512, 0, %p10;
	selp.u32 	%r30, 1024, 0, %p11;
	selp.u32 	%r31, 2048, 0, %p12;
	selp.u32 	%r33, 4096, 0, %p13;
	selp.u32 	%r34, 8192, 0, %p14;
	or.b32 	%r32, %r20, %r21;
	or.b32 	%r32, %r32, %r22;
	or.b32 	%r32, %r32, %r23;
	or.b32 	%r32, %r32, %r24;
	or.b32 	%r32, %r32, %r25;
	or.b32 	%r32, %r32, %r26;
	or.b32 	%r32, %r32, %r27;
	or.b32 	%r32, %r32, %r28;
	or.b32 	%r32, %r32, %r29;
	or.b32 	%r32, %r32, %r30;
	or.b32 	%r32, %r32, %r31;
	or.b32 	%r32, %r32, %r33;
	or.b32 	%r32, %r32, %r34;
	st.global.u32 	[%rd21+224], %r32;
	setp.lt.f32 	%p1, %f10, 0f00000000;
	@%p5 setp.gtu.f32 	%p1|%p2, %f1, 0f3F800000;
	selp.u32 	%r35, 1, 0, %p1;
	selp.u32 	%r36, 2, 0, %p2;
	or.b32 	%r35, %r35, %r36;
	st.global.u32 	[%rd21+228], %r35;
	div.rn.f32 	%f1, %f1, %f1;
	st.global.f32 	[%rd21+232], %f1;
$L_done:
	ret;
}

// Loads and stores whose lanes come in runs of 8 consecutive words, or 8 lanes on one word, or
// neither (the AVX2 handlers take one plain load or store for such a run): out holds 8 regions of
// one word per thread i. Regions 0-5: a[i], a[i & ~7], a[i ^ 1], a[0], and through shared memory
// the word of lane t & ~7 and the value the lanes of t's run of 8 all stored to one word (the
// last lane's); region 6: out[6n + (i & ~7)] = i, stored by 8 lanes at once (the last wins);
// region 7: out[7n + (i ^ 1)] = a[i] (pairs swapped).
.visible .entry lane_runs(
	.param .u64 lane_runs_a,
	.param .u64 lane_runs_out
)
{
	.reg .b32 	%r<40>;
	.reg .b64 	%rd<40>;
	.shared .align 4 .b8 runs_sh[1024];

	ld.param.u64 	%rd1, [lane_runs_a];
	ld.param.u64 	%rd2, [lane_runs_out];
	cvta.to.global.u64 	%rd3, %rd1;
	cvta.to.global.u64 	%rd4, %rd2;
	mov.u32 	%r1, %tid.x;
	mov.u32 	%r2, %ctaid.x;
	mov.u32 	%r3, %ntid.x;
	mov.u32 	%r30, %nctaid.x;
	mul.lo.s32 	%r31, %r30, %r3;
	mul.wide.u32 	%rd30, %r31, 4;
	mad.lo.s32 	%r4, %r2, %r3, %r1;
	mul.wide.u32 	%rd5, %r4, 4;
	add.s64 	%rd6, %rd3, %rd5;
	ld.global.u32 	%r5, [%rd6];
	and.b32 	%r6, %r4, -8;
	mul.wide.u32 	%rd7, %r6, 4;
	add.s64 	%rd8, %rd3, %rd7;
	ld.global.u32 	%r7, [%rd8];
	xor.b32 	%r8, %r4, 1;
	mul.wide.u32 	%rd9, %r8, 4;
	add.s64 	%rd10, %rd3, %rd9;
	ld.global.u32 	%r9, [%rd10];
	ld.global.u32 	%r10, [%rd3];
	mov.u32 	%r11, runs_sh;
	shl.b32 	%r12, %r1, 2;
	add.s32 	%r13, %r11, %r12;
	st.shared.u32 	[%r13], %r5;
	and.b32 	%r14, %r1, -8;
	shl.b32 	%r15, %r14, 2;
	add.s32 	%r16, %r11, %r15;
	st.shared.u32 	[%r16+512], %r1;
	bar.sync 	0;
	ld.shared.u32 	%r17, [%r16];
	ld.shared.u32 	%r18, [%r16+512];
	add.s64 	%rd11, %rd4, %rd5;
	st.global.u32 	[%rd11], %r5;
	add.s64 	%rd12, %rd11, %rd30;
	st.global.u32 	[%rd12], %r7;
	add.s64 	%rd13, %rd12, %rd30;
	st.global.u32 	[%rd13], %r9;
	add.s64 	%rd14, %rd13, %rd30;
	st.global.u32 	[%rd14], %r10;
	add.s64 	%rd15, %rd14, %rd30;
	st.global.u32 	[%rd15], %r17;
	add.s64 	%rd16, %rd15, %rd30;
	st.global.u32 	[%rd16], %r18;
	add.s64 	%rd17, %rd16, %rd30;
	sub.s64 	%rd18, %rd17, %rd5;
	add.s64 	%rd19, %rd18, %rd7;
	st.global.u32 	[%rd19], %r4;
	add.s64 	%rd20, %rd18, %rd30;
	add.s64 	%rd21, %rd20, %rd9;
	st.global.u32 	[%rd21], %r5;
	ret;
}

// A register that only some blocks write (even blocks), then every thread stores it: odd
// blocks must read zero even when their register file held an even block's values before.
// %r9 is always written first. %r20 is a shfl source, read from lanes that never wrote it.
.visible .entry partial_writes(
	.param .u64 partial_writes_out
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<24>;
	.reg .b64 	%rd<8>;

	ld.param.u64 	%rd1, [partial_writes_out];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %tid.x;
	mov.u32 	%r3, %ntid.x;
	mad.lo.s32 	%r4, %r1, %r3, %r2;
	and.b32 	%r5, %r1, 1;
	setp.eq.s32 	%p1, %r5, 0;
	add.s32 	%r9, %r1, 1;
	@%p1 mov.u32 	%r6, %r9;
	setp.lt.u32 	%p2, %r2, 16;
	@%p2 mov.u32 	%r20, %r9;
	shfl.sync.idx.b32 	%r21, %r20, 20, 31, -1;
	mul.wide.s32 	%rd3, %r4, 8;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r6;
	st.global.u32 	[%rd4+4], %r21;
	ret;
}

// Packed register files (packRegisters): a guarded write keeps the old value in the lanes whose
// guard is false, so %r2's first value stays live across the registers written before it
// (%r3, %r4, %r5 must not take its slot). A value made before a divergent if/else and read
// after it (%r6) must survive what either side writes (%r7, %r8).
.visible .entry guarded_keep(
	.param .u64 guarded_keep_out
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<16>;
	.reg .b64 	%rd<8>;

	ld.param.u64 	%rd1, [guarded_keep_out];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	add.s32 	%r2, %r1, 1000;
	and.b32 	%r3, %r1, 1;
	setp.eq.s32 	%p1, %r3, 0;
	add.s32 	%r4, %r1, 7;
	mul.lo.s32 	%r5, %r4, 5;
	@%p1 mov.u32 	%r2, %r5;
	mul.lo.s32 	%r6, %r1, 3;
	setp.lt.u32 	%p2, %r1, 40;
	@%p2 bra 	$L_low;
	add.s32 	%r7, %r1, 11;
	bra.uni 	$L_join;
$L_low:
	add.s32 	%r8, %r1, 22;
	mov.u32 	%r7, %r8;
$L_join:
	add.s32 	%r9, %r6, %r7;
	mul.wide.u32 	%rd3, %r1, 8;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r2;
	st.global.u32 	[%rd4+4], %r9;
	ret;
}
)PTX";

// A Step listener that records nothing: attached, it keeps the run on the general path.
struct Watch : sim::StepListener {
    uint64_t steps = 0;
    void onStep(const sim::Step&) override { ++steps; }
};

// Folds every memory Step into one hash: the warp, pc, space, width, kind, masks and each
// executing lane's address (a lesson issues millions of them: too many to keep).
struct MemoryStepHash : sim::StepListener {
    uint64_t memorySteps = 0, hash = 1469598103934665603ull;
    void mix(uint64_t v) {
        hash ^= v;
        hash *= 1099511628211ull;
    }
    void onStep(const sim::Step& s) override {
        if (!(s.isLoad || s.isStore || s.isAtomic) && !s.addresses) return;
        ++memorySteps;
        mix(s.index);
        mix(s.warp);
        mix(uint64_t(s.pc));
        mix(uint64_t(s.space) << 32 | uint64_t(s.accessBytes) << 8 | uint64_t(s.isLoad) << 2 | uint64_t(s.isStore) << 1 | s.isAtomic);
        mix(uint64_t(s.activeMask) << 32 | s.execMask);
        if (s.addresses)
            for (uint32_t m = s.execMask; m; m &= m - 1) mix(s.addresses[std::countr_zero(m)]);
    }
};

struct RunResult {
    std::vector<uint8_t> out;
    sim::LaunchStats stats;
};

// Runs `kernel` of kFastOps: `reference` = a Step listener and initcheck (general path, cleared
// register files); otherwise the lean path with no listener.
RunResult runKernel(const std::string& kernel, uint32_t grid, uint32_t block, const std::vector<uint32_t>& a,
                    const std::vector<uint32_t>& b, size_t outBytes, uint32_t n, bool reference, uint32_t resident = 2,
                    bool baseline = false) {
    ptx::Module m = ptx::parse(kFastOps, "fastops.ptx");
    sim::Program prog = sim::compile(m, kernel, {});
    mem::GlobalMemory mem;
    if (reference) mem.setTrackInit(true);
    std::vector<base::ParamBytes> params;
    auto buffer = [&](const std::vector<uint32_t>& v) {
        const uint64_t p = mem.allocate(std::max<size_t>(4, v.size() * 4), "buf");
        if (!v.empty()) std::memcpy(mem.find(p, 4)->data.get(), v.data(), v.size() * 4);
        if (reference && !v.empty()) mem.markWritten(p, v.size() * 4);
        return p;
    };
    if (!a.empty()) params.push_back(wst::arg(buffer(a)));
    if (!b.empty()) params.push_back(wst::arg(buffer(b)));
    const uint64_t out = mem.allocate(outBytes, "out");
    if (reference) mem.markWritten(out, outBytes);
    params.push_back(wst::arg(out));
    if (kernel == "fastops") params.push_back(wst::arg(n));
    base::LaunchConfig cfg;
    cfg.grid.x = grid;
    cfg.block.x = block;
    sim::LaunchOptions opt;
    opt.initcheck = reference;
    opt.maxResidentBlocks = resident;   // few resident blocks: register files are recycled often
    opt.baselineHandlers = baseline;
    sim::Gpu gpu(prog, mem, cfg, params, opt);
    Watch watch;
    if (reference) gpu.setListener(&watch);
    gpu.run();
    if (reference) CHECK(watch.steps == gpu.stats().warpInstructions);
    RunResult r;
    const uint8_t* o = mem.find(out, outBytes)->data.get();
    r.out.assign(o, o + outBytes);
    r.stats = gpu.stats();
    return r;
}

void checkSame(const RunResult& x, const RunResult& y) {
    CHECK(x.stats.warpInstructions == y.stats.warpInstructions);
    CHECK(x.stats.threadInstructions == y.stats.threadInstructions);
    CHECK(x.stats.branches == y.stats.branches);
    CHECK(x.stats.divergentBranches == y.stats.divergentBranches);
    CHECK(x.stats.barriers == y.stats.barriers);
    REQUIRE(x.out.size() == y.out.size());
    size_t firstDiff = x.out.size();
    for (size_t i = 0; i < x.out.size(); ++i)
        if (x.out[i] != y.out[i]) {
            firstDiff = i;
            break;
        }
    INFO("first differing byte " << firstDiff << " (output slot " << firstDiff / 256 << ", byte " << firstDiff % 256 << ")");
    CHECK(firstDiff == x.out.size());
}

} // namespace

TEST_CASE("pre-decoded handlers: every kind gives the general interpreter's bits", "[sim][fast]") {
    // Edge values paired in every combination over the threads.
    const uint32_t edges[] = {0u, 1u, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x7fc00000u, 0xffc00001u, 0x7f800000u,
                              0xff800000u, 0x00000001u, 0x807fffffu, 0x3f800000u, 0xbf800000u, 100u, 31u, 0x12345678u,
                              0x7f7fffffu, 0x00800000u, 0x4b800000u, 0xcf000000u};
    const uint32_t ne = sizeof edges / sizeof edges[0];
    for (uint32_t block : {64u, 48u, 96u}) {
        const uint32_t n = ne * ne + 7;   // the last block has threads past n: they exit, their warp splits
        const uint32_t grid = (n + block - 1) / block;
        std::vector<uint32_t> a(size_t(grid) * block), b(a.size());
        for (uint32_t i = 0; i < a.size(); ++i) {
            a[i] = edges[i % ne];
            b[i] = edges[(i / ne) % ne] ^ (i >= ne * ne ? 0x55u : 0u);
        }
        INFO("block " << block);
        const size_t outBytes = size_t(grid) * block * 256;
        const RunResult fast = runKernel("fastops", grid, block, a, b, outBytes, n, false);
        const RunResult ref = runKernel("fastops", grid, block, a, b, outBytes, n, true);
        checkSame(fast, ref);
        // The baseline x86-64 build of the handlers (what a CPU without AVX2 runs).
        checkSame(runKernel("fastops", grid, block, a, b, outBytes, n, false, 2, true), ref);
        // A few values known independently of both paths.
        uint32_t v;
        std::memcpy(&v, fast.out.data() + 140, 4);
        CHECK(v == 12345u);
        std::memcpy(&v, fast.out.data() + 256 * 5 + 52, 4);   // thread 5's %laneid
        CHECK(v == 5u);
        std::memcpy(&v, fast.out.data() + 256 * 3 + 24, 4);   // thread 3: a + b
        CHECK(v == a[3] + b[3]);
        std::memcpy(&v, fast.out.data() + 256 * 2 + 144, 4);   // thread 2 reads thread 3's a + b through a 64-bit address
        CHECK(v == a[3] + b[3]);
        uint64_t v64;
        std::memcpy(&v64, fast.out.data() + 256 * 2 + 152, 8);
        CHECK(v64 == uint64_t(-3));
        std::memcpy(&v, fast.out.data() + 256 * 2 + 160, 4);
        CHECK(v == 0x3fc00000u);
        std::memcpy(&v, fast.out.data() + 256 * 7 + 164, 4);   // thread 7: a & b
        CHECK(v == (a[7] & b[7]));
        std::memcpy(&v, fast.out.data() + 256 * 7 + 180, 4);   // thread 7: a < b (signed) ? a : b
        CHECK(v == (int32_t(a[7]) < int32_t(b[7]) ? a[7] : b[7]));
        for (uint32_t t = 0; t < n; t += 37) {   // div.rn.f32 and setp.f32 against the host's IEEE float
            float fa, fb, q;
            std::memcpy(&fa, &a[t], 4);
            std::memcpy(&fb, &b[t], 4);
            std::memcpy(&v, fast.out.data() + 256 * t + 212, 4);
            std::memcpy(&q, &v, 4);
            INFO("thread " << t << ": " << fa << " / " << fb);
            if (std::isnan(fa / fb)) CHECK(v == 0x7fffffffu);
            else CHECK(q == fa / fb);
            std::memcpy(&v, fast.out.data() + 256 * t + 224, 4);
            const bool un = std::isnan(fa) || std::isnan(fb);
            const uint32_t want = uint32_t(fa == fb) | uint32_t(!un && fa != fb) << 1 | uint32_t(fa < fb) << 2 |
                                  uint32_t(fa <= fb) << 3 | uint32_t(fa > fb) << 4 | uint32_t(fa >= fb) << 5 |
                                  uint32_t(un || fa == fb) << 6 | uint32_t(un || fa != fb) << 7 | uint32_t(un || fa < fb) << 8 |
                                  uint32_t(un || fa <= fb) << 9 | uint32_t(un || fa > fb) << 10 | uint32_t(un || fa >= fb) << 11 |
                                  uint32_t(!un) << 12 | uint32_t(un) << 13;
            CHECK(v == want);
        }
    }
}

TEST_CASE("pre-decoded loads and stores: runs of consecutive lanes, one word, or neither", "[sim][fast]") {
    const uint32_t grid = 6, block = 64, n = grid * block;
    std::vector<uint32_t> a(n);
    for (uint32_t i = 0; i < n; ++i) a[i] = 0x1000u + i * 7u;
    const size_t outBytes = size_t(n) * 8 * 4;
    const RunResult ref = runKernel("lane_runs", grid, block, a, {}, outBytes, 0, true);
    checkSame(runKernel("lane_runs", grid, block, a, {}, outBytes, 0, false), ref);
    checkSame(runKernel("lane_runs", grid, block, a, {}, outBytes, 0, false, 2, true), ref);   // without AVX2
    auto word = [&](uint32_t region, uint32_t i) {
        uint32_t v;
        std::memcpy(&v, ref.out.data() + (size_t(region) * n + i) * 4, 4);
        return v;
    };
    for (uint32_t i = 0; i < n; ++i) {
        INFO("thread " << i);
        const uint32_t t = i % block;
        CHECK(word(0, i) == a[i]);
        CHECK(word(1, i) == a[i & ~7u]);
        CHECK(word(2, i) == a[i ^ 1u]);
        CHECK(word(3, i) == a[0]);
        CHECK(word(4, i) == a[i - t + (t & ~7u)]);
        CHECK(word(5, i) == (t | 7u));                           // the last lane of the run stored last
        CHECK(word(6, i) == (i % 8 == 0 ? i + 7 : 0u));          // idem, in global memory
        CHECK(word(7, i) == a[i ^ 1u]);
    }
}

TEST_CASE("uncleared register files: a register some paths never write still reads zero", "[sim][fast]") {
    const uint32_t grid = 24, block = 64;
    const size_t outBytes = size_t(grid) * block * 8;
    for (uint32_t resident : {1u, 3u}) {
        INFO("resident blocks " << resident);
        const RunResult fast = runKernel("partial_writes", grid, block, {}, {}, outBytes, 0, false, resident);
        const RunResult ref = runKernel("partial_writes", grid, block, {}, {}, outBytes, 0, true, resident);
        checkSame(fast, ref);
        for (uint32_t t = 0; t < grid * block; ++t) {
            uint32_t v[2];
            std::memcpy(v, fast.out.data() + size_t(t) * 8, 8);
            const uint32_t blk = t / block;
            INFO("thread " << t);
            CHECK(v[0] == (blk % 2 == 0 ? blk + 1 : 0u));
            CHECK(v[1] == 0u);   // lane 20 never wrote %r20
        }
    }
}

TEST_CASE("packed register files: guarded writes and values live across divergent paths keep their slots", "[sim][fast]") {
    ptx::Module m = ptx::parse(kFastOps, "fastops.ptx");
    sim::Program prog = sim::compile(m, "guarded_keep", {});
    const sim::RegisterPacking p = sim::packRegisters(prog, 0, sim::registersReadBeforeWritten(prog, 0));
    REQUIRE(!p.offset.empty());
    CHECK(p.words < prog.functions[0].regWords);   // the run below uses shared slots
    const uint32_t block = 64;
    const RunResult fast = runKernel("guarded_keep", 1, block, {}, {}, block * 8, 0, false);
    const RunResult ref = runKernel("guarded_keep", 1, block, {}, {}, block * 8, 0, true);
    checkSame(fast, ref);
    for (uint32_t t = 0; t < block; ++t) {
        uint32_t v[2];
        std::memcpy(v, fast.out.data() + size_t(t) * 8, 8);
        INFO("thread " << t);
        CHECK(v[0] == (t % 2 == 0 ? (t + 7) * 5 : t + 1000));
        CHECK(v[1] == t * 3 + (t < 40 ? t + 22 : t + 11));
    }
}

TEST_CASE("packed register files: the lessons' kernels need far fewer slots than registers", "[sim][fast]") {
    ptx::Module m = ptx::parse(wst::readFile(wst::sourcePath("lessons/matmul/kernel.ptx")), "kernel.ptx");
    sim::Program prog = sim::compile(m, "matmul_tiled", {});
    const sim::Function& fn = prog.functions[0];
    const sim::RegisterPacking p = sim::packRegisters(prog, 0, sim::registersReadBeforeWritten(prog, 0));
    REQUIRE(p.offset.size() == fn.numRegs);
    CHECK(p.words * 3 < fn.regWords);
    // 64-bit registers in 64-bit slots before the 32-bit ones, every slot inside the file.
    uint32_t wideEnd = 0;
    for (uint32_t r = 0; r < fn.numRegs; ++r)
        if (fn.regWide[r]) wideEnd = std::max(wideEnd, p.offset[r] + 64);
    for (uint32_t r = 0; r < fn.numRegs; ++r) {
        CHECK(p.offset[r] + (fn.regWide[r] ? 64u : 32u) <= p.words);
        if (fn.regWide[r]) CHECK(p.offset[r] % 64 == 0);
        else CHECK(p.offset[r] >= wideEnd);
    }
}

namespace {
// The tiled matmul's real PTX on 64x64 matrices: 4x4 blocks of 16x16 threads.
struct MatmulLaunch {
    ptx::Module m = ptx::parse(wst::readFile(wst::sourcePath("lessons/matmul/kernel.ptx")), "kernel.ptx");
    sim::Program prog = sim::compile(m, "matmul_tiled", {});
    mem::GlobalMemory mem;
    std::vector<base::ParamBytes> params;
    base::LaunchConfig cfg;
    MatmulLaunch() {
        for (int k = 0; k < 3; ++k) params.push_back(wst::arg(mem.allocate(64 * 64 * 4, "m")));
        for (int k = 0; k < 3; ++k) params.push_back(wst::arg(int32_t(64)));
        cfg.grid = {4, 4, 1};
        cfg.block = {16, 16, 1};
    }
};
} // namespace

TEST_CASE("packed register files take blocks of their packed size, admitted or recycled", "[sim][fast]") {
    // Packing after admission must not leave a warp's registers in the block its unpacked layout
    // needed (assign() keeps capacity): matmul's 3.7 KiB file would sit in a 32 KiB block, at the
    // same offset in every warp, and the round-robin over hundreds of warps would miss the
    // host's caches on every register (seen on the GPU machine's Xeon: a third slower).
    MatmulLaunch L;
    const sim::Program& prog = L.prog;
    sim::LaunchOptions opt;
    opt.maxResidentBlocks = 4;
    sim::Gpu gpu(prog, L.mem, L.cfg, L.params, opt);
    const size_t unpacked = prog.functions[0].regWords;
    REQUIRE(gpu.residentBlocks().front()->warps.front().frames.front().regWords.capacity() >= unpacked);
    gpu.packRegisterFiles();
    const size_t packed = gpu.residentBlocks().front()->warps.front().frames.front().regWords.size();
    CHECK(packed * 3 < unpacked);
    auto fitted = [&] {
        for (auto& b : gpu.residentBlocks())
            for (auto& w : b->warps) {
                if (w.frames.empty()) continue;
                const auto& regs = w.frames.front().regWords;
                if (regs.size() != packed || regs.capacity() != packed || w.regs != regs.data()) return false;
            }
        return true;
    };
    CHECK(fitted());
    // Blocks admitted later recycle retired ones: their files stay at the packed size.
    uint64_t guard = 0;
    while (gpu.step() && ++guard < 2'000'000)
        if (gpu.stats().blocksCompleted == 6) CHECK(fitted());
    CHECK(gpu.stats().blocksCompleted == 16);
}

TEST_CASE("issue footprints name the packed registers and shared address each instruction uses", "[sim][fast]") {
    // Gpu::issueFootprint (the cycle model's prefetch hints) against the tiled matmul's real PTX:
    // an f32 fma names its three sources and its destination, a shared load or store its address
    // register and offset, all at the packed register file's offsets and inside it.
    MatmulLaunch L;
    const sim::Program& prog = L.prog;
    sim::Gpu gpu(prog, L.mem, L.cfg, L.params, sim::LaunchOptions{});
    gpu.packRegisterFiles();
    const uint32_t* at = gpu.registerOffsets(0);
    const size_t words = gpu.residentBlocks().front()->warps.front().frames.front().regWords.size();
    CHECK(words * 3 < prog.functions[0].regWords);   // packed
    auto named = [](const sim::IssueFootprint& f, uint32_t offset) {
        for (int k = 0; k < f.regs; ++k)
            if (f.regOffset[k] == offset) return true;
        return false;
    };
    int fmas = 0, shared = 0;
    for (size_t pc = 0; pc < prog.code.size(); ++pc) {
        const sim::Instr& in = prog.code[pc];
        const sim::IssueFootprint f = gpu.issueFootprint(int32_t(pc));
        INFO("pc " << pc << " line " << in.line);
        for (int k = 0; k < f.regs; ++k) CHECK(f.regOffset[k] + 16u * f.regLines[k] <= words);
        if (in.op == sim::Op::Fma && in.type == ptx::Type::F32) {
            ++fmas;
            CHECK(f.regs == 4);
            CHECK(named(f, at[in.dst.index]));
            for (int k = 0; k < 3; ++k)
                if (in.src[k].kind == sim::Operand::Kind::Reg) CHECK(named(f, at[in.src[k].index]));
        }
        if ((in.op == sim::Op::Ld || in.op == sim::Op::St) && in.space == ptx::StateSpace::Shared) {
            ++shared;
            CHECK(f.shared);
            CHECK(f.sharedBase == at[in.addr.base.index]);
            CHECK(f.sharedOffset == uint32_t(in.addr.offset));
            CHECK(named(f, f.sharedBase));
        } else {
            CHECK_FALSE(f.shared);
        }
    }
    CHECK(fmas >= 16);     // the unrolled tile loop
    CHECK(shared >= 18);   // two tile stores and the tile loads
    CHECK(gpu.issueFootprint(-1).regs == 0);
    CHECK(gpu.issueFootprint(int32_t(prog.code.size())).regs == 0);
}

TEST_CASE("registersReadBeforeWritten: guarded writes, shfl sources and loop-carried registers", "[sim][fast]") {
    ptx::Module m = ptx::parse(kFastOps, "fastops.ptx");
    sim::Program p = sim::compile(m, "partial_writes", {});
    const auto& fn = p.functions[0];
    std::vector<std::string> names;
    for (uint32_t r : sim::registersReadBeforeWritten(p, 0)) names.push_back(fn.regNames[r]);
    // %r6: written only under @%p1; %r20: written under @%p2 and read by shfl in other lanes.
    CHECK(names == std::vector<std::string>{"%r6", "%r20"});
    // The bench kernels write every register before reading it (their register files are never cleared).
    for (auto [file, kernel] : {std::pair{"lessons/vector-add/kernel.ptx", "vadd"}, std::pair{"lessons/matmul/kernel.ptx", "matmul_tiled"}}) {
        ptx::Module lm = ptx::parse(wst::readFile(wst::sourcePath(file)), file);
        sim::Program lp = sim::compile(lm, kernel, {});
        INFO(kernel);
        CHECK(sim::registersReadBeforeWritten(lp, 0).empty());
    }
}

TEST_CASE("lean path and uncleared register files vs the general path: every lesson and planted bug", "[sim][fast][lessons]") {
    const std::vector<std::string> specs = wst::everySpec();
    REQUIRE(specs.size() >= 60);
    for (const auto& spec : specs) {
        INFO(spec);
        Watch watch;
        const wst::LessonOutcome fast = wst::runLessonSpec(spec, false);
        const wst::LessonOutcome ref = wst::runLessonSpec(spec, true, [&](sim::Gpu& g) { g.setListener(&watch); });
        CHECK(fast.memory == ref.memory);
        CHECK(fast.stats == ref.stats);
        CHECK(fast.error == ref.error);
    }
}

TEST_CASE("memory Steps from the pre-decoded handlers equal the general path's: every lesson and planted bug", "[sim][fast][lessons]") {
    // With a Step listener (the cycle model, the counters), a converged load or store runs its
    // pre-decoded handler, which gives the Step its lanes' addresses; the general path (initcheck
    // on: no handlers) computes them itself. Same Steps, in the same order, for every lesson.
    const std::vector<std::string> specs = wst::everySpec();
    REQUIRE(specs.size() >= 60);
    uint64_t total = 0;
    for (const auto& spec : specs) {
        INFO(spec);
        auto runOnce = [&](bool general) {
            MemoryStepHash h;
            wst::runLessonSpec(spec, general, [&](sim::Gpu& g) { g.setListener(&h); });
            return std::pair(h.memorySteps, h.hash);
        };
        const auto fast = runOnce(false), general = runOnce(true);
        CHECK(fast.first == general.first);
        CHECK(fast.second == general.second);
        total += fast.first;
    }
    CHECK(total > 100'000);   // (the lessons do issue loads and stores)
}
