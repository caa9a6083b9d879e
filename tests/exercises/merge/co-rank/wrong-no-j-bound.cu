// expect-fail: memcheck
// Tests "i too large" with i > 0 only, forgetting that j can be n: at the end of the output
// (j = n) it compares with B[n], one past B's last element.
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
        if (i > 0 && A[i - 1] > B[j]) {  // i too large
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
