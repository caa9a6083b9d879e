// CUDA graphs built node by node (cudaGraphCreate, cudaGraphAdd*Node, cudaGraphAddDependencies,
// cudaGraphInstantiate, cudaGraphLaunch, cudaGraphExecUpdate, ...), and the graphs stream capture
// makes, behind one cudaGraph_t.
//
// A graph is its nodes (kernel, memcpy, memset, host, empty, or a captured graph) and their
// dependencies. cudaGraphInstantiate copies it (later edits of the graph do not change the
// executable graph, as in CUDA) and orders the nodes: a topological order of the dependencies,
// the earliest-added ready node first. cudaGraphLaunch issues them in that order to the launch
// stream through the runtime's own calls (cudaLaunchKernel, cudaMemcpyAsync, cudaMemsetAsync,
// cudaLaunchHostFunc), so the timeline shows them one after another on that stream: an order
// the graph allows, without the overlap of independent branches a GPU may give.
#include "cudart/graphs.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace {
struct Dim3 {
    unsigned x, y, z;
};
} // namespace

// The parameter structs of cuda_runtime_api.h (the same layout; dim3 is three unsigned ints).
struct cudaKernelNodeParams {
    void* func;
    Dim3 gridDim;
    Dim3 blockDim;
    unsigned int sharedMemBytes;
    void** kernelParams;
    void** extra;
};

extern "C" {
cudaError_t cudaLaunchKernel(const void* func, Dim3 grid, Dim3 block, void** args, size_t sharedMem, cudaStream_t stream);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
}

struct CUgraphNode_st {
    cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
    size_t index = 0;                       // its place in the graph's nodes (creation order)
    std::vector<size_t> deps;               // indices of the nodes it waits for
    // kernel
    const void* func = nullptr;
    Dim3 grid{1, 1, 1}, block{1, 1, 1};
    unsigned shared = 0;
    std::vector<std::vector<uint8_t>> args;   // each argument's bytes, copied when the node was made
    // memcpy (3D with pitches, bytes) and memset (elements of elementSize bytes)
    cudaMemcpy3DParms copy{};
    cudaMemsetParams set{};
    // host
    cudaHostFn_t fn = nullptr;
    void* userData = nullptr;
    // a graph allocation (MemAlloc: its parameters, the address filled in) or the one a MemFree frees
    cudaMemAllocNodeParams alloc{};
    void* freePtr = nullptr;
    // a graph made by stream capture (runs as a whole); `captureKind` is its node's kind
    int captured = -1;
    char captureKind = 0;
};

struct CUgraph_st {
    std::vector<std::unique_ptr<CUgraphNode_st>> nodes;
};

struct CUgraphExec_st {
    CUgraph_st graph;
    std::vector<size_t> order;   // the nodes in the order each launch issues them
    bool autoFree = false;       // cudaGraphInstantiateFlagAutoFreeOnLaunch
};

