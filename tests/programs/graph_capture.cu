// Stream capture with a fork and a join: a memset, an event that a second stream waits on (it
// joins the capture), a kernel on each stream, a host function, and the join back before the
// copy out. The graph is launched twice.
#include <cstdio>

__global__ void addTo(int* d, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&d[i], v);
}

static void CUDART_CB note(void* p) {
    int* calls = static_cast<int*>(p);
    ++*calls;
    printf("host function in the graph: call %d\n", *calls);
}

int main() {
    const int n = 256;
    int* h;
    cudaMallocHost(&h, n * sizeof(int));
    int* d;
    cudaMalloc(&d, n * sizeof(int));
    cudaStream_t s1, s2;
    cudaStreamCreate(&s1);
    cudaStreamCreate(&s2);
    cudaEvent_t fork, joined;
    cudaEventCreate(&fork);
    cudaEventCreate(&joined);
    int calls = 0;

    cudaGraph_t graph;
    cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
    cudaError_t e1 = cudaMemsetAsync(d, 0, n * sizeof(int), s1);
    cudaError_t e2 = cudaEventRecord(fork, s1);
    cudaError_t e3 = cudaStreamWaitEvent(s2, fork, 0);
    cudaStreamCaptureStatus st2;
    cudaStreamIsCapturing(s2, &st2);
    addTo<<<2, 128, 0, s1>>>(d, n, 1);
    addTo<<<2, 128, 0, s2>>>(d, n, 10);
    cudaError_t e4 = cudaLaunchHostFunc(s2, note, &calls);
    cudaEventRecord(joined, s2);
    cudaStreamWaitEvent(s1, joined, 0);
    cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s1);
    cudaError_t e5 = cudaStreamEndCapture(s1, &graph);
    printf("memset %s, record %s, wait %s, host function %s, end %s; second stream capturing: %s; host calls so far %d\n",
           cudaGetErrorName(e1), cudaGetErrorName(e2), cudaGetErrorName(e3), cudaGetErrorName(e4), cudaGetErrorName(e5),
           st2 == cudaStreamCaptureStatusActive ? "yes" : "no", calls);
    size_t nodes = 0;
    cudaGraphGetNodes(graph, nullptr, &nodes);
    printf("nodes in the captured graph: %zu\n", nodes);

    cudaGraphExec_t exec;
    cudaGraphInstantiate(&exec, graph, 0);
    for (int r = 0; r < 2; ++r) {
        for (int i = 0; i < n; ++i) h[i] = -1;
        cudaGraphLaunch(exec, s1);
        cudaStreamSynchronize(s1);
        int bad = 0;
        for (int i = 0; i < n; ++i) bad += h[i] != 11;
        printf("launch %d: h[0] = %d, h[255] = %d, mismatches %d, host calls %d\n", r + 1, h[0], h[n - 1], bad, calls);
    }
    printf("error: %s\n", cudaGetErrorName(cudaGetLastError()));
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    return 0;
}
