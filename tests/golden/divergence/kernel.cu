// Golden: control flow that diverges inside warps. Data-dependent loop trip counts (Collatz,
// capped), nested if/else chains, early return, break and continue, a dense switch (which nvcc
// may lower to a jump table, brx.idx), a do-while with a divergent exit and a loop whose body
// itself diverges. Each thread writes 4 words; threads that return early write fewer.
#include <cstdint>

__device__ __forceinline__ uint32_t mix(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

extern "C" __global__ void divergence(const uint32_t* in, uint32_t* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t v = in[i];
    uint32_t* o = out + size_t(i) * 4;

    // 1. Collatz steps from a small start value: trip counts differ per lane.
    uint32_t x = (v & 1023u) + 1u, steps = 0;
    while (x != 1u && steps < 300u) {
        x = (x & 1u) ? 3u * x + 1u : x >> 1;
        ++steps;
    }
    o[0] = steps;

    // 2. Early return for some lanes (the rest of the warp carries on).
    if (v % 7u == 0u) {
        o[1] = 0xdead0000u | (v & 0xffffu);
        return;
    }

    // 3. Nested if/else chains and a dense switch.
    uint32_t r;
    if (v & 0x10u) {
        if (v & 0x20u) r = v * 3u;
        else if (v & 0x40u) r = v ^ 0x5555u;
        else r = v >> 3;
    } else {
        if ((v >> 8) & 1u) {
            r = v + 17u;
            if (v & 0x200u) r *= 5u;
        } else {
            r = ~v;
        }
    }
    switch ((v >> 12) & 15u) {
    case 0: r += 1u; break;
    case 1: r ^= 0x1111u; break;
    case 2: r *= 7u; break;
    case 3: r = r >> 2; break;
    case 4: r -= 9u; break;
    case 5: r = r << 3; break;
    case 6: r |= 0x80u; break;
    case 7: r &= 0xfff0u; break;
    case 8: r += v; break;
    case 9: r ^= v >> 4; break;
    case 10: r = r * r; break;
    default: r = r + 1000u; break;
    }
    o[1] = r;

    // 4. for with continue and break.
    uint32_t acc = 0;
    for (uint32_t k = 0; k < 64u; ++k) {
        uint32_t h = mix(v + k);
        if ((h & 3u) == 0u) continue;
        if ((h & 0xffu) == 0x7fu || acc > (v & 0xfffffu) * 3u + 50000u) break;
        acc += h & 0xffffu;
    }
    o[2] = acc;

    // 5. do-while whose body diverges, then a ternary chain.
    uint32_t y = v, loops = 0;
    do {
        if (y & 1u) y = y * 5u + 3u;
        else if (y & 2u) y >>= 2;
        else y ^= 0x9e3779b9u;
        ++loops;
    } while ((y & 0xfu) != 0u && loops < (v & 31u) + 1u);
    o[3] = y + loops * 0x01000000u + (y > v ? 1u : y == v ? 2u : 3u);
}
