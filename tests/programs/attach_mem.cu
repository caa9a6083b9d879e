// cudaStreamAttachMemAsync: the attachments UnifiedMemoryStreams makes, and its refusals. Memory
// attached to the host is the host's: a kernel launched meanwhile neither reads the host's new
// values nor writes its own back; attached again to a stream, the device sees the host's values.
// Last, a host thread writes and reads back a host-attached value while this thread's kernels run:
// no launch may put an older value back (without the attachment, `attach_mem -- race-unattached`,
// the copy back after each launch did: "lost" above 0 in most runs).
#include <atomic>
#include <cstdio>
#include <cstring>
#include <thread>

__global__ void addOne(double* v) { v[threadIdx.x] += 1; }
__global__ void spin(double* out, int iterations) {
    double v = threadIdx.x;
    for (int i = 0; i < iterations; ++i) v = v * 0.999 + 1.0;
    out[threadIdx.x] = v;
}

static int failures = 0;
static void expect(const char* what, cudaError_t got, cudaError_t want) {
    printf("%s %-72s %s\n", got == want ? "ok  " : "FAIL", what, cudaGetErrorName(got));
    if (got != want) ++failures;
    cudaGetLastError();
}
#define EXPECT(call, want) expect(#call, (call), want)

int main(int argc, char** argv) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    double *m, *d;
    cudaMallocManaged(&m, 4 * sizeof(double));
    cudaMalloc(&d, 4 * sizeof(double));
    int host;
    EXPECT(cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachSingle), cudaSuccess);
    EXPECT(cudaStreamAttachMemAsync(s, m, 4 * sizeof(double), cudaMemAttachGlobal), cudaSuccess);
    EXPECT(cudaStreamAttachMemAsync(s, m, 8, cudaMemAttachHost), cudaErrorInvalidValue);
    EXPECT(cudaStreamAttachMemAsync(s, m + 1, 0, cudaMemAttachHost), cudaErrorInvalidValue);
    EXPECT(cudaStreamAttachMemAsync(s, d, 0, cudaMemAttachHost), cudaErrorInvalidValue);
    EXPECT(cudaStreamAttachMemAsync(s, &host, 0, cudaMemAttachHost), cudaErrorInvalidValue);
    EXPECT(cudaStreamAttachMemAsync(s, m, 0, 8), cudaErrorInvalidValue);
    EXPECT(cudaStreamAttachMemAsync(0, m, 0, cudaMemAttachSingle), cudaErrorInvalidValue);

    for (int i = 0; i < 4; ++i) m[i] = i;
    EXPECT(cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachHost), cudaSuccess);
    cudaStreamSynchronize(s);
    for (int i = 0; i < 4; ++i) m[i] = 10 + i;   // the host's, while the device works
    addOne<<<1, 4, 0, s>>>(d);
    cudaStreamSynchronize(s);
    const bool kept = m[0] == 10 && m[3] == 13;
    EXPECT(cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachSingle), cudaSuccess);
    addOne<<<1, 4, 0, s>>>(m);
    cudaStreamSynchronize(s);
    const bool seen = m[0] == 11 && m[3] == 14;
    printf("%s host writes to host-attached memory kept across a launch: %g %g\n", kept ? "ok  " : "FAIL", m[0] - 1, m[3] - 1);
    printf("%s attached to the stream again, a kernel sees them: %g %g\n", seen ? "ok  " : "FAIL", m[0], m[3]);
    if (!kept || !seen) ++failures;

    double *mine, *out;
    cudaMallocManaged(&mine, sizeof(double));
    cudaMallocManaged(&out, 256 * sizeof(double));
    if (!(argc > 1 && strcmp(argv[1], "race-unattached") == 0)) EXPECT(cudaStreamAttachMemAsync(s, mine, 0, cudaMemAttachHost), cudaSuccess);
    cudaStreamSynchronize(s);
    *mine = 0;
    std::atomic<bool> done{false}, started{false};
    long writes = 0, lost = 0;
    std::thread writer([&] {
        volatile double* v = mine;
        double k = 0;
        started = true;
        while (!done) {
            if (*v != k) {   // not what this thread wrote last
                ++lost;
                k = *v;
            }
            *v = ++k;
            ++writes;
        }
    });
    while (!started) {
    }
    for (int r = 0; r < 10; ++r) {
        spin<<<1, 256, 0, s>>>(out, 5000);
        cudaStreamSynchronize(s);
    }
    done = true;
    writer.join();
    printf("%s a host thread wrote host-attached memory %s times during 10 launches; an older value came back %ld times\n", lost == 0 ? "ok  " : "FAIL",
           writes > 0 ? "many" : "no", lost);
    if (lost != 0 || writes == 0) ++failures;
    printf("attach: %d failures\n", failures);
    return failures;
}
