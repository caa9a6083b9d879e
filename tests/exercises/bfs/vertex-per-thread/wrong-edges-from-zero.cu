// expect-fail: correct
// Counts the edges from 0 to the vertex's degree but forgets to start at row_ptr[v]: every
// frontier vertex walks vertex 0's edges (and the ones after them) instead of its own.
// Breadth-first search from vertex 0 over a directed graph in CSR: vertex v's edges go to
// cols[j] for row_ptr[v] <= j < row_ptr[v + 1]. level[v] is the fewest edges from vertex 0 to v
// (-1: not reached yet). Level-synchronous: the host launches one kernel per level cur; the
// vertices of level cur are the frontier, and their unvisited neighbours get level cur + 1.

// 0. Set-up (a stand-in for reading a graph from a file): vertex v has deg edges, every 32nd (a hub) extra
//    more. Edge 0 goes to v + 1, the others to vertices picked by a hash; level 0 = vertex 0, for all three.
extern "C" __global__ void build_graph(int* row_ptr, int* cols, int* level_v, int* level_q, int* level_w,
                                       int* size_q, int* size_w, int n, int deg, int extra)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n)
        return;
    int d = v % 32 == 0 ? deg + extra : deg;
    int start = v * deg + extra * ((v + 31) / 32);  // the hubs before v
    row_ptr[v] = start;
    if (v == n - 1)
        row_ptr[n] = start + d;
#pragma unroll 1  // the same loop from every compiler, so that each one's stores group the lanes alike
    for (int k = 0; k < d; ++k) {
        unsigned h = (unsigned)v * 2654435761u + (unsigned)k * 2246822519u;
        h ^= h >> 13;
        h *= 3266489917u;
        h ^= h >> 16;
        cols[start + k] = k == 0 ? (v + 1) % n : (int)(h % (unsigned)n);
    }
    int first = v == 0 ? 0 : -1;
    level_v[v] = first;
    level_q[v] = first;
    level_w[v] = first;
    if (v == 0) {
        *size_q = 1;  // the first frontier: vertex 0 (queue[0] is 0 already)
        *size_w = 1;
    }
}

// 1. A thread per vertex, every vertex at every level: a frontier vertex's thread visits its edges, the
//    others idle. No atomics: a level stored (again) in this level is the same cur + 1 from everyone.
extern "C" __global__ void bfs_vertex(const int* row_ptr, const int* cols, int* level, int n, int cur)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && level[v] == cur) {
        int degree = row_ptr[v + 1] - row_ptr[v];
        for (int j = 0; j < degree; ++j) {
            int u = cols[j];
            if (level[u] == -1 || level[u] == cur + 1)  // not reached before this level
                level[u] = cur + 1;
        }
    }
}

// 2. A thread per frontier vertex, from a queue: frontier[0 .. *size) holds level cur's vertices.
//    A thread claims an unvisited neighbour with atomicCAS (only one claim succeeds) and appends
//    it to the next queue at a slot an atomicAdd on the one counter hands out.
extern "C" __global__ void bfs_queue(const int* row_ptr, const int* cols, int* level, const int* frontier,
                                     const int* size, int* next, int* next_size, int cur)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < *size) {
        int v = frontier[i];
        for (int j = row_ptr[v]; j < row_ptr[v + 1]; ++j) {
            int u = cols[j];
            if (atomicCAS(&level[u], -1, cur + 1) == -1)
                next[atomicAdd(next_size, 1)] = u;
        }
    }
}

// 3. The size of every level (a histogram of level_v), to check the queues' counters against.
extern "C" __global__ void level_sizes(const int* level, int* sizes, int n, int levels)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && level[v] >= 0 && level[v] <= levels)
        atomicAdd(&sizes[level[v]], 1);
}
