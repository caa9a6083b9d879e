// A CUDA graph built node by node: a memset and a copy in, a kernel after both, then a host node
// and a copy out after the kernel, joined by an empty node; launched three times, its kernel's
// parameter changed in the executable graph, updated from an edited copy, and cloned.
#include <cstdio>

__global__ void scaleAdd(const int* in, int* out, int n, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] += k * in[i];
}

struct Tally {
    int calls;
    const int* host;
};
static void CUDART_CB hostStep(void* p) {
    Tally* t = static_cast<Tally*>(p);
    ++t->calls;
    printf("host node: call %d\n", t->calls);
}

#define CHECK(x)                                                                                       \
    do {                                                                                               \
        cudaError_t e_ = (x);                                                                          \
        if (e_ != cudaSuccess) {                                                                       \
            printf("%s failed: %s\n", #x, cudaGetErrorName(e_));                                      \
            return 1;                                                                                  \
        }                                                                                              \
    } while (0)

int main() {
    const int n = 300;
    int h_in[n], h_out[n];
    for (int i = 0; i < n; ++i) h_in[i] = i % 17, h_out[i] = -1;
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));

    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t zero, copyIn, kernel, host, copyOut, join;

    cudaMemsetParams mp = {};
    mp.dst = d_out;
    mp.value = 0;
    mp.elementSize = sizeof(int);
    mp.width = n;
    mp.height = 1;
    CHECK(cudaGraphAddMemsetNode(&zero, g, nullptr, 0, &mp));
    CHECK(cudaGraphAddMemcpyNode1D(&copyIn, g, nullptr, 0, d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice));

    int count = n, k = 2;
    void* args[] = {&d_in, &d_out, &count, &k};
    cudaKernelNodeParams kp = {};
    kp.func = (void*)scaleAdd;
    kp.gridDim = dim3((n + 127) / 128);
    kp.blockDim = dim3(128);
    kp.kernelParams = args;
    cudaGraphNode_t before[] = {zero, copyIn};
    CHECK(cudaGraphAddKernelNode(&kernel, g, before, 2, &kp));
    k = 1000;   // the node copied the arguments when it was made

    Tally tally = {0, h_out};
    cudaHostNodeParams hp = {hostStep, &tally};
    CHECK(cudaGraphAddHostNode(&host, g, &kernel, 1, &hp));

    cudaMemcpy3DParms cp = {};
    cp.srcPtr = make_cudaPitchedPtr(d_out, n * sizeof(int), n, 1);
    cp.dstPtr = make_cudaPitchedPtr(h_out, n * sizeof(int), n, 1);
    cp.extent = make_cudaExtent(n * sizeof(int), 1, 1);
    cp.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaGraphAddMemcpyNode(&copyOut, g, nullptr, 0, &cp));
    CHECK(cudaGraphAddDependencies(g, &kernel, &copyOut, nullptr, 1));
    cudaGraphNode_t ends[] = {host, copyOut};
    CHECK(cudaGraphAddEmptyNode(&join, g, ends, 2));

    size_t nodes = 0, roots = 0;
    CHECK(cudaGraphGetNodes(g, nullptr, &nodes));
    CHECK(cudaGraphGetRootNodes(g, nullptr, &roots));
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(copyOut, &t));
    printf("nodes %zu, roots %zu, copy-out node type %d\n", nodes, roots, (int)t);

    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    for (int r = 0; r < 3; ++r) CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    printf("after 3 launches: out[5] = %d, out[16] = %d, out[299] = %d, host calls %d\n", h_out[5], h_out[16], h_out[299], tally.calls);

    // A new argument for the kernel of the executable graph.
    int k3 = 3;
    void* args3[] = {&d_in, &d_out, &count, &k3};
    kp.kernelParams = args3;
    CHECK(cudaGraphExecKernelNodeSetParams(exec, kernel, &kp));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    printf("k = 3: out[5] = %d, out[16] = %d\n", h_out[5], h_out[16]);

    // An edited graph of the same shape updates the executable graph.
    int k5 = 5;
    void* args5[] = {&d_in, &d_out, &count, &k5};
    kp.kernelParams = args5;
    CHECK(cudaGraphKernelNodeSetParams(kernel, &kp));
    cudaGraphExecUpdateResultInfo info;
    CHECK(cudaGraphExecUpdate(exec, g, &info));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    printf("updated, k = 5: out[5] = %d, result %d\n", h_out[5], (int)info.result);

    // One more node makes the update fail: the topology changed.
    cudaGraphNode_t extra;
    CHECK(cudaGraphAddEmptyNode(&extra, g, &join, 1));
    cudaError_t up = cudaGraphExecUpdate(exec, g, &info);
    printf("update after adding a node: %s, result %d\n", cudaGetErrorName(up), (int)info.result);
    cudaGetLastError();

    cudaGraph_t copy;
    CHECK(cudaGraphClone(&copy, g));
    size_t cloned = 0;
    CHECK(cudaGraphGetNodes(copy, nullptr, &cloned));
    cudaGraphExec_t exec2;
    CHECK(cudaGraphInstantiate(&exec2, copy, 0));
    CHECK(cudaGraphLaunch(exec2, s));
    CHECK(cudaStreamSynchronize(s));
    printf("clone: %zu nodes, out[5] = %d, host calls %d\n", cloned, h_out[5], tally.calls);

    CHECK(cudaGraphExecDestroy(exec2));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(copy));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaStreamDestroy(s));
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