namespace {
using warpscope::cudart::graphError;

std::mutex g_mutex;
std::set<const CUgraph_st*> g_graphs;
std::set<const CUgraphExec_st*> g_execs;

bool liveGraph(const CUgraph_st* g) {
    std::lock_guard<std::mutex> l(g_mutex);
    return g && g_graphs.count(g);
}

// Copies `from` into `to` node for node (dependencies are indices, so they carry over).
void copyGraph(CUgraph_st& to, const CUgraph_st& from) {
    to.nodes.clear();
    for (auto& n : from.nodes) to.nodes.push_back(std::make_unique<CUgraphNode_st>(*n));
}

// Adds a node after checking the graph and the dependencies (nodes of this graph).
cudaError_t addNode(cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t numDeps, std::unique_ptr<CUgraphNode_st> node,
                    const char* call) {
    if (!out) return graphError(cudaErrorInvalidValue, std::string(call) + ": pGraphNode is NULL");
    if (!liveGraph(graph)) return graphError(cudaErrorInvalidValue, std::string(call) + ": not a graph made by cudaGraphCreate or stream capture");
    if (numDeps && !deps) return graphError(cudaErrorInvalidValue, std::string(call) + ": numDependencies > 0 but pDependencies is NULL");
    for (size_t i = 0; i < numDeps; ++i) {
        const CUgraphNode_st* d = deps[i];
        if (!d || d->index >= graph->nodes.size() || graph->nodes[d->index].get() != d)
            return graphError(cudaErrorInvalidValue, std::string(call) + ": dependency " + std::to_string(i) + " is not a node of this graph");
        if (std::find(node->deps.begin(), node->deps.end(), d->index) != node->deps.end())
            return graphError(cudaErrorInvalidValue, std::string(call) + ": dependency " + std::to_string(i) + " is listed twice");
        node->deps.push_back(d->index);
    }
    node->index = graph->nodes.size();
    *out = node.get();
    graph->nodes.push_back(std::move(node));
    return cudaSuccess;
}

// The kernel node's arguments, copied (the caller's kernelParams need not outlive the call).
cudaError_t fillKernel(CUgraphNode_st& n, const cudaKernelNodeParams* p, const char* call) {
    if (!p || !p->func) return graphError(cudaErrorInvalidValue, std::string(call) + ": no kernel parameters or no function");
    if (p->extra) return graphError(cudaErrorNotSupported, std::string(call) + ": arguments passed through 'extra' are not supported by warpscope; use kernelParams");
    std::vector<size_t> sizes;
    std::string why;
    if (!warpscope::cudart::kernelParamSizes(p->func, &sizes, &why)) return graphError(cudaErrorInvalidDeviceFunction, std::string(call) + ": " + why);
    std::vector<std::vector<uint8_t>> args;
    for (size_t i = 0; i < sizes.size(); ++i) {
        if (!p->kernelParams || !p->kernelParams[i])
            return graphError(cudaErrorInvalidValue, std::string(call) + ": kernel argument " + std::to_string(i) + " is missing from kernelParams");
        const auto* b = static_cast<const uint8_t*>(p->kernelParams[i]);
        args.emplace_back(b, b + sizes[i]);
    }
    n.type = cudaGraphNodeTypeKernel;
    n.func = p->func;
    n.grid = p->gridDim;
    n.block = p->blockDim;
    n.shared = p->sharedMemBytes;
    n.args = std::move(args);
    return cudaSuccess;
}

// A topological order of the nodes, the earliest-added ready node first; false on a cycle.
bool orderNodes(const CUgraph_st& g, std::vector<size_t>* order) {
    const size_t n = g.nodes.size();
    std::vector<size_t> waiting(n, 0);
    std::vector<std::vector<size_t>> next(n);
    for (size_t i = 0; i < n; ++i)
        for (size_t d : g.nodes[i]->deps) {
            ++waiting[i];
            next[d].push_back(i);
        }
    std::set<size_t> ready;
    for (size_t i = 0; i < n; ++i)
        if (waiting[i] == 0) ready.insert(i);
    order->clear();
    while (!ready.empty()) {
        const size_t i = *ready.begin();
        ready.erase(ready.begin());
        order->push_back(i);
        for (size_t j : next[i])
            if (--waiting[j] == 0) ready.insert(j);
    }
    return order->size() == n;
}

// One node, issued to `stream`.
cudaError_t runNode(const CUgraphNode_st& n, cudaStream_t stream) {
    switch (n.type) {
    case cudaGraphNodeTypeKernel: {
        std::vector<void*> ptrs;
        for (auto& a : n.args) ptrs.push_back(const_cast<uint8_t*>(a.data()));
        return cudaLaunchKernel(n.func, n.grid, n.block, ptrs.empty() ? nullptr : ptrs.data(), n.shared, stream);
    }
    case cudaGraphNodeTypeMemcpy: {
        const cudaMemcpy3DParms& c = n.copy;
        const size_t rows = std::max<size_t>(c.extent.height, 1), slices = std::max<size_t>(c.extent.depth, 1);
        const size_t sp = c.srcPtr.pitch ? c.srcPtr.pitch : c.extent.width, dp = c.dstPtr.pitch ? c.dstPtr.pitch : c.extent.width;
        const size_t sh = c.srcPtr.ysize ? c.srcPtr.ysize : rows, dh = c.dstPtr.ysize ? c.dstPtr.ysize : rows;
        // Contiguous on both sides: one copy; else one per row.
        if (sp == c.extent.width && dp == c.extent.width && (slices == 1 || (sh == rows && dh == rows)) && c.srcPos.x == 0 && c.dstPos.x == 0) {
            const size_t off = 0;
            auto* dst = static_cast<uint8_t*>(c.dstPtr.ptr) + (c.dstPos.z * dh + c.dstPos.y) * dp + off;
            auto* src = static_cast<const uint8_t*>(c.srcPtr.ptr) + (c.srcPos.z * sh + c.srcPos.y) * sp + off;
            return cudaMemcpyAsync(dst, src, c.extent.width * rows * slices, c.kind, stream);
        }
        for (size_t z = 0; z < slices; ++z)
            for (size_t y = 0; y < rows; ++y) {
                auto* dst = static_cast<uint8_t*>(c.dstPtr.ptr) + ((c.dstPos.z + z) * dh + c.dstPos.y + y) * dp + c.dstPos.x;
                auto* src = static_cast<const uint8_t*>(c.srcPtr.ptr) + ((c.srcPos.z + z) * sh + c.srcPos.y + y) * sp + c.srcPos.x;
                if (cudaError_t e = cudaMemcpyAsync(dst, src, c.extent.width, c.kind, stream); e != cudaSuccess) return e;
            }
        return cudaSuccess;
    }
    case cudaGraphNodeTypeMemset: {
        const cudaMemsetParams& m = n.set;
        const size_t rowBytes = m.width * m.elementSize, rows = std::max<size_t>(m.height, 1);
        uint8_t pattern[4];
        std::memcpy(pattern, &m.value, 4);
        const bool uniform = m.elementSize == 1 || std::all_of(pattern + 1, pattern + m.elementSize, [&](uint8_t b) { return b == pattern[0]; });
        for (size_t y = 0; y < rows; ++y) {
            auto* row = static_cast<uint8_t*>(m.dst) + y * m.pitch;
            if (uniform) {
                if (cudaError_t e = cudaMemsetAsync(row, pattern[0], rowBytes, stream); e != cudaSuccess) return e;
                continue;
            }
            // Elements of 2 or 4 bytes that are not one repeated byte: the row is written from the
            // host (a pageable copy on the timeline, where the GPU runs a memset kernel).
            std::vector<uint8_t> bytes(rowBytes);
            for (size_t k = 0; k < rowBytes; ++k) bytes[k] = pattern[k % m.elementSize];
            if (cudaError_t e = cudaMemcpyAsync(row, bytes.data(), rowBytes, cudaMemcpyHostToDevice, stream); e != cudaSuccess) return e;
            if (cudaError_t e = cudaStreamSynchronize(stream); e != cudaSuccess) return e;
        }
        return cudaSuccess;
    }
    case cudaGraphNodeTypeHost: return cudaLaunchHostFunc(stream, n.fn, n.userData);
    // The simulator has run the stream's earlier work when a node is issued, so the allocation
    // and the free happen in the order the graph gives them.
    case cudaGraphNodeTypeMemAlloc: warpscope::cudart::graphMemSetAllocated(n.alloc.dptr, true); return cudaSuccess;
    case cudaGraphNodeTypeMemFree: warpscope::cudart::graphMemSetAllocated(n.freePtr, false); return cudaSuccess;
    case cudaGraphNodeTypeGraph: return warpscope::cudart::launchCapturedGraph(n.captured, stream);
    default: return cudaSuccess;   // empty nodes order the others
    }
}

cudaGraphNodeType typeOfCaptured(char k) {
    switch (k) {
    case 'k': return cudaGraphNodeTypeKernel;
    case 'c': return cudaGraphNodeTypeMemcpy;
    case 'm': return cudaGraphNodeTypeMemset;
    case 'h': return cudaGraphNodeTypeHost;
    case 'a': return cudaGraphNodeTypeMemAlloc;
    case 'f': return cudaGraphNodeTypeMemFree;
    default: return cudaGraphNodeTypeEmpty;
    }
}
} // namespace

