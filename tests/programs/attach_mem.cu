// cudaStreamAttachMemAsync: the attachments UnifiedMemoryStreams makes, and its refusals. Memory
// attached to the host is the host's: a kernel launched meanwhile neither reads the host's new
// values nor writes its own back; attached again to a stream, the device sees the host's values.
#include <cstdio>

__global__ void addOne(double* v) { v[threadIdx.x] += 1; }

static int failures = 0;
static void expect(const char* what, cudaError_t got, cudaError_t want) {
    printf("%s %-72s %s\n", got == want ? "ok  " : "FAIL", what, cudaGetErrorName(got));
    if (got != want) ++failures;
    cudaGetLastError();
}
#define EXPECT(call, want) expect(#call, (call), want)

int main() {
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
    printf("attach: %d failures\n", failures);
    return failures;
}
