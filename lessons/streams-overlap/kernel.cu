// Streams and overlap. The host program (lesson.json) copies an array to the GPU, runs
// `process` on it and copies it back, either in one piece or in chunks spread over several
// streams, so that one chunk's copy can run while another chunk is being processed.
//
// `process` works in place on one chunk: the host passes a pointer to the chunk's first element
// and the chunk's length. `work` sets how much arithmetic each element gets, so the kernel's
// time can be made small or large next to the copies' time.
extern "C" __global__ void process(float* data, int n, int work)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = data[i];
        for (int k = 0; k < work; ++k)
            x = x * 0.9999f + 0.0001f;
        data[i] = x;
    }
}

// The graph part: a tiny kernel launched many times in a row, where the cost of launching
// matters more than the work. Each launch adds one to every counter.
extern "C" __global__ void tick(int* counter, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        counter[i] += 1;
}