namespace warpscope::cudart {
cudaGraph_t graphFromCapture(int graph, const std::string& kinds) {
    auto* g = new CUgraph_st;
    // The captured operations run as one piece (SimDevice's graph): the first node carries it, the
    // others stand for its other operations, in issue order, each after the one before.
    for (size_t i = 0; i < std::max<size_t>(kinds.size(), 1); ++i) {
        auto n = std::make_unique<CUgraphNode_st>();
        n->index = i;
        n->captureKind = i < kinds.size() ? kinds[i] : 'e';
        n->type = i == 0 ? cudaGraphNodeTypeGraph : cudaGraphNodeTypeEmpty;
        n->captured = i == 0 ? graph : -1;
        if (i > 0) n->deps.push_back(i - 1);
        g->nodes.push_back(std::move(n));
    }
    if (kinds.empty()) g->nodes[0]->type = cudaGraphNodeTypeGraph;
    std::lock_guard<std::mutex> l(g_mutex);
    g_graphs.insert(g);
    return g;
}
} // namespace warpscope::cudart

extern "C" {

cudaError_t cudaGraphCreate(cudaGraph_t* pGraph, unsigned int flags) {
    if (!pGraph || flags != 0) return graphError(cudaErrorInvalidValue, "cudaGraphCreate: pGraph is NULL or flags is not 0");
    *pGraph = new CUgraph_st;
    std::lock_guard<std::mutex> l(g_mutex);
    g_graphs.insert(*pGraph);
    return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                   const cudaKernelNodeParams* pNodeParams) {
    auto n = std::make_unique<CUgraphNode_st>();
    if (cudaError_t e = fillKernel(*n, pNodeParams, "cudaGraphAddKernelNode"); e != cudaSuccess) return e;
    return addNode(pGraphNode, graph, pDependencies, numDependencies, std::move(n), "cudaGraphAddKernelNode");
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                   const cudaMemcpy3DParms* p) {
    if (!p) return graphError(cudaErrorInvalidValue, "cudaGraphAddMemcpyNode: pCopyParams is NULL");
    if (p->srcArray || p->dstArray) return graphError(cudaErrorNotSupported, "cudaGraphAddMemcpyNode: CUDA arrays are not supported by warpscope (no textures)");
    if (!p->srcPtr.ptr || !p->dstPtr.ptr) return graphError(cudaErrorInvalidValue, "cudaGraphAddMemcpyNode: srcPtr.ptr or dstPtr.ptr is NULL");
    auto n = std::make_unique<CUgraphNode_st>();
    n->type = cudaGraphNodeTypeMemcpy;
    n->copy = *p;
    return addNode(pGraphNode, graph, pDependencies, numDependencies, std::move(n), "cudaGraphAddMemcpyNode");
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                     void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
    if (!dst || !src) return graphError(cudaErrorInvalidValue, "cudaGraphAddMemcpyNode1D: dst or src is NULL");
    auto n = std::make_unique<CUgraphNode_st>();
    n->type = cudaGraphNodeTypeMemcpy;
    n->copy.srcPtr = {const_cast<void*>(src), count, count, 1};
    n->copy.dstPtr = {dst, count, count, 1};
    n->copy.extent = {count, 1, 1};
    n->copy.kind = kind;
    return addNode(pGraphNode, graph, pDependencies, numDependencies, std::move(n), "cudaGraphAddMemcpyNode1D");
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                   const cudaMemsetParams* p) {
    if (!p || !p->dst) return graphError(cudaErrorInvalidValue, "cudaGraphAddMemsetNode: no parameters or dst is NULL");
    if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)
        return graphError(cudaErrorInvalidValue, "cudaGraphAddMemsetNode: elementSize must be 1, 2 or 4 (got " + std::to_string(p->elementSize) + ")");
    if (p->height > 1 && p->pitch < p->width * p->elementSize)
        return graphError(cudaErrorInvalidValue, "cudaGraphAddMemsetNode: pitch is smaller than a row (width * elementSize)");
    auto n = std::make_unique<CUgraphNode_st>();
    n->type = cudaGraphNodeTypeMemset;
    n->set = *p;
    return addNode(pGraphNode, graph, pDependencies, numDependencies, std::move(n), "cudaGraphAddMemsetNode");
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                 const cudaHostNodeParams* p) {
    if (!p || !p->fn) return graphError(cudaErrorInvalidValue, "cudaGraphAddHostNode: no parameters or fn is NULL");
    auto n = std::make_unique<CUgraphNode_st>();
    n->type = cudaGraphNodeTypeHost;
    n->fn = p->fn;
    n->userData = p->userData;
    return addNode(pGraphNode, graph, pDependencies, numDependencies, std::move(n), "cudaGraphAddHostNode");
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies, size_t numDependencies) {
    return addNode(pGraphNode, graph, pDependencies, numDependencies, std::make_unique<CUgraphNode_st>(), "cudaGraphAddEmptyNode");
}

