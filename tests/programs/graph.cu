// Stream capture into a graph: copy in, kernel, copy out, recorded once and launched three times.
#include <cstdio>

__global__ void addOne(int* d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] += 1;
}

int main() {
    const int n = 1000;
    int* h;
    cudaMallocHost(&h, n * sizeof(int));
    for (int i = 0; i < n; ++i) h[i] = i;
    int* d;
    cudaMalloc(&d, n * sizeof(int));
    cudaStream_t s;
    cudaStreamCreate(&s);

    cudaGraph_t graph;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaStreamCaptureStatus status;
    cudaStreamIsCapturing(s, &status);
    cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, s);
    addOne<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s);
    cudaError_t memsetInCapture = cudaMemsetAsync(d, 0, 4, s);
    cudaGetLastError();   // read (and so clear) that error
    cudaStreamEndCapture(s, &graph);
    printf("capturing: %s; captured, not run: h[10] = %d; memset in a capture: %s\n",
           status == cudaStreamCaptureStatusActive ? "yes" : "no", h[10], cudaGetErrorName(memsetInCapture));

    cudaGraphExec_t exec;
    cudaGraphInstantiate(&exec, graph, 0);
    for (int k = 0; k < 3; ++k) cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);
    int bad = 0;
    for (int i = 0; i < n; ++i)
        if (h[i] != i + 3) ++bad;
    printf("after 3 launches: h[10] = %d, mismatches %d, error %s\n", h[10], bad, cudaGetErrorName(cudaGetLastError()));
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    return bad == 0 ? 0 : 1;
}
