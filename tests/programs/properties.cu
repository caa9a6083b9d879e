// The usual device query: the simulated GPU's properties come from the GPU preset.
#include <cstdio>

int main() {
    int count = 0;
    cudaGetDeviceCount(&count);
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    int rt = 0;
    cudaRuntimeGetVersion(&rt);
    printf("devices: %d\n", count);
    printf("name: %s\n", p.name);
    printf("compute capability %d.%d, %d SMs (attribute %d), warp %d, %d threads per block\n", p.major, p.minor,
           p.multiProcessorCount, sms, p.warpSize, p.maxThreadsPerBlock);
    printf("runtime version %d\n", rt);
    return 0;
}
