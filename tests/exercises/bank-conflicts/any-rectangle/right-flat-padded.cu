// expect-pass: the padded tile as a flat array of 32 rows of 33 words, indexed by hand.
extern "C" __global__ void transpose_rect(const float* in, float* out, int rows, int cols)
{
    __shared__ float tile[32 * 33];
    int tx = threadIdx.x, ty = threadIdx.y;
    int inCol = blockIdx.x * 32 + tx, inRow = blockIdx.y * 32 + ty;
    if (inRow < rows && inCol < cols)
        tile[ty * 33 + tx] = in[inRow * cols + inCol];
    __syncthreads();
    int outCol = blockIdx.y * 32 + tx;   // out is cols x rows: its column runs over the rows of in
    int outRow = blockIdx.x * 32 + ty;
    if (outRow < cols && outCol < rows)
        out[outRow * rows + outCol] = tile[tx * 33 + ty];
}
