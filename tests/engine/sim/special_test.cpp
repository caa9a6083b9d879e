// Rarely emitted instructions on real nvcc PTX (tests/kernels/special.cu): special registers,
// memory fences, slct, testp, barrier.sync and exit.
#include "support.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <set>

using namespace warpscope;
using wst::arg;

namespace {
constexpr const char* kSpecial = "tests/kernels/special.ptx";
}

TEST_CASE("special registers: SM, warp and lane ids fit the launch; the clocks advance", "[sim]") {
    wst::Sim sim(kSpecial);
    const uint32_t blocks = 6, threads = 96;
    auto dout = sim.upload(std::vector<uint32_t>(8 * blocks * threads, 0xdeadbeef));
    sim.launch("special_registers", blocks, threads, {arg(dout)});
    auto o = sim.download<uint32_t>(dout, 8 * blocks * threads);
    std::set<uint32_t> sms;
    for (uint32_t i = 0; i < blocks * threads; ++i) {
        const uint32_t* r = &o[8 * i];
        INFO("thread " << i);
        CHECK(r[7] == i);
        CHECK(r[1] >= 1);                  // %nsmid
        CHECK(r[0] < r[1]);                // %smid < %nsmid
        CHECK(r[2] == (i % threads) / 32); // %warpid: the warp's index in its block here
        CHECK(r[3] == 64);                 // %nwarpid: warp slots per SM
        CHECK(r[2] < r[3]);
        CHECK(r[4] == i % 32);             // %laneid
        CHECK(r[5] == 1);                  // %clock64 advanced over the loop
        CHECK(r[6] == 1);                  // %clock too
        sms.insert(r[0]);
        // Every thread of a block reports the same SM.
        CHECK(r[0] == o[8 * (i - i % threads)]);
    }
    CHECK(sms.size() > 1);                 // six blocks are spread over more than one SM
}

TEST_CASE("fences and barrier.sync: every thread reads its neighbour's word", "[sim]") {
    wst::Sim sim(kSpecial);
    const int n = 128;
    auto ddata = sim.upload(std::vector<int>(n, 0)), dout = sim.upload(std::vector<int>(n, -1));
    sim.launch("fences", 1, n, {arg(ddata), arg(dout)});
    auto out = sim.download<int>(dout, n);
    for (int i = 0; i < n; ++i) CHECK(out[size_t(i)] == 3 * ((i + 1) % n) + 1);
}

TEST_CASE("slct: the third operand's sign picks the first or the second", "[sim]") {
    wst::Sim sim(kSpecial);
    const int n = 32;
    std::vector<int> a(n), b(n), c(n);
    std::vector<float> cf(n);
    const float specials[] = {0.0f, -0.0f, 1.5f, -2.0f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()};
    for (int i = 0; i < n; ++i) {
        a[size_t(i)] = 100 + i;
        b[size_t(i)] = -100 - i;
        c[size_t(i)] = (i % 3 == 0) ? -i : i;   // 0 counts as non-negative
        cf[size_t(i)] = specials[i % 6];
    }
    auto da = sim.upload(a), db = sim.upload(b), dc = sim.upload(c), dcf = sim.upload(cf);
    auto dout = sim.upload(std::vector<int>(n, 0)), doutf = sim.upload(std::vector<int>(n, 0));
    sim.launch("select_by_sign", 1, n, {arg(da), arg(db), arg(dc), arg(dcf), arg(dout), arg(doutf)});
    auto out = sim.download<int>(dout, n), outf = sim.download<int>(doutf, n);
    for (size_t i = 0; i < size_t(n); ++i) {
        INFO("lane " << i);
        CHECK(out[i] == (c[i] >= 0 ? a[i] : b[i]));
        // PTX: f >= 0.0 selects the first operand; -0.0 >= 0.0 is true.
        CHECK(outf[i] == (cf[i] >= 0.0f ? a[i] : b[i]));
    }
}

