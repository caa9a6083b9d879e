// expect-pass: no padding: the tile is 32 x 32 and column c of row r is stored at
// (c + r) % 32 (a rotation, "swizzle"), so the 32 words of a tile column fall in 32 banks too.
extern "C" __global__ void transpose(const float* in, float* out, int n)
{
    __shared__ float tile[32][32];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * 32 + tx;
    int y = blockIdx.y * 32 + ty;
    if (x < n && y < n)
        tile[ty][(tx + ty) % 32] = in[y * n + x];
    __syncthreads();
    int ox = blockIdx.y * 32 + tx;
    int oy = blockIdx.x * 32 + ty;
    if (ox < n && oy < n)
        out[oy * n + ox] = tile[tx][(ty + tx) % 32];
}
