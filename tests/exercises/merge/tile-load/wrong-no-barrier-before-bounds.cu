// expect-fail: racecheck
// Reads the block's bounds straight after thread 0's if: the other threads can read bounds[0] and
// bounds[1] before thread 0 has written them.
// Merging two sorted arrays: C (m + n ints) = A (m, sorted) and B (n, sorted) in order; on ties A's
// element comes first. The co-rank of an output position k is the i such that C[0 .. k) is made of
// A[0 .. i) and B[0 .. k - i): with it, any thread can merge any slice of C on its own.

// Merges A[0 .. m) and B[0 .. n) into C, one element after another.
__device__ void merge_sequential(const int* A, int m, const int* B, int n, int* C)
{
    int i = 0, j = 0, k = 0;
    while (i < m && j < n)
        C[k++] = A[i] <= B[j] ? A[i++] : B[j++];
    while (i < m)
        C[k++] = A[i++];
    while (j < n)
        C[k++] = B[j++];
}

// The co-rank of k: a binary search for the i (and j = k - i) where A[i - 1] <= B[j] and B[j - 1] < A[i].
__device__ int co_rank(int k, const int* A, int m, const int* B, int n)
{
    int i = min(k, m), j = k - i;
    int i_low = max(0, k - n), j_low = max(0, k - m);
    while (true) {
        if (i > 0 && j < n && A[i - 1] > B[j]) {  // i too large
            int delta = (i - i_low + 1) / 2;
            j_low = j;
            i -= delta;
            j += delta;
        } else if (j > 0 && i < m && B[j - 1] >= A[i]) {  // j too large
            int delta = (j - j_low + 1) / 2;
            i_low = i;
            i += delta;
            j -= delta;
        } else {
            return i;
        }
    }
}

// 1. One thread merges everything: m + n steps, one after another.
extern "C" __global__ void merge_one_thread(const int* A, int m, const int* B, int n, int* C)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        merge_sequential(A, m, B, n, C);
}

// 2. Each thread takes PER outputs: two co-ranks find its slices of A and B, then it merges them
//    in PER steps, taking A's front element unless A's slice is used up or B's front is smaller.
#define PER 4
extern "C" __global__ void merge_basic(const int* A, int m, const int* B, int n, int* C)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int k0 = min(t * PER, m + n);
    int k1 = min(k0 + PER, m + n);
    int i = co_rank(k0, A, m, B, n), j = k0 - i;
    int iEnd = co_rank(k1, A, m, B, n), jEnd = k1 - iEnd;
    for (int k = k0; k < k0 + PER; ++k) {
        if (k < k1) {
            int a = i < iEnd ? A[i] : 0;
            int b = j < jEnd ? B[j] : 0;
            bool takeA = j >= jEnd || (i < iEnd && a <= b);
            C[k] = takeA ? a : b;
            i += takeA;
            j += !takeA;
        }
    }
}

// 3. Tiled: a block takes blockDim.x * PER outputs. Thread 0 finds the block's slices of A and B;
//    the block loads them into shared memory together, coalesced; each thread co-ranks and merges
//    its PER outputs from there into a shared output tile, which the block then stores coalesced.
#define BLOCK 256
extern "C" __global__ void merge_tiled(const int* A, int m, const int* B, int n, int* C)
{
    __shared__ int in[BLOCK * PER];   // the block's slice of A, then its slice of B
    __shared__ int out[BLOCK * PER];  // the block's merged outputs
    __shared__ int bounds[2];
    int k0 = min(blockIdx.x * BLOCK * PER, m + n);
    int k1 = min(k0 + BLOCK * PER, m + n);
    if (threadIdx.x == 0) {
        bounds[0] = co_rank(k0, A, m, B, n);
        bounds[1] = co_rank(k1, A, m, B, n);
    }
    int i0 = bounds[0], ma = bounds[1] - i0;  // ma elements of A from i0
    int j0 = k0 - i0, nb = (k1 - k0) - ma;    // nb elements of B from j0
    for (int s = threadIdx.x; s < ma + nb; s += BLOCK)
        in[s] = s < ma ? A[i0 + s] : B[j0 + s - ma];
    __syncthreads();
    int t0 = min((int)threadIdx.x * PER, ma + nb);
    int t1 = min(t0 + PER, ma + nb);
    int a0 = co_rank(t0, in, ma, in + ma, nb);
    int a1 = co_rank(t1, in, ma, in + ma, nb);
    merge_sequential(in + a0, a1 - a0, in + ma + (t0 - a0), (t1 - t0) - (a1 - a0), out + t0);
    __syncthreads();
    for (int s = threadIdx.x; s < ma + nb; s += BLOCK)
        C[k0 + s] = out[s];
}