// Graph memory: the allocation's address is fixed now (the caller gets it in dptr); the node
// allocates it at each launch, a free node (or cudaFree/cudaFreeAsync after the launch) frees it.
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                     cudaMemAllocNodeParams* p) {
    const char* call = "cudaGraphAddMemAllocNode";
    if (!p || p->bytesize == 0) return graphError(cudaErrorInvalidValue, std::string(call) + ": no parameters, or bytesize is 0");
    if (p->poolProps.allocType != cudaMemAllocationTypePinned || p->poolProps.location.type != cudaMemLocationTypeDevice)
        return graphError(cudaErrorInvalidValue, std::string(call) + ": poolProps must be allocType cudaMemAllocationTypePinned on cudaMemLocationTypeDevice");
    if (p->poolProps.location.id != 0) return graphError(cudaErrorInvalidDevice, std::string(call) + ": the simulator has one device, 0");
    if (!liveGraph(graph)) return graphError(cudaErrorInvalidValue, std::string(call) + ": not a graph made by cudaGraphCreate or stream capture");
    auto n = std::make_unique<CUgraphNode_st>();
    n->type = cudaGraphNodeTypeMemAlloc;
    void* at = nullptr;
    if (cudaError_t e = warpscope::cudart::graphMemReserve(p->bytesize, &at); e != cudaSuccess) return e;
    n->alloc = *p;
    n->alloc.accessDescs = nullptr;   // the caller's array need not outlive the call
    n->alloc.accessDescCount = 0;
    n->alloc.dptr = at;
    if (cudaError_t e = addNode(pGraphNode, graph, pDependencies, numDependencies, std::move(n), call); e != cudaSuccess) return e;
    p->dptr = at;
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                    void* dptr) {
    const char* call = "cudaGraphAddMemFreeNode";
    if (!liveGraph(graph)) return graphError(cudaErrorInvalidValue, std::string(call) + ": not a graph made by cudaGraphCreate or stream capture");
    if (!dptr || !warpscope::cudart::graphMemKnown(dptr))
        return graphError(cudaErrorInvalidValue, std::string(call) + ": the address was not returned by a graph's allocation node");
    for (auto& other : graph->nodes)
        if (other->type == cudaGraphNodeTypeMemFree && other->freePtr == dptr)
            return graphError(cudaErrorInvalidValue, std::string(call) + ": this graph frees that allocation already");
    auto n = std::make_unique<CUgraphNode_st>();
    n->type = cudaGraphNodeTypeMemFree;
    n->freePtr = dptr;
    return addNode(pGraphNode, graph, pDependencies, numDependencies, std::move(n), call);
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, cudaMemAllocNodeParams* out) {
    if (!node || !out || node->type != cudaGraphNodeTypeMemAlloc)
        return graphError(cudaErrorInvalidValue, "cudaGraphMemAllocNodeGetParams: not an allocation node made by cudaGraphAddMemAllocNode");
    *out = node->alloc;
    return cudaSuccess;
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void* dptrOut) {
    if (!node || !dptrOut || node->type != cudaGraphNodeTypeMemFree)
        return graphError(cudaErrorInvalidValue, "cudaGraphMemFreeNodeGetParams: not a free node made by cudaGraphAddMemFreeNode");
    *static_cast<void**>(dptrOut) = node->freePtr;
    return cudaSuccess;
}

