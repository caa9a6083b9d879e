// Reads input.txt from its working folder, doubles the numbers on the GPU and writes result.txt
// there: with `warpscope run --workdir DIR` it sees DIR's files; without, an empty private folder.
#include <cstdio>

__global__ void twice(int* v, int n) {
    int i = threadIdx.x;
    if (i < n) v[i] *= 2;
}

int main() {
    FILE* in = fopen("input.txt", "r");
    if (!in) {
        printf("input.txt: not found in the working folder\n");
        return 1;
    }
    int h[16], n = 0;
    while (n < 16 && fscanf(in, "%d", &h[n]) == 1) ++n;
    fclose(in);
    int* d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
    twice<<<1, 16>>>(d, n);
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    FILE* out = fopen("result.txt", "w");
    if (!out) {
        printf("result.txt: cannot write\n");
        return 1;
    }
    for (int i = 0; i < n; ++i) fprintf(out, "%d\n", h[i]);
    fclose(out);
    printf("read %d numbers, wrote result.txt (last %d)\n", n, n ? h[n - 1] : 0);
    return 0;
}
