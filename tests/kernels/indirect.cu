// Indirect calls on the simulator (tests/engine/sim/indirect_test.cpp): function pointers in a
// __device__ and a __constant__ table, virtual functions of device classes (their vtables in
// global memory, as nvcc and clang emit them), lanes of one warp calling different functions,
// and a call through a pointer that is not a function.
#include <new>

typedef int (*binop)(int, int);
__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }
__device__ __noinline__ int op_sub(int a, int b) { return a - b; }
__device__ __noinline__ int op_max(int a, int b) { return a > b ? a : b; }
__device__ binop g_ops[4] = {op_add, op_mul, op_sub, op_max};
__constant__ binop c_ops[4] = {op_add, op_mul, op_sub, op_max};

// out[i] = op[which[i] & 3](a[i], 3), the table in global or constant memory.
extern "C" __global__ void apply_ops(const int* which, const int* a, int* out, int n, int useConst) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    binop f = useConst ? c_ops[which[i] & 3] : g_ops[which[i] & 3];
    out[i] = f(a[i], 3);
}

struct Shape {
    __device__ virtual float area() const = 0;
    __device__ virtual int sides() const { return 0; }
    // A non-virtual member that makes a virtual call.
    __device__ float scaled(float k) const { return k * area(); }
};
struct Square : Shape {
    float s;
    __device__ Square(float s) : s(s) {}
    __device__ float area() const override { return s * s; }
    __device__ int sides() const override { return 4; }
};
struct Circle : Shape {
    float r;
    __device__ Circle(float r) : r(r) {}
    __device__ float area() const override { return 3.0f * r * r; }
};
struct Triangle : Shape {
    float b, h;
    __device__ Triangle(float b, float h) : b(b), h(h) {}
    __device__ float area() const override { return 0.5f * b * h; }
    __device__ int sides() const override { return 3; }
};

// Builds shape i in pool[32 * i] (kind[i] % 3: square, circle, triangle) and stores its address.
extern "C" __global__ void make_shapes(char* pool, Shape** shapes, const int* kind, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    void* at = pool + 32 * i;
    Shape* s;
    switch (kind[i] % 3) {
    case 0: s = new (at) Square(float(i + 1)); break;
    case 1: s = new (at) Circle(float(i + 1)); break;
    default: s = new (at) Triangle(float(i + 1), 2.0f); break;
    }
    shapes[i] = s;
}

// Virtual calls through the base class, each lane's object of its own class.
extern "C" __global__ void shape_areas(Shape* const* shapes, float* area, int* sides, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const Shape* s = shapes[i];
    area[i] = s->scaled(2.0f);
    sides[i] = s->sides();
}

// A call through whatever address the host passes (0, a data address: not a function).
extern "C" __global__ void call_pointer(int* out, unsigned long long p) {
    binop f = reinterpret_cast<binop>(p);
    out[threadIdx.x] = f(int(threadIdx.x), 1);
}