TEST_CASE("testp: finite, infinite, number, NaN, normal and subnormal", "[sim]") {
    wst::Sim sim(kSpecial);
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float sub = std::numeric_limits<float>::denorm_min();
    std::vector<float> x = {0.0f, -0.0f, 1.0f, -3.5f, inf, -inf, nan, sub, -sub * 7, std::numeric_limits<float>::min(),
                            std::numeric_limits<float>::max()};
    auto dx = sim.upload(x), dout = sim.upload(std::vector<uint32_t>(x.size(), 0));
    sim.launch("classify", 1, uint32_t(x.size()), {arg(dx), arg(dout)});
    auto out = sim.download<uint32_t>(dout, x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        INFO("x = " << x[i]);
        const float v = x[i];
        uint32_t want = 0;
        if (std::isfinite(v)) want |= 1;
        if (std::isinf(v)) want |= 2;
        if (!std::isnan(v)) want |= 4;
        if (std::isnan(v)) want |= 8;
        // The PTX ISA counts +0 and -0 as normal numbers for testp.normal.
        if (std::fpclassify(v) == FP_NORMAL || v == 0.0f) want |= 16;
        if (std::fpclassify(v) == FP_SUBNORMAL) want |= 32;
        CHECK(out[i] == want);
    }
}

TEST_CASE("exit: the lanes that leave write nothing, the others carry on", "[sim]") {
    wst::Sim sim(kSpecial);
    const int n = 64, keep = 40;
    auto dout = sim.upload(std::vector<int>(n, -1));
    sim.launch("early_exit", 1, n, {arg(dout), arg(keep)});
    auto out = sim.download<int>(dout, n);
    for (int i = 0; i < n; ++i) CHECK(out[size_t(i)] == (i < keep ? i + 1000 : -1));
}

TEST_CASE("setp on 32-bit integers: every comparison, signed and unsigned, full and partial warps", "[sim]") {
    wst::Sim sim(kSpecial);
    const int n = 64, active = 45;   // warp 0 full, warp 1 with 13 lanes comparing
    const int values[] = {0, 1, -1, 7, -7, std::numeric_limits<int>::min(), std::numeric_limits<int>::max(), 0x40000000};
    std::vector<int> a(n), b(n);
    for (int i = 0; i < n; ++i) {
        a[size_t(i)] = values[i % 8];
        b[size_t(i)] = values[(i / 8 + i) % 8];
    }
    auto da = sim.upload(a), db = sim.upload(b), dout = sim.upload(std::vector<uint32_t>(n, 0xdeadbeef));
    sim.launch("int_compares", 1, n, {arg(da), arg(db), arg(dout), arg(active)});
    auto out = sim.download<uint32_t>(dout, n);
    for (int i = 0; i < n; ++i) {
        INFO("thread " << i << ": " << a[size_t(i)] << " vs " << b[size_t(i)]);
        if (i >= active) {
            CHECK(out[size_t(i)] == 0xdeadbeef);
            continue;
        }
        const int x = a[size_t(i)], y = b[size_t(i)];
        const unsigned ux = unsigned(x), uy = unsigned(y);
        const unsigned want = unsigned(x < y) | unsigned(x <= y) << 1 | unsigned(x > y) << 2 | unsigned(x >= y) << 3 |
                              unsigned(x == y) << 4 | unsigned(x != y) << 5 | unsigned(ux < uy) << 6 | unsigned(ux <= uy) << 7 |
                              unsigned(ux > uy) << 8 | unsigned(ux >= uy) << 9;
        CHECK(out[size_t(i)] == want);
    }
}

TEST_CASE("8- and 16-bit loads: signed ones are sign-extended, unsigned ones zero-extended", "[sim]") {
    wst::Sim sim(kSpecial);
    const int n = 64;
    std::vector<int8_t> c(n);
    std::vector<int16_t> s(n);
    std::vector<uint8_t> uc(n);
    std::vector<uint16_t> us(n);
    for (int i = 0; i < n; ++i) {
        c[size_t(i)] = int8_t(i * 37 - 128);
        s[size_t(i)] = int16_t(i * 1031 - 32768);
        uc[size_t(i)] = uint8_t(255 - i * 3);
        us[size_t(i)] = uint16_t(65535 - i * 997);
    }
    auto dc = sim.upload(c), ds = sim.upload(s), duc = sim.upload(uc), dus = sim.upload(us);
    auto dout = sim.upload(std::vector<int>(4 * n, 0));
    sim.launch("narrow_loads", 1, n, {arg(dc), arg(ds), arg(duc), arg(dus), arg(dout)});
    auto out = sim.download<int>(dout, 4 * n);
    for (int i = 0; i < n; ++i) {
        INFO("thread " << i);
        CHECK(out[size_t(4 * i)] == int(c[size_t(i)]));
        CHECK(out[size_t(4 * i + 1)] == int(s[size_t(i)]));
        CHECK(out[size_t(4 * i + 2)] == int(uc[size_t(i)]));
        CHECK(out[size_t(4 * i + 3)] == int(us[size_t(i)]));
    }
}
