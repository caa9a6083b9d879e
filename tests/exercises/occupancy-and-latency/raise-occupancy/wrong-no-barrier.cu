// expect-fail: racecheck
// The buffer shrunk to one block's values (the occupancy goal is met), but the barrier went with
// the old code: a thread reads its mirror thread's slot before that thread has written it.
extern "C" __global__ void stream_copy(const float* in, float* out, int n)
{
    __shared__ float staging[1024];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    staging[threadIdx.x] = i < n ? in[i] : 0.0f;
    int t = blockDim.x - 1 - threadIdx.x;
    int j = blockIdx.x * blockDim.x + t;
    if (j < n)
        out[j] = staging[t];
}
