// expect-fail: bank conflicts
// Pads each row by two floats, to be safe: rows now start 34 words apart, so a column's 32 words
// fall in only 16 banks, two to a bank.
#define TILE 32

extern "C" __global__ void transpose(const float* in, float* out, int n)
{
    __shared__ float tile[TILE][TILE + 2];   // padded so the columns spread over the banks
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < n && y < n)
        tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < n && y < n)
        out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}
