// expect-fail: correct
// The partial sums added with __shfl_up_sync instead of __shfl_down_sync: the total collects in
// lane 31, but lane 0, which only ever added its own share, still stores the row's sum.
// Sparse matrix-vector product y = A x. A has m rows; row r holds only its nonzeros.
// CSR keeps them row after row: row r's entries are cols[j], vals[j] for row_ptr[r] <= j < row_ptr[r + 1].
// ELL pads every row to the same width and stores the slots column-major: slot k of row r is at k * m + r.

// 0. Set-up (a stand-in for reading a matrix from a file): row r has len nonzeros, every 32nd row
//    extra more; entry k of row r lies in column (r + 61 k) mod m. Writes CSR and ELL (padding: value 0).
extern "C" __global__ void build_matrix(int* row_ptr, int* cols, float* vals, int* ell_cols, float* ell_vals,
                                        int m, int len, int extra, int width)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= m)
        return;
    int n = r % 32 == 0 ? len + extra : len;
    int start = r * len + extra * ((r + 31) / 32);  // the long rows before r
    row_ptr[r] = start;
    if (r == m - 1)
        row_ptr[m] = start + n;
    for (int k = 0; k < width; ++k) {
        int c = (r + 61 * k) % m;
        float v = 0.125f * (1 + (7 * r + 3 * k) % 8);
        if (k < n) {
            cols[start + k] = c;
            vals[start + k] = v;
        }
        ell_cols[k * m + r] = k < n ? c : r;
        ell_vals[k * m + r] = k < n ? v : 0.0f;
    }
}

// 1. CSR, one thread per row. Lane r walks its own row: neighbouring lanes read words len apart.
extern "C" __global__ void spmv_csr(const int* row_ptr, const int* cols, const float* vals, const float* x,
                                    float* y, int m)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < m) {
        float sum = 0.0f;
        for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j) {
            int c = cols[j];
            float v = vals[j];
            sum += v * x[c];
        }
        y[r] = sum;
    }
}
// 3. Yours: CSR, one warp per row. Lane l takes the row's entries l, l + 32, l + 64, ...; then the
//    warp adds its 32 partial sums and lane 0 stores the row's sum.
extern "C" __global__ void spmv_csr_warp(const int* row_ptr, const int* cols, const float* vals, const float* x,
                                         float* y, int m)
{
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (r < m) {  // the same r for the whole warp
        float sum = 0.0f;
        for (int j = row_ptr[r] + lane; j < row_ptr[r + 1]; j += 32)
            sum += vals[j] * x[cols[j]];
        for (int d = 16; d > 0; d /= 2)
            sum += __shfl_up_sync(0xffffffffu, sum, d);
        if (lane == 0)
            y[r] = sum;
    }
}
