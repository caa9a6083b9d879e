// Calls that are hints to a GPU (unified-memory advice and prefetch, the L2 access policy, stream
// priorities, the persisting-L2 limit): each is checked as the Runtime API reference says and
// accepted; the runtime notes once on stderr that the simulator has nothing to tune with it.
#include <cstdio>

__global__ void scale(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 3.0f;
}

int main() {
    const int n = 4096;
    float* m;
    cudaMallocManaged(&m, n * sizeof(float));
    for (int i = 0; i < n; ++i) m[i] = float(i);
#if CUDART_VERSION >= 13000   // CUDA 13 names the place with a cudaMemLocation
    const cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0}, cpu = {cudaMemLocationTypeHost, 0}, dev3 = {cudaMemLocationTypeDevice, 3};
    printf("advise read-mostly: %s\n", cudaGetErrorName(cudaMemAdvise(m, n * sizeof(float), cudaMemAdviseSetReadMostly, dev0)));
    printf("advise preferred location cpu: %s\n", cudaGetErrorName(cudaMemAdvise(m, n * sizeof(float), cudaMemAdviseSetPreferredLocation, cpu)));
    printf("prefetch to the device: %s\n", cudaGetErrorName(cudaMemPrefetchAsync(m, n * sizeof(float), dev0, 0, 0)));
    printf("prefetch to device 3: %s\n", cudaGetErrorName(cudaMemPrefetchAsync(m, n * sizeof(float), dev3, 0, 0)));
#else
    printf("advise read-mostly: %s\n", cudaGetErrorName(cudaMemAdvise(m, n * sizeof(float), cudaMemAdviseSetReadMostly, 0)));
    printf("advise preferred location cpu: %s\n", cudaGetErrorName(cudaMemAdvise(m, n * sizeof(float), cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId)));
    printf("prefetch to the device: %s\n", cudaGetErrorName(cudaMemPrefetchAsync(m, n * sizeof(float), 0)));
    printf("prefetch to device 3: %s\n", cudaGetErrorName(cudaMemPrefetchAsync(m, n * sizeof(float), 3)));
#endif
    cudaGetLastError();
    scale<<<n / 256, 256>>>(m, n);
    cudaDeviceSynchronize();
    printf("m[4095] = %g\n", m[4095]);

    cudaStream_t s;
    int least = 0, greatest = 0;
    cudaDeviceGetStreamPriorityRange(&least, &greatest);
    cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, greatest - 10);
    int prio = 1;
    unsigned flags = 7;
    cudaStreamGetPriority(s, &prio);
    cudaStreamGetFlags(s, &flags);
    printf("priority clamped to the greatest: %s, flags %u\n", prio == greatest ? "yes" : "no", flags);

    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    size_t persist = p.persistingL2CacheMaxSize / 2;
    printf("persisting L2 limit: %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, persist)));
    size_t got = 0;
    cudaDeviceGetLimit(&got, cudaLimitPersistingL2CacheSize);
    printf("read back: %s\n", got == persist ? "same" : "different");
    cudaStreamAttrValue v = {};
    v.accessPolicyWindow.base_ptr = m;
    v.accessPolicyWindow.num_bytes = n * sizeof(float);
    v.accessPolicyWindow.hitRatio = 0.6f;
    v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    printf("access policy window: %s\n", cudaGetErrorName(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v)));
    cudaStreamAttrValue back = {};
    cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &back);
    printf("window read back: %zu bytes, hit ratio %.1f\n", back.accessPolicyWindow.num_bytes, back.accessPolicyWindow.hitRatio);
    v.accessPolicyWindow.hitRatio = 1.5f;
    printf("hit ratio 1.5: %s\n", cudaGetErrorName(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v)));
    cudaGetLastError();
    printf("reset persisting lines: %s\n", cudaGetErrorName(cudaCtxResetPersistingL2Cache()));
    int blocks = 0;
    printf("occupancy with flags: %s", cudaGetErrorName(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, scale, 256, 0, cudaOccupancyDefault)));
    printf(", %s\n", blocks > 0 ? "blocks > 0" : "no blocks");
    int canPeer = 5;
    cudaDeviceCanAccessPeer(&canPeer, 0, 0);
    printf("peer access to itself: %d\n", canPeer);
    cudaStreamDestroy(s);
    cudaFree(m);
    return 0;
}
