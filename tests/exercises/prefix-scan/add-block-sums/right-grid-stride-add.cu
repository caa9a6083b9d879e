// expect-pass: scan_add_sums as a grid-stride loop that skips section 0 by comparing i with the
// section length (the two given scans unchanged).
// A scan of an array larger than one block: each block scans its section (Brent-Kung), one block
// scans the section totals (Kogge-Stone), and scan_add_sums adds them back. The two scans are
// given; scan_add_sums is yours.

// 1. Kogge-Stone: one element per thread, log2(blockDim.x) steps. In the step with stride s every
//    thread t >= s adds the element s places to its left. Fast (few steps), but about n log2 n adds.
extern "C" __global__ void scan_kogge_stone(const int* in, int* out, int* sums, int n)
{
    extern __shared__ int x[];                          // blockDim.x ints
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[threadIdx.x] = i < n ? in[i] : 0;
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        __syncthreads();                                // the last step's writes are done
        int left = threadIdx.x >= s ? x[threadIdx.x - s] : 0;
        __syncthreads();                                // everyone has read before anyone writes
        x[threadIdx.x] += left;
    }
    if (i < n)
        out[i] = x[threadIdx.x];
    if (threadIdx.x == blockDim.x - 1)
        sums[blockIdx.x] = x[threadIdx.x];
}

// 2. Brent-Kung: two elements per thread. A reduction tree up (after it x[k] holds the sum of the
//    2s elements ending at k, for k = 2s - 1, 4s - 1, ...), then a distribution tree down that fills
//    in the rest: about 2n adds in 2 log2 n steps.
extern "C" __global__ void scan_brent_kung(const int* in, int* out, int* sums, int n)
{
    extern __shared__ int x[];                          // 2 * blockDim.x ints
    unsigned section = 2 * blockDim.x;
    int base = blockIdx.x * section;
    for (unsigned k = threadIdx.x; k < section; k += blockDim.x)
        x[k] = base + k < n ? in[base + k] : 0;
    for (unsigned s = 1; s < section; s *= 2) {         // up: the reduction tree
        __syncthreads();
        unsigned k = (threadIdx.x + 1) * 2 * s - 1;
        if (k < section)
            x[k] += x[k - s];
    }
    for (unsigned s = section / 4; s > 0; s /= 2) {     // down: the distribution tree
        __syncthreads();
        unsigned k = (threadIdx.x + 1) * 2 * s - 1;
        if (k + s < section)
            x[k + s] += x[k];
    }
    __syncthreads();
    for (unsigned k = threadIdx.x; k < section; k += blockDim.x)
        if (base + k < n)
            out[base + k] = x[k];
    if (threadIdx.x == 0)
        sums[blockIdx.x] = x[section - 1];
}

// 3. Yours: a grid-stride loop; an element of section 0 (i < section) has nothing to add.
extern "C" __global__ void scan_add_sums(int* out, const int* scanned_sums, int n, int section)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        if (i < section)
            continue;
        out[i] = out[i] + scanned_sums[i / section - 1];
    }
}
