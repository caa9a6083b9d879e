// The CUDA Best Practices Guide's matrix-multiply examples (section "Shared Memory in Matrix
// Multiplication"), written for warpscope's timing validation (docs/timing-validation.md).
// TILE is the warp size w = 32; blocks are TILE x TILE threads; A is M x TILE.
//   C = AB   (B is TILE x N):  ab_naive, ab_tile_a (A tile in shared memory, __syncwarp),
//                              ab_tiles_ab (A and B tiles in shared memory, __syncthreads)
//   C = AA^T (C is M x M):     aat_naive (strided reads of A), aat_tiles (tiles in shared memory,
//                              the transposed one with 32-way bank conflicts), aat_tiles_padded
#define TILE 32

// Each thread: one element of C, a dot product of length TILE read straight from global memory.
extern "C" __global__ void ab_naive(const float* a, const float* b, float* c, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < TILE; k++) {
        acc += a[row * TILE + k] * b[k * n + col];
    }
    c[row * n + col] = acc;
}

// The block's rows of A are read once, coalesced, into shared memory; each warp only reads the
// row it wrote itself, so a warp-level sync suffices.
extern "C" __global__ void ab_tile_a(const float* a, const float* b, float* c, int n)
{
    __shared__ float tileA[TILE][TILE];
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    tileA[threadIdx.y][threadIdx.x] = a[row * TILE + threadIdx.x];
    __syncwarp();
    float acc = 0.0f;
    for (int k = 0; k < TILE; k++) {
        acc += tileA[threadIdx.y][k] * b[k * n + col];
    }
    c[row * n + col] = acc;
}

// Both tiles in shared memory: B's tile is read by every warp, so the whole block synchronises.
extern "C" __global__ void ab_tiles_ab(const float* a, const float* b, float* c, int n)
{
    __shared__ float tileA[TILE][TILE];
    __shared__ float tileB[TILE][TILE];
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    tileA[threadIdx.y][threadIdx.x] = a[row * TILE + threadIdx.x];
    tileB[threadIdx.y][threadIdx.x] = b[threadIdx.y * n + col];
    __syncthreads();
    float acc = 0.0f;
    for (int k = 0; k < TILE; k++) {
        acc += tileA[threadIdx.y][k] * tileB[k][threadIdx.x];
    }
    c[row * n + col] = acc;
}

// C = A A^T: the second operand walks down a column of A^T, i.e. rows of A with a stride of TILE
// floats between neighbouring lanes.
extern "C" __global__ void aat_naive(const float* a, float* c, int m)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < TILE; k++) {
        acc += a[row * TILE + k] * a[col * TILE + k];
    }
    c[row * m + col] = acc;
}

// Both operands read coalesced into shared memory; the transposed tile is written by column, so
// all 32 lanes of a warp store into the same bank.
extern "C" __global__ void aat_tiles(const float* a, float* c, int m)
{
    __shared__ float tileA[TILE][TILE];
    __shared__ float tileT[TILE][TILE];
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    tileA[threadIdx.y][threadIdx.x] = a[row * TILE + threadIdx.x];
    tileT[threadIdx.x][threadIdx.y] = a[(blockIdx.x * blockDim.x + threadIdx.y) * TILE + threadIdx.x];
    __syncthreads();
    float acc = 0.0f;
    for (int k = 0; k < TILE; k++) {
        acc += tileA[threadIdx.y][k] * tileT[k][threadIdx.x];
    }
    c[row * m + col] = acc;
}

// The same with one column of padding: a stride of 33 words spreads a column over all banks.
extern "C" __global__ void aat_tiles_padded(const float* a, float* c, int m)
{
    __shared__ float tileA[TILE][TILE];
    __shared__ float tileT[TILE][TILE + 1];
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    tileA[threadIdx.y][threadIdx.x] = a[row * TILE + threadIdx.x];
    tileT[threadIdx.x][threadIdx.y] = a[(blockIdx.x * blockDim.x + threadIdx.y) * TILE + threadIdx.x];
    __syncthreads();
    float acc = 0.0f;
    for (int k = 0; k < TILE; k++) {
        acc += tileA[threadIdx.y][k] * tileT[k][threadIdx.x];
    }
    c[row * m + col] = acc;
}
