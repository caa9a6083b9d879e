// expect-fail: correct
// Walks the slots from the last to the first ("the padding is at the end, start from there"):
// the same products, but added in the other order, so the float sums differ from spmv_csr's in
// their last bits.
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
// 2. Yours: ELL, one thread per row. Slot k of row r is at k * m + r (column-major), so in each slot
//    the 32 lanes of a warp read 32 neighbouring words. Padding slots hold the value 0.
extern "C" __global__ void spmv_ell(const int* ell_cols, const float* ell_vals, const float* x, float* y,
                                    int m, int width)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < m) {
        float sum = 0.0f;
        for (int k = width - 1; k >= 0; --k) {
            int c = ell_cols[k * m + r];
            float v = ell_vals[k * m + r];
            sum += v * x[c];
        }
        y[r] = sum;
    }
}
