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

// The L2 part: every thread reads one element of a small table, which the whole grid reads again
// and again, and k elements of a large array, each read once. Between two reads of the same table
// element the array brings k times the table's size through the L2: with plain LRU the table is
// evicted each time. An access policy window that marks the table persisting keeps it.
extern "C" __global__ void stream_with_table(const float* stream, const float* table, float* out, int n, int tableSize, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    // The table says where this thread's data starts (an offset; 0 in the lesson): the array
    // can only be read once the table's answer is back.
    float t = table[i % tableSize];
    int off = (int)t;
    float s = t;
    for (int j = 0; j < k; ++j)
        s += stream[(size_t)j * n + i + off];
    out[i] = s;
}
