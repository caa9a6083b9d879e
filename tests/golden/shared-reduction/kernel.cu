// Golden: block reductions through shared memory with __syncthreads. A static __shared__ integer
// tree reduction, and a second kernel using dynamic `extern __shared__` memory (size given at
// launch) for a float and a double tree sum in a fixed order (so results are exact), finishing
// the last warp with __syncwarp instead of block barriers.
#include <cstdint>

extern "C" __global__ void reduce_static(const uint32_t* in, uint32_t* blockSums, uint32_t* blockMax) {
    __shared__ uint32_t sum[256];
    __shared__ uint32_t mx[256];
    int t = threadIdx.x;
    uint32_t v = in[blockIdx.x * 256 + t];
    sum[t] = v & 0xffffff;
    mx[t] = v;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (t < s) {
            sum[t] += sum[t + s];
            mx[t] = max(mx[t], mx[t + s]);
        }
        __syncthreads();
    }
    if (t == 0) {
        blockSums[blockIdx.x] = sum[0];
        blockMax[blockIdx.x] = mx[0];
    }
}

extern "C" __global__ void reduce_dynamic(const float* in, float* fsums, double* dsums, int perBlock) {
    extern __shared__ float dyn[];                       // perBlock floats, then perBlock doubles
    double* dd = reinterpret_cast<double*>(dyn + perBlock);
    int t = threadIdx.x;
    float f = in[blockIdx.x * perBlock + t];
    dyn[t] = f;
    dd[t] = double(f) * double(f);
    __syncthreads();
    for (int s = perBlock / 2; s > 32; s >>= 1) {
        if (t < s) {
            dyn[t] += dyn[t + s];
            dd[t] += dd[t + s];
        }
        __syncthreads();
    }
    if (t < 32) {
        // Last warp: no block barrier, only __syncwarp between reading and writing (race-free).
        for (int s = 32; s > 0; s >>= 1) {
            float a = 0.0f;
            double b = 0.0;
            if (t < s) {
                a = dyn[t + s];
                b = dd[t + s];
            }
            __syncwarp();
            if (t < s) {
                dyn[t] += a;
                dd[t] += b;
            }
            __syncwarp();
        }
    }
    if (t == 0) {
        fsums[blockIdx.x] = dyn[0];
        dsums[blockIdx.x] = dd[0];
    }
}
