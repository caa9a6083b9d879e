// Graph memory nodes: a graph that allocates, fills, squares, copies out and frees its own
// buffer (cudaGraphAddMemAllocNode/MemFreeNode), launched twice; an allocation the graph leaves
// alive, used and freed outside it, and a relaunch while it is still alive; the same work by
// stream capture of cudaMallocAsync/cudaFreeAsync; the graph-memory attributes and the trim.
#include <cstdio>
#include <cstring>

__global__ void square(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * in[i];
}
__global__ void addOne(int* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += 1;
}

#define CHECK(x)                                                                                       \
    do {                                                                                               \
        cudaError_t e_ = (x);                                                                          \
        if (e_ != cudaSuccess) {                                                                       \
            printf("line %d: %s failed: %s\n", __LINE__, #x, cudaGetErrorName(e_));                   \
            return 1;                                                                                  \
        }                                                                                              \
    } while (0)

static long long sum(const int* a, int n) {
    long long s = 0;
    for (int i = 0; i < n; ++i) s += a[i];
    return s;
}

int main() {
    const int n = 1000;
    const size_t bytes = n * sizeof(int);
    int h_in[n], h_out[n];
    for (int i = 0; i < n; ++i) h_in[i] = i % 23;
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    // 1. alloc in, alloc out, copy in, square, copy out, free both: all inside the graph.
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.bytesize = bytes;
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    cudaGraphNode_t allocIn, allocOut, copyIn, kernel, copyOut, freeIn, freeOut;
    CHECK(cudaGraphAddMemAllocNode(&allocIn, g, nullptr, 0, &ap));
    int* d_in = (int*)ap.dptr;
    CHECK(cudaGraphAddMemAllocNode(&allocOut, g, &allocIn, 1, &ap));
    int* d_out = (int*)ap.dptr;
    printf("allocation addresses: %s, %s\n", d_in ? "set" : "null", d_in != d_out ? "distinct" : "the same");
    CHECK(cudaGraphAddMemcpyNode1D(&copyIn, g, &allocOut, 1, d_in, h_in, bytes, cudaMemcpyHostToDevice));
    int count = n;
    void* args[] = {&d_in, &d_out, &count};
    cudaKernelNodeParams kp = {};
    kp.func = (void*)square;
    kp.gridDim = dim3((n + 255) / 256);
    kp.blockDim = dim3(256);
    kp.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&kernel, g, &copyIn, 1, &kp));
    CHECK(cudaGraphAddMemcpyNode1D(&copyOut, g, &kernel, 1, h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaGraphAddMemFreeNode(&freeIn, g, &kernel, 1, d_in));
    CHECK(cudaGraphAddMemFreeNode(&freeOut, g, &copyOut, 1, d_out));
    cudaGraphNodeType t1, t2;
    CHECK(cudaGraphNodeGetType(allocIn, &t1));
    CHECK(cudaGraphNodeGetType(freeOut, &t2));
    printf("node types: alloc %s, free %s\n", t1 == cudaGraphNodeTypeMemAlloc ? "MemAlloc" : "other",
           t2 == cudaGraphNodeTypeMemFree ? "MemFree" : "other");
    cudaMemAllocNodeParams back;
    CHECK(cudaGraphMemAllocNodeGetParams(allocOut, &back));
    void* freed = nullptr;
    CHECK(cudaGraphMemFreeNodeGetParams(freeOut, &freed));
    printf("node parameters: %zu bytes at the same address: %s; free node frees it: %s\n", back.bytesize, back.dptr == d_out ? "yes" : "no",
           freed == d_out ? "yes" : "no");
    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(g, nullptr, &nodes));
    printf("explicit graph: %zu nodes\n", nodes);
    cudaGraphExec_t ge;
    CHECK(cudaGraphInstantiate(&ge, g, 0));
    for (int launch = 1; launch <= 2; ++launch) {
        memset(h_out, 0, sizeof h_out);
        CHECK(cudaGraphLaunch(ge, s));
        CHECK(cudaStreamSynchronize(s));
        printf("launch %d: sum of squares %lld\n", launch, sum(h_out, n));
        for (int i = 0; i < n; ++i) h_in[i] += 1;   // the copy node reads the host array at each launch
    }
    // A graph's allocation is not the program's: cudaFree of it while the graph has freed it
    // is an error.
    cudaError_t e = cudaFree(d_out);
    printf("cudaFree of a freed graph allocation: %s\n", cudaGetErrorName(e));
    cudaGetLastError();

    // 2. An allocation the graph leaves alive: used after the launch, freed outside.
    cudaGraph_t g2;
    CHECK(cudaGraphCreate(&g2, 0));
    cudaGraphNode_t a2, k2;
    CHECK(cudaGraphAddMemAllocNode(&a2, g2, nullptr, 0, &ap));
    int* d_keep = (int*)ap.dptr;
    void* args2[] = {&d_keep, &count};
    kp.func = (void*)addOne;
    kp.kernelParams = args2;
    CHECK(cudaGraphAddKernelNode(&k2, g2, &a2, 1, &kp));
    cudaGraphExec_t ge2;
    CHECK(cudaGraphInstantiate(&ge2, g2, 0));
    CHECK(cudaGraphLaunch(ge2, s));
    CHECK(cudaMemsetAsync(d_keep, 0, bytes, s));   // alive now, until freed
    CHECK(cudaStreamSynchronize(s));
    e = cudaGraphLaunch(ge2, s);   // its allocation is still alive
    printf("relaunch while its allocation is alive: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    CHECK(cudaFree(d_keep));
    CHECK(cudaGraphLaunch(ge2, s));   // allocates again, at the same address
    CHECK(cudaMemsetAsync(d_keep, 0, bytes, s));
    addOne<<<(n + 255) / 256, 256, 0, s>>>(d_keep, n);
    CHECK(cudaMemcpyAsync(h_out, d_keep, bytes, cudaMemcpyDeviceToHost, s));
    CHECK(cudaFreeAsync(d_keep, s));
    CHECK(cudaStreamSynchronize(s));
    printf("kept allocation: sum %lld\n", sum(h_out, n));

    // 3. The same as graph 1 by stream capture.
    for (int i = 0; i < n; ++i) h_in[i] = i % 23;
    cudaGraph_t g3;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    int *c_in, *c_out;
    CHECK(cudaMallocAsync((void**)&c_in, bytes, s));
    CHECK(cudaMallocAsync((void**)&c_out, bytes, s));
    CHECK(cudaMemcpyAsync(c_in, h_in, bytes, cudaMemcpyHostToDevice, s));
    square<<<(n + 255) / 256, 256, 0, s>>>(c_in, c_out, n);
    CHECK(cudaFreeAsync(c_in, s));
    CHECK(cudaMemcpyAsync(h_out, c_out, bytes, cudaMemcpyDeviceToHost, s));
    CHECK(cudaFreeAsync(c_out, s));
    CHECK(cudaStreamEndCapture(s, &g3));
    CHECK(cudaGraphGetNodes(g3, nullptr, &nodes));
    cudaGraphNode_t list[16];
    size_t got = 16;
    CHECK(cudaGraphGetNodes(g3, list, &got));
    int allocs = 0, frees = 0;
    for (size_t i = 0; i < got; ++i) {
        cudaGraphNodeType t;
        CHECK(cudaGraphNodeGetType(list[i], &t));
        allocs += t == cudaGraphNodeTypeMemAlloc;
        frees += t == cudaGraphNodeTypeMemFree;
    }
    printf("captured graph: %zu nodes, %d alloc, %d free\n", nodes, allocs, frees);
    cudaGraphExec_t ge3;
    CHECK(cudaGraphInstantiate(&ge3, g3, 0));
    for (int launch = 1; launch <= 2; ++launch) {
        memset(h_out, 0, sizeof h_out);
        CHECK(cudaGraphLaunch(ge3, s));
        CHECK(cudaStreamSynchronize(s));
        printf("captured launch %d: sum of squares %lld\n", launch, sum(h_out, n));
    }

    // 4. The device's graph memory: what it reached, and the trim.
    size_t high = 0, current = 0;
    CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &high));
    CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &current));
    printf("graph memory: high %s 2 buffers, in use now %zu\n", high >= 2 * bytes ? ">=" : "<", current);
    CHECK(cudaDeviceGraphMemTrim(0));
    CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &current));
    printf("reserved after the trim: %zu\n", current);
    size_t zero = 0;
    CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
    CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &high));
    printf("high after reset: %zu\n", high);
    e = cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero);
    printf("setting the current use: %s\n", cudaGetErrorName(e));
    cudaGetLastError();

    CHECK(cudaGraphExecDestroy(ge));
    CHECK(cudaGraphExecDestroy(ge2));
    CHECK(cudaGraphExecDestroy(ge3));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(g2));
    CHECK(cudaGraphDestroy(g3));
    CHECK(cudaStreamDestroy(s));
    printf("done\n");
    return 0;
}