struct cudaGraphEdgeData {
    unsigned char from_port, to_port, type, reserved[5];
};
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to, const cudaGraphEdgeData* edgeData,
                                     size_t numDependencies) {
    if (!liveGraph(graph)) return graphError(cudaErrorInvalidValue, "cudaGraphAddDependencies: not a graph");
    for (size_t i = 0; edgeData && i < numDependencies; ++i)
        if (edgeData[i].from_port || edgeData[i].to_port || edgeData[i].type)
            return graphError(cudaErrorNotSupported, "cudaGraphAddDependencies: edges with ports or a type (programmatic dependent launch) are not supported by warpscope");
    if (numDependencies && (!from || !to)) return graphError(cudaErrorInvalidValue, "cudaGraphAddDependencies: from or to is NULL");
    auto mine = [&](const CUgraphNode_st* n) { return n && n->index < graph->nodes.size() && graph->nodes[n->index].get() == n; };
    for (size_t i = 0; i < numDependencies; ++i) {
        if (!mine(from[i]) || !mine(to[i])) return graphError(cudaErrorInvalidValue, "cudaGraphAddDependencies: a node of another graph");
        auto& deps = graph->nodes[to[i]->index]->deps;
        if (std::find(deps.begin(), deps.end(), from[i]->index) != deps.end())
            return graphError(cudaErrorInvalidValue, "cudaGraphAddDependencies: that dependency exists already");
        deps.push_back(from[i]->index);
    }
    return cudaSuccess;
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* numNodes) {
    if (!liveGraph(graph) || !numNodes) return graphError(cudaErrorInvalidValue, "cudaGraphGetNodes: not a graph, or numNodes is NULL");
    if (nodes)
        for (size_t i = 0; i < std::min(*numNodes, graph->nodes.size()); ++i) nodes[i] = graph->nodes[i].get();
    *numNodes = graph->nodes.size();
    return cudaSuccess;
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* roots, size_t* numRoots) {
    if (!liveGraph(graph) || !numRoots) return graphError(cudaErrorInvalidValue, "cudaGraphGetRootNodes: not a graph, or pNumRootNodes is NULL");
    size_t k = 0;
    for (auto& n : graph->nodes)
        if (n->deps.empty()) {
            if (roots && k < *numRoots) roots[k] = n.get();
            ++k;
        }
    *numRoots = k;
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* pType) {
    if (!node || !pType) return graphError(cudaErrorInvalidValue, "cudaGraphNodeGetType: node or pType is NULL");
    *pType = node->captureKind ? typeOfCaptured(node->captureKind) : node->type;
    return cudaSuccess;
}

