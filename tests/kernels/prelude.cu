// Small kernels that use every function warpscope's clang prelude offers. The test compiles this
// file with clang + the prelude and compares the simulator's results with nvcc's PTX of the same
// file (tests/kernels/prelude.ptx, committed; regenerated and compared where nvcc exists).

// Index variables and warpSize: 9 values per thread.
extern "C" __global__ void k_index(unsigned* out)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned* o = out + 9 * t;
    o[0] = threadIdx.x; o[1] = threadIdx.y; o[2] = threadIdx.z;
    o[3] = blockIdx.x + 10 * blockIdx.y + 100 * blockIdx.z;
    o[4] = blockDim.x + 1000 * blockDim.y + 100000 * blockDim.z;
    o[5] = gridDim.x + 1000 * gridDim.y + 100000 * gridDim.z;
    o[6] = warpSize;
    dim3 b = blockDim;
    o[7] = b.x * b.y * b.z;
    o[8] = t % warpSize;
}

// Barriers with a result, warp sync and fences.
extern "C" __global__ void k_sync(int* out, const int* in)
{
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    int c = __syncthreads_count(s[(t + 1) % blockDim.x] > 0);
    int a = __syncthreads_and(s[t] > -1000);
    int o = __syncthreads_or(s[t] == 7);
    __syncwarp();
    __threadfence_block();
    __threadfence();
    __syncwarp(0xffffffffu);
    out[3 * t] = c; out[3 * t + 1] = a; out[3 * t + 2] = o;
}

// Atomics: every thread updates shared counters; the final values are order-independent.
extern "C" __global__ void k_atomics(int* i, unsigned* u, unsigned long long* l, float* f, double* d)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&i[0], t);
    atomicSub(&i[1], t);
    atomicMin(&i[2], 100 - t);
    atomicMax(&i[3], t - 100);
    atomicAnd(&i[4], ~(1 << (t % 31)));
    atomicOr(&i[5], 1 << (t % 31));
    atomicXor(&i[6], t);
    atomicExch(&i[7], 77);
    if (atomicCAS(&i[8], 0, t + 1) == 0) atomicAdd(&i[9], 1);
    atomicAdd(&u[0], 3u);
    atomicSub(&u[1], 1u);
    atomicMin(&u[2], (unsigned)t + 5u);
    atomicMax(&u[3], (unsigned)t * 3u);
    atomicInc(&u[4], 17u);
    atomicDec(&u[5], 13u);
    atomicAnd(&u[6], 0xfffffff0u | (unsigned)t);
    atomicOr(&u[7], (unsigned)t << 8);
    atomicXor(&u[8], (unsigned)t * 2654435761u);
    atomicExch(&u[9], 9u);
    atomicCAS(&u[10], 0u, 5u);
    atomicAdd(&l[0], (unsigned long long)t << 33);
    atomicMin(&l[1], (unsigned long long)(1000 - t));
    atomicMax(&l[2], (unsigned long long)t << 40);
    atomicAnd(&l[3], ~(1ull << (t % 63)));
    atomicOr(&l[4], 1ull << (t % 63));
    atomicXor(&l[5], (unsigned long long)t << 20);
    atomicExch(&l[6], 66ull);
    atomicCAS(&l[7], 0ull, 1ull << 50);
    atomicAdd(&f[0], 0.5f);
    atomicExch(&f[1], 2.5f);
    atomicAdd(&d[0], 0.25);
}

// Warp functions and bit tricks: 24 values per thread.
extern "C" __global__ void k_warp(int* out, const int* in, const float* fin)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[t];
    float fv = fin[t];
    int* o = out + 24 * t;
    o[0] = __shfl_sync(0xffffffffu, v, 5);
    o[1] = __shfl_sync(0xffffffffu, v, t + 3, 16);
    o[2] = __shfl_up_sync(0xffffffffu, v, 2);
    o[3] = __shfl_up_sync(0xffffffffu, v, 3, 8);
    o[4] = __shfl_down_sync(0xffffffffu, v, 4);
    o[5] = __shfl_down_sync(0xffffffffu, v, 1, 16);
    o[6] = __shfl_xor_sync(0xffffffffu, v, 1);
    o[7] = __shfl_xor_sync(0xffffffffu, v, 6, 8);
    o[8] = __float_as_int(__shfl_sync(0xffffffffu, fv, 7));
    o[9] = __float_as_int(__shfl_down_sync(0xffffffffu, fv, 2));
    o[10] = (int)__ballot_sync(0xffffffffu, v & 1);
    o[11] = __all_sync(0xffffffffu, v > -100000);
    o[12] = __any_sync(0xffffffffu, v == 12345);
    o[13] = (int)__match_any_sync(0xffffffffu, v & 3);
    int pred = 0;
    o[14] = (int)__match_all_sync(0xffffffffu, v & 0, &pred);
    o[15] = pred;
    o[16] = __popc((unsigned)v);
    o[17] = __clz(v);
    o[18] = __ffs(v);
    o[19] = (int)__brev((unsigned)v);
    o[20] = __umulhi((unsigned)v, 0x9e3779b9u);
    o[21] = __mul24(v, 77);
    o[22] = __popcll(((unsigned long long)(unsigned)v << 32) | 0xffu);
    unsigned m = 0;
    if (t & 1) m = __activemask();
    o[23] = (int)m;
}

