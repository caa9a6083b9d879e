// expect-fail: memcheck. The copies are clamped to the last chunk's real length, but the kernel is launched for a full chunk of per elements every time: when CHUNKS does not divide N, the last chunk's kernel reads and writes past the end of the device array.
// A pipeline over streams: the array is cut into chunks, and each chunk is copied in, processed
// and copied out on its own stream, so one chunk's copies run beside another chunk's kernel.
// Two events time the whole pipeline.
// Run it as: program N CHUNKS
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                          \
    do {                                                                                     \
        cudaError_t err_ = (call);                                                           \
        if (err_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

// Some arithmetic per element, so the kernel takes about as long as the copies.
__global__ void process(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        for (int k = 0; k < 128; ++k) v = v * 0.5f + 1.0f;
        x[i] = v;
    }
}

int main(int argc, char** argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 18;
    int chunks = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 1 || chunks < 1 || chunks > 16) {
        fprintf(stderr, "usage: %s N CHUNKS (N >= 1, 1 <= CHUNKS <= 16)\n", argv[0]);
        return 2;
    }
    size_t bytes = size_t(n) * sizeof(float);
    float* h;
    CHECK(cudaMallocHost(&h, bytes));   // pinned: asynchronous copies need page-locked memory
    for (int i = 0; i < n; ++i) h[i] = float(i % 1000);
    float* d;
    CHECK(cudaMalloc(&d, bytes));

    cudaStream_t streams[16];
    for (int s = 0; s < chunks; ++s) CHECK(cudaStreamCreate(&streams[s]));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));

    int per = (n + chunks - 1) / chunks;   // the last chunk may be shorter
    CHECK(cudaEventRecord(start));
    for (int s = 0; s < chunks; ++s) {
        int offset = s * per;
        int count = n - offset < per ? n - offset : per;
        if (count <= 0) break;
        CHECK(cudaMemcpyAsync(d + offset, h + offset, count * sizeof(float), cudaMemcpyHostToDevice, streams[s]));
        process<<<(per + 255) / 256, 256, 0, streams[s]>>>(d + offset, per);   // every chunk is per long
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(h + offset, d + offset, count * sizeof(float), cudaMemcpyDeviceToHost, streams[s]));
    }
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));   // the legacy stream's event waits for every stream
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));

    // The check on the CPU: x -> x/2 + 1, 128 times.
    int wrong = 0;
    double sum = 0;
    for (int i = 0; i < n; ++i) {
        float v = float(i % 1000);
        for (int k = 0; k < 128; ++k) v = v * 0.5f + 1.0f;
        if (h[i] != v) ++wrong;
        sum += h[i];
    }
    printf("%d elements in %d chunks\n", n, chunks);
    printf("h[0] = %.4f, h[%d] = %.4f\n", h[0], n - 1, h[n - 1]);
    printf("sum = %.3f\n", sum);
    printf("%d wrong elements: %s\n", wrong, wrong == 0 ? "PASSED" : "FAILED");
    fprintf(stderr, "pipeline time: %.3f ms\n", ms);   // the events' time (on stderr: it is not compared)

    for (int s = 0; s < chunks; ++s) CHECK(cudaStreamDestroy(streams[s]));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d));
    CHECK(cudaFreeHost(h));
    return wrong == 0 ? 0 : 1;
}