cudaError_t cudaGraphClone(cudaGraph_t* pGraphClone, cudaGraph_t original) {
    if (!pGraphClone || !liveGraph(original)) return graphError(cudaErrorInvalidValue, "cudaGraphClone: not a graph");
    for (auto& n : original->nodes)
        if (n->type == cudaGraphNodeTypeMemAlloc || n->type == cudaGraphNodeTypeMemFree || n->captureKind == 'a' || n->captureKind == 'f')
            return graphError(cudaErrorNotSupported, "cudaGraphClone: a graph with memory nodes cannot be cloned (CUDA's rule)");
    auto* g = new CUgraph_st;
    copyGraph(*g, *original);
    std::lock_guard<std::mutex> l(g_mutex);
    g_graphs.insert(g);
    *pGraphClone = g;
    return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* p) {
    if (!node || node->type != cudaGraphNodeTypeKernel) return graphError(cudaErrorInvalidValue, "cudaGraphKernelNodeSetParams: not a kernel node");
    return fillKernel(*node, p, "cudaGraphKernelNodeSetParams");
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, unsigned long long flags) {
    if (!pGraphExec || !liveGraph(graph)) return graphError(cudaErrorInvalidValue, "cudaGraphInstantiate: pGraphExec is NULL or not a graph");
    auto exec = std::make_unique<CUgraphExec_st>();
    exec->autoFree = (flags & cudaGraphInstantiateFlagAutoFreeOnLaunch) != 0;
    copyGraph(exec->graph, *graph);
    if (!orderNodes(exec->graph, &exec->order)) return graphError(cudaErrorInvalidValue, "cudaGraphInstantiate: the graph's dependencies form a cycle");
    *pGraphExec = exec.release();
    std::lock_guard<std::mutex> l(g_mutex);
    g_execs.insert(*pGraphExec);
    return cudaSuccess;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
    {
        std::lock_guard<std::mutex> l(g_mutex);
        if (!exec || !g_execs.count(exec)) return graphError(cudaErrorInvalidValue, "cudaGraphLaunch: not an instantiated graph");
    }
    // An allocation of the previous launch that is still allocated: an error, unless the graph was
    // instantiated to free it on launch.
    for (auto& n : exec->graph.nodes) {
        if (n->type != cudaGraphNodeTypeMemAlloc || !warpscope::cudart::graphMemAllocated(n->alloc.dptr)) continue;
        if (exec->autoFree) {
            warpscope::cudart::graphMemSetAllocated(n->alloc.dptr, false);
            continue;
        }
        char at[32];
        std::snprintf(at, sizeof at, "%p", n->alloc.dptr);
        return graphError(cudaErrorInvalidValue, std::string("cudaGraphLaunch: the graph's allocation at ") + at +
                                                     " from its previous launch is still allocated (free it first, or instantiate with "
                                                     "cudaGraphInstantiateFlagAutoFreeOnLaunch)");
    }
    for (size_t i : exec->order)
        if (cudaError_t e = runNode(*exec->graph.nodes[i], stream); e != cudaSuccess) return e;
    return cudaSuccess;
}

