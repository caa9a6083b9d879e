// expect-fail: synccheck
// Everything, the run starts and the barrier included, inside the check against n: in the last
// tile the threads past the end skip the barrier that the others wait at.
// LSD radix sort of 32-bit keys, one 4-bit digit (16 values) per pass, lowest digit first: 8 passes.
// A pass counts each tile's digits (a tile is 256 keys, one block), scans the counts digit-major
// (all tiles' count of digit 0, then of digit 1, ...) into the place where each tile's run of each
// digit starts in the output, and scatters every key there. Keys with the same digit keep their
// order, so after the pass on bits 28-31 the keys are sorted.
#define TILE 256
#define DIGITS 16

__device__ unsigned digit_of(unsigned key, int shift)
{
    return (key >> shift) & (DIGITS - 1);
}

// A. Counts the digits of each tile: counts[d * tiles + tile].
extern "C" __global__ void radix_count(const unsigned* keys, int* counts, int n, int shift)
{
    __shared__ int bins[DIGITS];
    if (threadIdx.x < DIGITS)
        bins[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * TILE + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[digit_of(keys[i], shift)], 1);
    __syncthreads();
    if (threadIdx.x < DIGITS)
        counts[threadIdx.x * gridDim.x + blockIdx.x] = bins[threadIdx.x];
}

// B. Exclusive scan of the counts, one block of 1024 threads, 1024 counts at a time (Kogge-Stone):
//    offsets[d * tiles + tile] is where that tile's keys with digit d go.
extern "C" __global__ void radix_scan(const int* counts, int* offsets, int total)
{
    __shared__ int x[1024];
    int carry = 0;  // the sum of the chunks before this one
    for (int base = 0; base < total; base += 1024) {
        int i = base + threadIdx.x;
        int c = i < total ? counts[i] : 0;
        x[threadIdx.x] = c;
        for (int s = 1; s < 1024; s *= 2) {
            __syncthreads();
            int left = threadIdx.x >= s ? x[threadIdx.x - s] : 0;
            __syncthreads();
            x[threadIdx.x] += left;
        }
        __syncthreads();
        if (i < total)
            offsets[i] = carry + x[threadIdx.x] - c;
        carry += x[1023];
        __syncthreads();
    }
}

// C. Scatter straight from the input: each key finds its rank among the keys of its tile with the
//    same digit (ballots in its warp, counts of the warps before it) and goes to its place. The 32
//    keys of a warp have up to 16 digits: their stores land in up to 16 places far apart.
extern "C" __global__ void radix_scatter_direct(const unsigned* keys, const int* offsets, unsigned* out, int n, int shift)
{
    __shared__ int warp_counts[TILE / 32][DIGITS];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int i = blockIdx.x * TILE + threadIdx.x;
    bool valid = i < n;
    unsigned key = valid ? keys[i] : 0;
    unsigned d = digit_of(key, shift);
    unsigned same = __ballot_sync(0xffffffffu, valid);  // the lanes whose digit equals this lane's
    for (int b = 0; b < 4; ++b) {
        unsigned ones = __ballot_sync(0xffffffffu, (d >> b) & 1);
        same &= (d >> b) & 1 ? ones : ~ones;
    }
    int rank = __popc(same & ((1u << lane) - 1));  // same-digit lanes before this one
    if (threadIdx.x < TILE / 32 * DIGITS)
        warp_counts[threadIdx.x / DIGITS][threadIdx.x % DIGITS] = 0;
    __syncthreads();
    if (valid && rank == 0)
        warp_counts[warp][d] = __popc(same);
    __syncthreads();
    if (valid) {
        for (int w = 0; w < warp; ++w)
            rank += warp_counts[w][d];
        out[offsets[d * gridDim.x + blockIdx.x] + rank] = key;
    }
}

// D. Sort each tile by the digit in shared memory first: one split per bit, lowest bit first. A
//    split puts the keys whose bit is 0 before those whose bit is 1, each in its old order; a block
//    scan of the zero flags gives every key its new place. Then count the digits, as A does, and
//    write the sorted tile.
extern "C" __global__ void radix_local(const unsigned* keys, unsigned* tiles, int* counts, int n, int shift)
{
    __shared__ unsigned s_keys[TILE];
    __shared__ int s_scan[TILE];
    __shared__ int bins[DIGITS];
    int t = threadIdx.x;
    int i = blockIdx.x * TILE + t;
    unsigned key = i < n ? keys[i] : 0xffffffffu;  // the last tile's padding sorts last
    for (int bit = shift; bit < shift + 4; ++bit) {
        int zero = ((key >> bit) & 1) == 0;
        s_scan[t] = zero;
        for (int s = 1; s < TILE; s *= 2) {  // inclusive scan of the zero flags
            __syncthreads();
            int left = t >= s ? s_scan[t - s] : 0;
            __syncthreads();
            s_scan[t] += left;
        }
        __syncthreads();
        int zeros_before = s_scan[t] - zero;
        int zeros = s_scan[TILE - 1];
        int place = zero ? zeros_before : zeros + (t - zeros_before);
        s_keys[place] = key;
        __syncthreads();
        key = s_keys[t];
    }
    if (t < DIGITS)
        bins[t] = 0;
    __syncthreads();
    if (i < n) {
        atomicAdd(&bins[digit_of(key, shift)], 1);
        tiles[i] = key;
    }
    __syncthreads();
    if (t < DIGITS)
        counts[t * gridDim.x + blockIdx.x] = bins[t];
}

// E. Scatter the sorted tiles: neighbouring threads hold neighbouring keys of a digit's run, so
//    their stores go to neighbouring words, a few places per warp.
extern "C" __global__ void radix_scatter(const unsigned* tiles, const int* counts, const int* offsets, unsigned* out,
                                         int n, int shift)
{
    __shared__ int start[DIGITS];  // where each digit's run starts in this tile
    int i = blockIdx.x * TILE + threadIdx.x;
    if (i < n) {
        if (threadIdx.x == 0) {
            int s = 0;
            for (int d = 0; d < DIGITS; ++d) {
                start[d] = s;
                s += counts[d * gridDim.x + blockIdx.x];
            }
        }
        __syncthreads();
        unsigned key = tiles[i];
        unsigned d = digit_of(key, shift);
        out[offsets[d * gridDim.x + blockIdx.x] + threadIdx.x - start[d]] = key;
    }
}
