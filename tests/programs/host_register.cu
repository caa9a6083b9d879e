// Page-locking memory the program already has (cudaHostRegister): copies from it run as pinned
// copies, and registered with cudaHostRegisterMapped a kernel reaches it through the device
// pointer cudaHostGetDevicePointer gives. Then the errors of registering twice and unregistering
// what was never registered, and what cudaPointerGetAttributes says of each kind of memory.
#include <cstdio>
#include <cstdlib>

__global__ void addOne(int* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}

int main() {
    const int n = 1 << 20;
    const size_t bytes = n * sizeof(int);
    int* pageable = (int*)malloc(bytes);
    int* registered = (int*)malloc(bytes);
    for (int i = 0; i < n; ++i) pageable[i] = registered[i] = i;
    printf("register: %s\n", cudaGetErrorName(cudaHostRegister(registered, bytes, cudaHostRegisterMapped)));
    printf("register again: %s\n", cudaGetErrorName(cudaHostRegister(registered + 16, 64, 0)));
    cudaGetLastError();
    unsigned flags = 0;
    cudaHostGetFlags(&flags, registered);
    printf("flags include mapped: %s\n", flags & cudaHostRegisterMapped ? "yes" : "no");

    // A kernel works on the registered memory in place, through its device pointer.
    int* dview = nullptr;
    printf("device pointer: %s\n", cudaGetErrorName(cudaHostGetDevicePointer((void**)&dview, registered, 0)));
    addOne<<<(n + 255) / 256, 256>>>(dview, n);
    cudaDeviceSynchronize();
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += registered[i] != i + 1;
    printf("kernel on mapped registered memory: %d mismatches\n", bad);

    // The same copy from pageable and from registered memory, timed with events.
    int* d;
    cudaMalloc(&d, bytes);
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaEvent_t a, b, c;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventCreate(&c);
    cudaEventRecord(a, s);
    cudaMemcpyAsync(d, pageable, bytes, cudaMemcpyHostToDevice, s);
    cudaEventRecord(b, s);
    cudaMemcpyAsync(d, registered, bytes, cudaMemcpyHostToDevice, s);
    cudaEventRecord(c, s);
    cudaEventSynchronize(c);
    float msPageable = 0, msRegistered = 0;
    cudaEventElapsedTime(&msPageable, a, b);
    cudaEventElapsedTime(&msRegistered, b, c);
    printf("copy from registered memory faster than from pageable: %s\n", msRegistered < msPageable ? "yes" : "no");
    int back[4] = {};
    cudaMemcpy(back, d + n - 4, sizeof back, cudaMemcpyDeviceToHost);
    printf("copied: %d %d\n", back[0], back[3]);
    // Device to registered host memory.
    cudaMemset(d, 0, 64);
    cudaMemcpyAsync(registered, d, 64, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    printf("copied back into registered memory: %d %d\n", registered[0], registered[16]);

    // What each pointer is.
    int* pinned;
    cudaMallocHost(&pinned, 64);
    cudaPointerAttributes at;
    cudaPointerGetAttributes(&at, d);
    printf("types: device %d", int(at.type));
    cudaPointerGetAttributes(&at, pinned);
    printf(", pinned %d", int(at.type));
    cudaPointerGetAttributes(&at, registered);
    printf(", registered %d (device pointer %s)", int(at.type), at.devicePointer == dview ? "as given" : "other");
    cudaPointerGetAttributes(&at, pageable);
    printf(", pageable %d\n", int(at.type));

    printf("unregister: %s\n", cudaGetErrorName(cudaHostUnregister(registered)));
    printf("unregister again: %s\n", cudaGetErrorName(cudaHostUnregister(registered)));
    printf("unregister pageable: %s\n", cudaGetErrorName(cudaHostUnregister(pageable)));
    cudaGetLastError();
    printf("register 0 bytes: %s\n", cudaGetErrorName(cudaHostRegister(pageable, 0, 0)));
    printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
    cudaFreeHost(pinned);
    cudaFree(d);
    free(pageable);
    free(registered);
    return bad != 0;
}
