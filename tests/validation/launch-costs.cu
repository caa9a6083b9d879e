// Launch, block-dispatch and drain costs (issue 34): kernels that do almost nothing, launched over
// a range of grid and block sizes, so that what the GPU spends on starting a grid, handing blocks
// to SMs and finishing them shows on its own. Recorded on the H100 with
// scripts/record-timing-suite.sh --spec tests/validation/launch-costs.json.

// Nothing at all: the time is the launch, the block dispatch and the drain.
extern "C" __global__ void k_empty() {}

// One coalesced 4-byte store per thread: the least a kernel that produces something does.
extern "C" __global__ void k_store(float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 1.0f;
}

// A short dependent chain of arithmetic per thread, then one store: blocks that live a little
// while, so dispatch overlaps work.
extern "C" __global__ void k_spin(float* out, int iters)
{
    float v = threadIdx.x;
    for (int k = 0; k < iters; ++k)
        v = v * 0.999f + 1.0f;
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
