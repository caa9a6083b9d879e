// A kernel with one error, for web.compile_error (tests/web/CMakeLists.txt): line 7 uses a name
// that is declared nowhere. The page opens it in the editor, the server compiles it, and the
// editor marks the error at line 7.
__global__ void scale(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] = a * x[i] + offset;
    }
}
