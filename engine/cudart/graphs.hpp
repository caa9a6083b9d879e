// CUDA graphs in warpscope's runtime: graphs built node by node (graphs.cpp) and graphs made by
// stream capture (SimDevice's, launched through runtime.cpp), behind one cudaGraph_t.
#pragma once
#include "cudart/include/driver_types.h"

#include <string>
#include <vector>

namespace warpscope::cudart {
// graphs.cpp: a cudaGraph_t holding captured graph `graph` as one node per captured operation
// (`kinds`: SimDevice::graphNodeKinds), launched as a whole.
cudaGraph_t graphFromCapture(int graph, const std::string& kinds);
// runtime.cpp: runs captured graph `graph` on `stream`.
cudaError_t launchCapturedGraph(int graph, cudaStream_t stream);
// runtime.cpp: the byte size of each parameter of kernel `func` (its host stub), from the PTX.
bool kernelParamSizes(const void* func, std::vector<size_t>* sizes, std::string* why);
// runtime.cpp: prints `message` once ("warpscope: ...") and returns `e` as the last error.
cudaError_t graphError(cudaError_t e, const std::string& message);
// runtime.cpp: graph memory. Reserve: device memory at a fixed address, not yet allocated.
cudaError_t graphMemReserve(size_t bytes, void** out);
bool graphMemKnown(const void* p);
bool graphMemAllocated(const void* p);
void graphMemSetAllocated(const void* p, bool allocated);   // an allocation or free node ran
cudaError_t graphMemFree(void* p, const char* call);          // cudaFree/cudaFreeAsync of one
} // namespace warpscope::cudart
