// A __managed__ variable: clang 14 ignores the attribute for CUDA, so warpscope makes every use an
// error that says what to do instead.
__managed__ int counter;

__global__ void bump() { atomicAdd(&counter, 1); }

int main() {
    bump<<<1, 1>>>();
    return counter;
}