// Vector types: one 128-bit access per float4 copy, make_*, __ldg.
extern "C" __global__ void k_vector(float4* out4, const float4* in4, int2* out2, const int2* in2, float* outf, const float* inf)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out4[t] = in4[t];
    float4 a = __ldg(&in4[t]);
    float4 b = make_float4(a.w, a.z, a.y, a.x);
    out4[t + blockDim.x * gridDim.x] = b;
    int2 c = in2[t];
    out2[t] = make_int2(c.y, c.x + __ldg(&in2[t]).y);
    uint3 u = make_uint3(1u, 2u, 3u);
    outf[t] = __ldg(&inf[t]) + (float)(u.x + u.y + u.z) + make_float2(0.5f, 0.25f).y;
}

// Math that maps to single instructions, min/max and conversions: bit-exact with nvcc.
extern "C" __global__ void k_math(float* out, int* iout, const float* in)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[t], y = in[t + 1];
    float* o = out + 20 * t;
    o[0] = sqrtf(fabsf(x));
    o[1] = rsqrtf(fabsf(x) + 1.0f);
    o[2] = fmaf(x, y, 0.5f);
    o[3] = fminf(x, y);
    o[4] = fmaxf(x, y);
    o[5] = fabsf(x);
    o[6] = floorf(x);
    o[7] = ceilf(x);
    o[8] = __expf(x * 0.1f);
    o[9] = __logf(fabsf(x) + 0.5f);
    o[10] = __sinf(x);
    o[11] = __cosf(x);
    o[12] = __fdividef(x, y + 100.0f);
    o[13] = min(x, y);
    o[14] = max(x, y);
    o[15] = __saturatef(x * 0.01f);
    o[16] = truncf(x);
    o[17] = __int2float_rn(t * 3 - 50);
    o[18] = __uint_as_float(__float_as_uint(x) ^ 0x80000000u);
    o[19] = x / (y + 200.0f);
    int* io = iout + 8 * t;
    io[0] = __float2int_rn(x);
    io[1] = __float2int_rz(x);
    io[2] = __float2int_rd(x);
    io[3] = __float2int_ru(x);
    io[4] = (int)__float2uint_rn(fabsf(x));
    io[5] = min(t - 20, 7);
    io[6] = max(t - 20, 7);
    io[7] = (int)min((unsigned)t, 9u) + abs(t - 30);
}

// expf logf sinf cosf powf: the prelude's own implementations against libdevice's (a few ulp).
extern "C" __global__ void k_libm(float* out, const float* in)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[t];
    float* o = out + 9 * t;
    o[0] = expf(x * 0.25f);
    o[1] = logf(fabsf(x) + 0.001f);
    o[2] = sinf(x);
    o[3] = cosf(x);
    o[4] = powf(fabsf(x) * 0.1f + 0.5f, x * 0.05f);
    o[5] = powf(-2.0f, (float)(t % 7 - 3));
    o[6] = sinf(x * 123456.7f * (float)t);      // large arguments: up to about 3e9
    o[7] = cosf(x * 3.3e7f * (float)t);         // up to about 8e11
    o[8] = sinf(x * 1.0e30f);                   // near the top of the float range
}

// One thread writes a static __shared__ variable, the block synchronises, every thread reads it.
// clang 14's own barrier builtin let LLVM move the other threads' read above the barrier (they
// read the variable before thread 0 wrote it); the prelude's barrier keeps it below.
extern "C" __global__ void k_broadcast(int* out, const int* in) {
    __shared__ int value;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (in[i] < 0) return;
    if (threadIdx.x == 0) value = in[i] + 1000 * blockIdx.x;
    __syncthreads();
    out[i] = value;
}
