// Launch without writing JSON: the kernels of a build (PTX .entry names and parameter types, the
// .cu signature for the C++ element types) and the launch spec the Launch panel edits, written
// out in the lesson.json format (docs/lesson-format.md).
//
// Sections: 1. signatures  2. the launch spec
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::gui {

// ---------------------------------------------------------------- 1. signatures
struct KernelParam {
    std::string name;        // from the .cu ("p0", "p1", ... when only the PTX is known)
    std::string cppType;     // "const float*", "int" (empty when only the PTX is known)
    bool pointer = false;
    std::string elemType;    // lesson buffer / scalar type: f32, s32, u8, ...
};
struct KernelSignature {
    std::string name;        // the PTX .entry name (what a "launch" names)
    int line = 0;            // the .cu line of the signature (0 when unknown)
    std::vector<KernelParam> params;
    bool twoD = false;       // its body indexes threadIdx.y or blockIdx.y (a 2D launch)
    bool dynamicShared = false;   // its PTX uses an `extern __shared__` array (sized at launch)
};

// `__global__` functions in CUDA C++ text, with their parameters (comments and strings skipped).
std::vector<KernelSignature> parseCudaKernels(const std::string& source);
// `.entry` kernels in PTX text; parameter types from the .param declarations (.u64 may be a pointer).
std::vector<KernelSignature> parsePtxEntries(const std::string& ptx);
// The PTX entries, named and typed from the .cu signatures where they match (same name, or the
// C++-mangled name of it); an entry the .cu does not explain keeps its PTX types.
std::vector<KernelSignature> mergeSignatures(const std::vector<KernelSignature>& ptx, const std::vector<KernelSignature>& cuda);
// The lesson element type for a C++ type ("const float" -> f32, "unsigned int" -> u32); empty when unknown.
std::string elementTypeFor(const std::string& cppType);

// ---------------------------------------------------------------- 2. the launch spec
enum class BufferInit : uint8_t { Zeros, Iota, Random, Constant, File };
const char* bufferInitName(BufferInit i);

struct LaunchArg {
    std::string name;
    bool pointer = false;
    std::string type = "f32";      // element type (buffers) or value type (scalars)
    // Buffers
    uint64_t count = 1024;
    BufferInit init = BufferInit::Zeros;
    double constant = 0;           // Constant
    double randomMin = 0, randomMax = 1;
    std::string file;              // File: raw little-endian bytes
    std::string expect;            // optional check: comma-separated values the buffer must start with
    // Scalars
    double value = 0;
};

struct LaunchSpec {
    std::string kernel;            // the entry launched
    uint32_t grid[3] = {4, 1, 1};
    uint32_t block[3] = {256, 1, 1};
    uint32_t sharedBytes = 0;      // dynamic shared memory per block (the launch's third <<< >>> argument)
    std::vector<LaunchArg> args;   // in parameter order
};

// A first spec for a kernel that runs as it is: 1024-element buffers (inputs that are const get
// iota, others zeros) and integer scalars by their names: an element count (n, count, size, len)
// 1024, or the side of a 32 x 32 matrix in a 2D kernel (n, width, height, rows, cols, M, N, K);
// radius 3, stride 1, offset 0, anything else 1. A 1D launch of 4 x 256 threads, or for a 2D
// kernel 2 x 2 blocks of 16 x 16 covering the 32 x 32 matrix. A kernel with an `extern __shared__`
// array gets 4 bytes of dynamic shared memory per thread of the block (one float each).
LaunchSpec defaultLaunchSpec(const KernelSignature& kernel);
// Keeps what the user set for arguments that still exist (same name and kind) when the kernel
// changes after a build; new arguments get their defaults.
LaunchSpec refreshLaunchSpec(const LaunchSpec& old, const KernelSignature& kernel);
// The lesson.json text for the spec. Throws Error(Input) for a spec that cannot be written
// (a zero dimension, an expect list that is not numbers).
std::string launchSpecJson(const LaunchSpec& spec, const std::string& title, const std::string& sourceFile, const std::string& ptxFile);

} // namespace warpscope::gui
