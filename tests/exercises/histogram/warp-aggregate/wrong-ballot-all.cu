// expect-fail: correct
// One atomic per warp with the number of lanes that have an element: right when every byte is
// the same, but on any other input the whole warp's count lands in lane 0's bin.
extern "C" __global__ void histo_global(const unsigned char* data, unsigned int* bins, int n)
{
    int stride = blockDim.x * gridDim.x;
    int rounds = (n + stride - 1) / stride;
    unsigned lane = threadIdx.x % 32;
    for (int r = 0; r < rounds; ++r) {
        int i = r * stride + blockIdx.x * blockDim.x + threadIdx.x;
        int v = i < n ? data[i] : -1;
        unsigned have = __ballot_sync(0xffffffffu, v >= 0);
        if (lane == 0 && v >= 0)
            atomicAdd(&bins[v], (unsigned)__popc(have));
    }
}
