// Checks a warpscope-gui screenshot: the PNG has the size the sidecar says, every expected panel
// drew, and each panel's region is not blank (its pixels vary).
//   warpscope_screenshot_check out.png [--steps N] [--panels a,b,c] [--min-stddev X]
#include <nlohmann/json.hpp>
#include <stb_image.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s out.png [--steps N] [--panels a,b,c] [--min-stddev X]\n", argv[0]);
        return 2;
    }
    std::string png = argv[1];
    long long steps = -1;
    double minStd = 4.0;
    std::set<std::string> expected;
    for (int i = 2; i + 1 < argc; i += 2) {
        std::string a = argv[i], v = argv[i + 1];
        if (a == "--steps") steps = std::stoll(v);
        else if (a == "--min-stddev") minStd = std::stod(v);
        else if (a == "--panels") {
            std::stringstream ss(v);
            std::string item;
            while (std::getline(ss, item, ',')) expected.insert(item);
        }
    }
    std::ifstream f(png + ".json");
    if (!f) {
        std::fprintf(stderr, "FAIL: no sidecar %s.json\n", png.c_str());
        return 1;
    }
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(f);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "FAIL: sidecar is not JSON: %s\n", e.what());
        return 1;
    }
    int w = 0, h = 0, n = 0;
    unsigned char* px = stbi_load(png.c_str(), &w, &h, &n, 3);
    if (!px) {
        std::fprintf(stderr, "FAIL: cannot read %s\n", png.c_str());
        return 1;
    }
    int failures = 0;
    if (w != j.value("width", 0) || h != j.value("height", 0)) {
        std::fprintf(stderr, "FAIL: image is %dx%d, sidecar says %dx%d\n", w, h, j.value("width", 0), j.value("height", 0));
        ++failures;
    }
    if (steps >= 0 && j.value("steps", -1LL) != steps) {
        std::fprintf(stderr, "FAIL: %lld steps were requested, the app shows %lld (state %s)\n", steps, j.value("steps", -1LL),
                     j.value("state", std::string("?")).c_str());
        ++failures;
    }
    if (j.contains("error")) std::printf("note: the app shows an error: %s\n", j["error"].get<std::string>().c_str());
    std::set<std::string> seen;
    for (auto& p : j["panels"]) {
        std::string id = p["id"];
        seen.insert(id);
        int x0 = std::max(0, static_cast<int>(p["x"].get<double>())), y0 = std::max(0, static_cast<int>(p["y"].get<double>()));
        int x1 = std::min(w, static_cast<int>(p["x"].get<double>() + p["w"].get<double>()));
        int y1 = std::min(h, static_cast<int>(p["y"].get<double>() + p["h"].get<double>()));
        if (x1 - x0 < 8 || y1 - y0 < 8) {
            std::fprintf(stderr, "FAIL: panel %s is off screen or tiny (%d..%d x %d..%d)\n", id.c_str(), x0, x1, y0, y1);
            ++failures;
            continue;
        }
        double sum = 0, sum2 = 0;
        long long cnt = 0;
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x) {
                const unsigned char* q = px + (static_cast<size_t>(y) * w + x) * 3;
                double l = 0.2126 * q[0] + 0.7152 * q[1] + 0.0722 * q[2];
                sum += l;
                sum2 += l * l;
                ++cnt;
            }
        double mean = sum / cnt, sd = std::sqrt(std::max(0.0, sum2 / cnt - mean * mean));
        bool ok = sd >= minStd;
        std::printf("%s panel %-11s %5d,%-5d %4dx%-4d luminance mean %.1f stddev %.1f\n", ok ? "ok  " : "FAIL", id.c_str(), x0, y0,
                    x1 - x0, y1 - y0, mean, sd);
        if (!ok) ++failures;
    }
    for (auto& e : expected)
        if (!seen.count(e)) {
            std::fprintf(stderr, "FAIL: panel %s did not draw\n", e.c_str());
            ++failures;
        }
    stbi_image_free(px);
    if (failures) {
        std::fprintf(stderr, "%d problem(s) in %s\n", failures, png.c_str());
        return 1;
    }
    std::printf("screenshot OK: %s\n", png.c_str());
    return 0;
}
