#include "runtime/references.hpp"

#include "base/error.hpp"
#include "sim/arith.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace warpscope::runtime {

namespace {
int elemSize(const std::string& t) {
    if (t == "u8" || t == "s8") return 1;
    if (t == "u16" || t == "s16" || t == "f16") return 2;
    if (t == "u64" || t == "s64" || t == "f64") return 8;
    return 4;
}

void need(const ReferenceInputs& in, size_t n, const char* name) {
    if (in.inputs.size() != n)
        throw Error(Error::Kind::Input, std::string("Reference '") + name + "' needs " + std::to_string(n) + " input buffer(s).");
}
// acc + a[i] * b[j] in float, fused: what nvcc makes of `acc += a[i] * b[j]` on floats.
float fmaF32(const HostBuffer& a, size_t i, const HostBuffer& b, size_t j, float acc) {
    return std::fma(static_cast<float>(a.get(i)), static_cast<float>(b.get(j)), acc);
}
// out[i] = v where out has an element i (a checked buffer may be shorter than the whole result).
void setIfInside(HostBuffer& out, size_t i, double v) {
    if (i < out.count()) out.set(i, v);
}
} // namespace

namespace {
const char* const kTypeCodes[] = {"f32", "f64", "u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64", "f16"};
}

int HostBuffer::code() const {
    if (code_ < 0) {   // the type is set before the first element access and never changes
        code_ = 0;
        for (int k = 0; k < 11; ++k)
            if (type == kTypeCodes[k]) code_ = k;
    }
    return code_;
}

size_t HostBuffer::count() const { return bytes.size() / static_cast<size_t>(elemSize(type)); }

double HostBuffer::get(size_t i) const {
    static constexpr int sizes[] = {4, 8, 1, 1, 2, 2, 4, 4, 8, 8, 2};
    const int c = code();
    const uint8_t* p = bytes.data() + i * static_cast<size_t>(sizes[c]);
    auto rd = [&](auto v) {
        std::memcpy(&v, p, sizeof v);
        return static_cast<double>(v);
    };
    switch (c) {
    case 0: return rd(float{});
    case 1: return rd(double{});
    case 2: return rd(uint8_t{});
    case 3: return rd(int8_t{});
    case 4: return rd(uint16_t{});
    case 5: return rd(int16_t{});
    case 6: return rd(uint32_t{});
    case 7: return rd(int32_t{});
    case 8: return rd(uint64_t{});
    case 9: return rd(int64_t{});
    case 10: return static_cast<double>(sim::arith::f16ToF32(static_cast<uint16_t>(rd(uint16_t{}))));   // a reference's f16 input (checks compare f16 bit for bit)
    default: return 0;
    }
}

