// warpscope-ptx-arch: sm_90
// Which lane and register of a warp holds which matrix element in each wmma fragment, as the H100
// lays them out (the PTX ISA leaves wmma fragment layouts unspecified). Every element of the
// 16x16 (or 16x8 / 8x16) source matrix holds its own memory index, so each dumped fragment
// element names the offset it came from; then stores of fragments filled with lane*16+i show
// where each accumulator element goes. One warp; 512 u32 per configuration (lane*16 + element).
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

__device__ unsigned bitsOf(half v) { return __half_as_ushort(v); }
__device__ unsigned bitsOf(__nv_bfloat16 v) { return __bfloat16_as_ushort(v); }
__device__ unsigned bitsOf(float v) { return __float_as_uint(v); }
__device__ unsigned bitsOf(int v) { return (unsigned)v; }
__device__ unsigned bitsOf(signed char v) { return (unsigned char)v; }
__device__ unsigned bitsOf(unsigned char v) { return v; }

template <typename Frag>
__device__ void dump(const Frag& f, unsigned* out, int slot) {
    unsigned lane = threadIdx.x & 31;
    for (int i = 0; i < f.num_elements; i++) out[slot * 512 + lane * 16 + i] = bitsOf(f.x[i]);
}

template <typename Use, int M, int N, int K, typename T, typename Layout, typename S>
__device__ void loadDump(const S* src, unsigned ld, unsigned* out, int slot) {
    wmma::fragment<Use, M, N, K, T, Layout> f;
    wmma::load_matrix_sync(f, src, ld);
    dump(f, out, slot);
}

template <int M, int N, int K, typename T, typename S>
__device__ void loadDumpAcc(const S* src, unsigned ld, wmma::layout_t l, unsigned* out, int slot) {
    wmma::fragment<wmma::accumulator, M, N, K, T> f;
    wmma::load_matrix_sync(f, src, ld, l);
    dump(f, out, slot);
}

// Fills an accumulator with lane*16+i and stores it; the memory then shows each element's place.
template <int M, int N, int K, typename T>
__device__ void storeDump(T* scratch, wmma::layout_t l, unsigned* out, int slot) {
    wmma::fragment<wmma::accumulator, M, N, K, T> f;
    unsigned lane = threadIdx.x & 31;
    for (int i = 0; i < f.num_elements; i++) f.x[i] = (T)(float)(lane * 16 + i);
    wmma::store_matrix_sync(scratch, f, 16, l);
    __syncwarp();
    for (int i = lane; i < 256; i += 32) out[slot * 512 + i] = (unsigned)(float)scratch[i];
    __syncwarp();
}

extern "C" __global__ void wmma_fragments(unsigned* out) {
    __shared__ half h[256];
    __shared__ __nv_bfloat16 bf[256];
    __shared__ float f[256];
    __shared__ int s[256];
    __shared__ signed char c8[256];
    __shared__ unsigned char u8[256];
    __shared__ half hs[256];
    for (int i = threadIdx.x; i < 256; i += 32) {
        h[i] = __int2half_rn(i);
        bf[i] = __int2bfloat16_rn(i);
        f[i] = (float)i;
        s[i] = i;
        c8[i] = (signed char)i;
        u8[i] = (unsigned char)i;
    }
    __syncwarp();
    using namespace wmma;
    loadDump<matrix_a, 16, 16, 16, half, row_major>(h, 16, out, 0);
    loadDump<matrix_a, 16, 16, 16, half, col_major>(h, 16, out, 1);
    loadDump<matrix_b, 16, 16, 16, half, row_major>(h, 16, out, 2);
    loadDump<matrix_b, 16, 16, 16, half, col_major>(h, 16, out, 3);
    loadDumpAcc<16, 16, 16, float>(f, 16, mem_row_major, out, 4);
    loadDumpAcc<16, 16, 16, float>(f, 16, mem_col_major, out, 5);
    loadDumpAcc<16, 16, 16, half>(h, 16, mem_row_major, out, 6);
    loadDumpAcc<16, 16, 16, half>(h, 16, mem_col_major, out, 7);
    loadDump<matrix_a, 16, 16, 16, __nv_bfloat16, row_major>(bf, 16, out, 8);
    loadDump<matrix_a, 16, 16, 16, __nv_bfloat16, col_major>(bf, 16, out, 9);
    loadDump<matrix_b, 16, 16, 16, __nv_bfloat16, row_major>(bf, 16, out, 10);
    loadDump<matrix_b, 16, 16, 16, __nv_bfloat16, col_major>(bf, 16, out, 11);
    loadDump<matrix_a, 16, 16, 8, precision::tf32, row_major>(f, 8, out, 12);
    loadDump<matrix_a, 16, 16, 8, precision::tf32, col_major>(f, 16, out, 13);
    loadDump<matrix_b, 16, 16, 8, precision::tf32, row_major>(f, 16, out, 14);
    loadDump<matrix_b, 16, 16, 8, precision::tf32, col_major>(f, 8, out, 15);
    loadDump<matrix_a, 16, 16, 16, signed char, row_major>(c8, 16, out, 16);
    loadDump<matrix_a, 16, 16, 16, signed char, col_major>(c8, 16, out, 17);
    loadDump<matrix_b, 16, 16, 16, signed char, row_major>(c8, 16, out, 18);
    loadDump<matrix_b, 16, 16, 16, signed char, col_major>(c8, 16, out, 19);
    loadDump<matrix_a, 16, 16, 16, unsigned char, row_major>(u8, 16, out, 20);
    loadDump<matrix_b, 16, 16, 16, unsigned char, col_major>(u8, 16, out, 21);
    loadDumpAcc<16, 16, 16, int>(s, 16, mem_row_major, out, 22);
    loadDumpAcc<16, 16, 16, int>(s, 16, mem_col_major, out, 23);
    storeDump<16, 16, 16, float>(f, mem_row_major, out, 24);
    storeDump<16, 16, 16, float>(f, mem_col_major, out, 25);
    storeDump<16, 16, 16, half>(hs, mem_row_major, out, 26);
    storeDump<16, 16, 16, int>(s, mem_col_major, out, 27);
    storeDump<16, 16, 8, float>(f, mem_row_major, out, 28);
}
