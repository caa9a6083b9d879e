// expect-fail: correct
// Takes a section as two elements per thread, as in the Brent-Kung scan: but this launch's blocks
// are not the scan's, so i / (2 * blockDim.x) is the section only when SECTION is 512.

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

// 3. Section b > 0 adds the scanned total of the sections before it.
extern "C" __global__ void scan_add_sums(int* out, const int* scanned_sums, int n, int section)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int b = i / (2 * blockDim.x);        // the section of element i: two elements per thread
    if (i < n && b > 0)                  // section 0 has nothing before it
        out[i] += scanned_sums[b - 1];
}