// The node of the executable graph that stands for `node` of the graph it was made from.
static CUgraphNode_st* execNode(cudaGraphExec_t exec, cudaGraphNode_t node) {
    if (!exec || !node || node->index >= exec->graph.nodes.size()) return nullptr;
    CUgraphNode_st* n = exec->graph.nodes[node->index].get();
    return n->type == node->type ? n : nullptr;
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const cudaKernelNodeParams* p) {
    CUgraphNode_st* n = execNode(exec, node);
    if (!n || n->type != cudaGraphNodeTypeKernel) return graphError(cudaErrorInvalidValue, "cudaGraphExecKernelNodeSetParams: not a kernel node of that graph");
    CUgraphNode_st updated = *n;
    if (cudaError_t e = fillKernel(updated, p, "cudaGraphExecKernelNodeSetParams"); e != cudaSuccess) return e;
    if (updated.func != n->func) return graphError(cudaErrorInvalidValue, "cudaGraphExecKernelNodeSetParams: the kernel cannot change");
    *n = std::move(updated);
    return cudaSuccess;
}

// Takes `graph`'s parameters into `exec` when both have the same nodes (types, kernels) and the
// same dependencies, as CUDA's update demands; else cudaErrorGraphExecUpdateFailure and why.
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph, cudaGraphExecUpdateResultInfo* info) {
    if (!liveGraph(graph)) return graphError(cudaErrorInvalidValue, "cudaGraphExecUpdate: not a graph");
    {
        std::lock_guard<std::mutex> l(g_mutex);
        if (!exec || !g_execs.count(exec)) return graphError(cudaErrorInvalidValue, "cudaGraphExecUpdate: not an instantiated graph");
    }
    auto fail = [&](cudaGraphExecUpdateResult r, const CUgraphNode_st* at) {
        if (info) *info = {r, const_cast<CUgraphNode_st*>(at), nullptr};
        return cudaErrorGraphExecUpdateFailure;
    };
    const auto& a = exec->graph.nodes;
    const auto& b = graph->nodes;
    if (a.size() != b.size()) return fail(cudaGraphExecUpdateErrorTopologyChanged, nullptr);
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i]->type != b[i]->type) return fail(cudaGraphExecUpdateErrorNodeTypeChanged, b[i].get());
        if (a[i]->deps != b[i]->deps) return fail(cudaGraphExecUpdateErrorTopologyChanged, b[i].get());
        if (a[i]->type == cudaGraphNodeTypeKernel && a[i]->func != b[i]->func) return fail(cudaGraphExecUpdateErrorFunctionChanged, b[i].get());
        if (a[i]->captured != b[i]->captured) return fail(cudaGraphExecUpdateErrorNotSupported, b[i].get());
    }
    copyGraph(exec->graph, *graph);
    if (info) *info = {cudaGraphExecUpdateSuccess, nullptr, nullptr};
    return cudaSuccess;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
    std::lock_guard<std::mutex> l(g_mutex);
    if (!exec || !g_execs.erase(exec)) return cudaErrorInvalidValue;
    delete exec;
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
    std::lock_guard<std::mutex> l(g_mutex);
    if (!graph || !g_graphs.erase(graph)) return cudaErrorInvalidValue;
    delete graph;
    return cudaSuccess;
}

} // extern "C"