namespace {
// double -> integer type T, truncating and saturating at T's range (NaN -> 0): a plain cast of an
// out-of-range value is undefined behaviour.
template <class T>
T clampTo(double v) {
    if (v != v) return 0;
    if (v >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    if (v <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
    return static_cast<T>(v);
}
} // namespace

void HostBuffer::set(size_t i, double v) {
    static constexpr int sizes[] = {4, 8, 1, 1, 2, 2, 4, 4, 8, 8, 2};
    const int c = code();
    uint8_t* p = bytes.data() + i * static_cast<size_t>(sizes[c]);
    auto wr = [&](auto x) { std::memcpy(p, &x, sizeof x); };
    switch (c) {
    case 0: wr(static_cast<float>(v)); break;
    case 1: wr(v); break;
    case 2: wr(clampTo<uint8_t>(v)); break;
    case 3: wr(clampTo<int8_t>(v)); break;
    case 4: wr(clampTo<uint16_t>(v)); break;
    case 5: wr(clampTo<int16_t>(v)); break;
    case 6: wr(clampTo<uint32_t>(v)); break;
    case 7: wr(clampTo<int32_t>(v)); break;
    case 8: wr(clampTo<uint64_t>(v)); break;
    case 9: wr(clampTo<int64_t>(v)); break;
    default: break;
    }
}

const std::map<std::string, ReferenceInfo>& references() {
    static const std::map<std::string, ReferenceInfo> table = [] {
        std::map<std::string, ReferenceInfo> t;
        auto add = [&](std::string name, std::string desc, ReferenceFn fn) {
            t[name] = ReferenceInfo{name, std::move(desc), std::move(fn)};
        };
        add("vector_add", "out[i] = a[i] + b[i] (inputs: a, b; computed in the buffer's type)",
            [](const ReferenceInputs& in, HostBuffer& out) {
                need(in, 2, "vector_add");
                size_t n = std::min({out.count(), in.inputs[0]->count(), in.inputs[1]->count()});
                for (size_t i = 0; i < n; ++i) {
                    if (out.type == "f32") out.set(i, static_cast<float>(in.inputs[0]->get(i)) + static_cast<float>(in.inputs[1]->get(i)));
                    else out.set(i, in.inputs[0]->get(i) + in.inputs[1]->get(i));
                }
            });
        add("parity_branch", "out[i] = 2 * in[i] for even i, in[i] + 100 for odd i (input: in; 32-bit integers)",
            [](const ReferenceInputs& in, HostBuffer& out) {
                need(in, 1, "parity_branch");
                size_t n = std::min(out.count(), in.inputs[0]->count());
                for (size_t i = 0; i < n; ++i) {
                    auto v = static_cast<int32_t>(in.inputs[0]->get(i));
                    out.set(i, static_cast<double>(i % 2 == 0 ? static_cast<int32_t>(uint32_t(v) * 2u) : static_cast<int32_t>(uint32_t(v) + 100u)));
                }
            });
        add("parity_count", "out[0] = elements at even indices, out[1] = at odd indices (input: in, whose length counts)",
            [](const ReferenceInputs& in, HostBuffer& out) {
                need(in, 1, "parity_count");
                size_t n = in.inputs[0]->count();
                if (out.count() > 0) out.set(0, static_cast<double>((n + 1) / 2));
                if (out.count() > 1) out.set(1, static_cast<double>(n / 2));
            });
        add("collatz_steps", "out[i] = steps of x = x even ? x / 2 : 3x + 1 from x = in[i] down to 1, in 64-bit unsigned (input: in)",
            [](const ReferenceInputs& in, HostBuffer& out) {
                need(in, 1, "collatz_steps");
                size_t n = std::min(out.count(), in.inputs[0]->count());
                for (size_t i = 0; i < n; ++i) {
                    auto x = static_cast<uint64_t>(static_cast<int64_t>(in.inputs[0]->get(i)));
                    int64_t steps = 0;
                    // Inputs below 1 never reach 1 (the kernel would loop); stop and report -1.
                    while (x != 1 && x != 0 && steps < 100000) {
                        x = x % 2 == 0 ? x / 2 : 3 * x + 1;
                        ++steps;
                    }
                    out.set(i, x == 1 ? static_cast<double>(steps) : -1.0);
                }
            });
        add("copy", "out[i] = a[i] (input: a)", [](const ReferenceInputs& in, HostBuffer& out) {
            need(in, 1, "copy");
            size_t n = std::min(out.count(), in.inputs[0]->count());
            for (size_t i = 0; i < n; ++i) out.set(i, in.inputs[0]->get(i));
        });
        add("offset_copy", "out[i] = in[i + OFFSET] (input: in; param OFFSET)", [](const ReferenceInputs& in, HostBuffer& out) {
            need(in, 1, "offset_copy");
            int64_t off = in.param("OFFSET").asInt();
            for (size_t i = 0; i < out.count() && i + size_t(off) < in.inputs[0]->count(); ++i) out.set(i, in.inputs[0]->get(i + size_t(off)));
        });
        add("stride_copy", "out[i] = in[i * STRIDE] (input: in; param STRIDE)", [](const ReferenceInputs& in, HostBuffer& out) {
            need(in, 1, "stride_copy");
            int64_t st = in.param("STRIDE").asInt();
            for (size_t i = 0; i < out.count() && i * size_t(st) < in.inputs[0]->count(); ++i) out.set(i, in.inputs[0]->get(i * size_t(st)));
        });
        add("matmul", "C = A x B, row-major, A is M x K, B is K x N (inputs: A, B; params M, N, K); float fused multiply-adds in index order, as nvcc compiles the naive kernel",
            [](const ReferenceInputs& in, HostBuffer& out) {
                need(in, 2, "matmul");
                int64_t M = in.param("M").asInt(), N = in.param("N").asInt(), K = in.param("K").asInt();
                for (int64_t r = 0; r < M; ++r)
                    for (int64_t c = 0; c < N; ++c) {
                        float acc = 0;
                        for (int64_t k = 0; k < K; ++k) acc = fmaF32(*in.inputs[0], size_t(r * K + k), *in.inputs[1], size_t(k * N + c), acc);
                        setIfInside(out, size_t(r * N + c), acc);
                    }
            });
        add("transpose", "out[c * ROWS + r] = in[r * COLS + c] (input: in; params ROWS, COLS)",
            [](const ReferenceInputs& in, HostBuffer& out) {
                need(in, 1, "transpose");
                int64_t R = in.param("ROWS").asInt(), C = in.param("COLS").asInt();
                for (int64_t r = 0; r < R; ++r)
                    for (int64_t c = 0; c < C; ++c) out.set(size_t(c * R + r), in.inputs[0]->get(size_t(r * C + c)));
            });
        add("stencil_1d", "out[i] = sum of in[i-RADIUS .. i+RADIUS] (zero outside; input: in; param RADIUS)",
            [](const ReferenceInputs& in, HostBuffer& out) {
                need(in, 1, "stencil_1d");
                int64_t R = in.param("RADIUS").asInt();
                int64_t n = static_cast<int64_t>(std::min(out.count(), in.inputs[0]->count()));
                for (int64_t i = 0; i < n; ++i) {
                    double s = 0;
                    float sf = 0;
                    for (int64_t k = -R; k <= R; ++k)
                        if (i + k >= 0 && i + k < n) {
                            s += in.inputs[0]->get(size_t(i + k));
                            sf += static_cast<float>(in.inputs[0]->get(size_t(i + k)));
                        }
                    out.set(size_t(i), out.type == "f32" ? sf : s);
                }
            });
        add("block_sum", "out[b] = sum of the b-th run of count(in)/count(out) inputs (input: in)",
            [](const ReferenceInputs& in, HostBuffer& out) {
                need(in, 1, "block_sum");
                if (out.count() == 0) return;
                size_t per = in.inputs[0]->count() / out.count();
                for (size_t b = 0; b < out.count(); ++b) {
                    double s = 0;
                    for (size_t k = 0; k < per; ++k) s += in.inputs[0]->get(b * per + k);
                    out.set(b, s);
                }
            });
        add("reduce_sum", "out[0] = sum of in (input: in), in double then rounded to the buffer's type",
            [](const ReferenceInputs& in, HostBuffer& out) {
                need(in, 1, "reduce_sum");
                double s = 0;
                for (size_t i = 0; i < in.inputs[0]->count(); ++i) s += in.inputs[0]->get(i);
                out.set(0, s);
            });
        add("affine_iterate", "out[i] = in[i] after WORK rounds of x = fmaf(x, 0.9999f, 0.0001f) (input: in; param WORK), as nvcc "
                              "compiles x = x * 0.9999f + 0.0001f",
            [](const ReferenceInputs& in, HostBuffer& out) {
                need(in, 1, "affine_iterate");
                int64_t work = in.param("WORK").asInt();
                for (size_t i = 0; i < out.count() && i < in.inputs[0]->count(); ++i) {
                    float x = static_cast<float>(in.inputs[0]->get(i));
                    for (int64_t k = 0; k < work; ++k) x = std::fma(x, 0.9999f, 0.0001f);
                    out.set(i, x);
                }
            });
        add("add_count", "out[i] = in[i] + KERNELS (input: in; param KERNELS): what KERNELS launches of a kernel adding one leave",
            [](const ReferenceInputs& in, HostBuffer& out) {
                need(in, 1, "add_count");
                double k = in.param("KERNELS").asDouble();
                for (size_t i = 0; i < out.count() && i < in.inputs[0]->count(); ++i) out.set(i, in.inputs[0]->get(i) + k);
            });
        add("convolution_2d", "out[r * COLS + c] = sum of filter[dy][dx] * in[r + dy - R][c + dx - R], cells outside the image 0 "
                              "(inputs: in, filter; filter is W x W, W = 2R + 1; params ROWS, COLS); float fused multiply-adds, "
                              "row by row of the filter",
            [](const ReferenceInputs& in, HostBuffer& out) {
                need(in, 2, "convolution_2d");
                int64_t rows = in.param("ROWS").asInt(), cols = in.param("COLS").asInt();
                int64_t w = static_cast<int64_t>(std::lround(std::sqrt(double(in.inputs[1]->count()))));
                if (w * w != static_cast<int64_t>(in.inputs[1]->count()) || w % 2 == 0)
                    throw Error(Error::Kind::Input, "Reference 'convolution_2d': the filter must hold W x W values, W odd.");
                int64_t rad = w / 2;
                for (int64_t r = 0; r < rows; ++r)
                    for (int64_t c = 0; c < cols; ++c) {
                        float acc = 0;
                        for (int64_t dy = 0; dy < w; ++dy)
                            for (int64_t dx = 0; dx < w; ++dx) {
                                int64_t y = r + dy - rad, x = c + dx - rad;
                                if (y < 0 || y >= rows || x < 0 || x >= cols) continue;
                                acc = fmaF32(*in.inputs[1], size_t(dy * w + dx), *in.inputs[0], size_t(y * cols + x), acc);
                            }
                        setIfInside(out, size_t(r * cols + c), acc);
                    }
            });
        add("histogram", "out[b] = how many elements of in equal b (input: in; values outside 0 .. count(out) - 1 are not counted)",
            [](const ReferenceInputs& in, HostBuffer& out) {
                need(in, 1, "histogram");
                std::vector<double> bins(out.count(), 0.0);
                for (size_t i = 0; i < in.inputs[0]->count(); ++i) {
                    double v = in.inputs[0]->get(i);
                    if (v >= 0 && v < double(bins.size())) bins[size_t(v)] += 1;
                }
                for (size_t b = 0; b < bins.size(); ++b) out.set(b, bins[b]);
            });
        add("inclusive_scan", "out[i] = in[0] + ... + in[i] (input: in), in double then rounded to the buffer's type",
            [](const ReferenceInputs& in, HostBuffer& out) {
                need(in, 1, "inclusive_scan");
                double s = 0;
                for (size_t i = 0; i < out.count() && i < in.inputs[0]->count(); ++i) out.set(i, s += in.inputs[0]->get(i));
            });
        add("section_scan", "out[i] = in[k * SECTION] + ... + in[i] for the section k = i / SECTION holding i: an inclusive scan "
                            "that starts again every SECTION elements (input: in; param SECTION)",
            [](const ReferenceInputs& in, HostBuffer& out) {
                need(in, 1, "section_scan");
                int64_t section = in.param("SECTION").asInt();
                if (section < 1) throw Error(Error::Kind::Input, "Reference 'section_scan': SECTION must be at least 1.");
                double s = 0;
                for (size_t i = 0; i < out.count() && i < in.inputs[0]->count(); ++i) {
                    if (i % size_t(section) == 0) s = 0;
                    out.set(i, s += in.inputs[0]->get(i));
                }
            });
        return t;
    }();
    return table;
}

} // namespace warpscope::runtime
