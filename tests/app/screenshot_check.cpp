// Checks warpscope-gui screenshots: each PNG has the size its sidecar says, every expected panel
// drew, and each panel's region is not blank (its pixels vary). With --geometry also the layout:
// no panel extends past the window, no two panels overlap, and every toolbar item lies inside the
// window and inside the toolbar. With --fit PANEL[@LAYOUT],... also that those panels (in that
// layout, or in any) cut none of their content off: the sidecar's "fits" lists what the app
// measured against its room (the Source panel's longest row) and every window, child window or
// table column whose content reaches past its right edge.
// --expect PTR=VALUE (or PTR~REGEX, PTR>N, PTR<N) checks what the sidecar says at a JSON pointer
// (e.g. /exercise/show_why/panel=shared): the model, not pixels.
// --like REF.png: the same frame as REF (the offscreen frame bench against the app): the same
// panel and toolbar rectangles in the sidecar, and pixels equal but for rounding (no channel off by
// more than 1, at most 0.1% of the pixels off at all).
//   warpscope_screenshot_check out.png [more.png ...] [--steps N] [--panels a,b,c] [--min-stddev X] [--geometry]
//                              [--fit a,b@layout] [--expect PTR=VALUE ...] [--like REF.png]
//
// Sections: 1. one screenshot  2. the same frame as another  3. main
#include <nlohmann/json.hpp>
#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Options {
    std::vector<std::string> pngs;
    long long steps = -1;
    double minStd = 4.0;
    std::set<std::string> expected;
    bool geometry = false;
    std::vector<std::pair<std::string, std::string>> fit;   // (panel, layout or "")
    std::vector<std::string> expects;
    std::string like;   // --like
};

// One --expect: the value at a JSON pointer compared with '=' (its text: a string as is, anything
// else as JSON), '~' (a regular expression found in that text), '>' or '<' (as numbers).
// Returns "" when it holds, else what the sidecar says.
std::string checkExpect(const nlohmann::json& j, const std::string& e) {
    size_t at = e.find_first_of("=~<>");
    if (at == std::string::npos || at == 0) return "malformed (want PTR=VALUE, PTR~REGEX, PTR>N or PTR<N)";
    std::string ptr = e.substr(0, at), want = e.substr(at + 1);
    char op = e[at];
    nlohmann::json v;
    try {
        v = j.at(nlohmann::json::json_pointer(ptr));
    } catch (const std::exception&) {
        return "the sidecar has no " + ptr;
    }
    std::string text = v.is_string() ? v.get<std::string>() : v.dump();
    bool ok = false;
    if (op == '=') ok = text == want;
    else if (op == '~') ok = std::regex_search(text, std::regex(want));
    else if (v.is_number()) ok = op == '>' ? v.get<double>() > std::stod(want) : v.get<double>() < std::stod(want);
    return ok ? "" : ptr + " is " + text;
}

struct Rect {
    std::string id;
    double x = 0, y = 0, w = 0, h = 0;
};

std::vector<Rect> rects(const nlohmann::json& j, const char* key) {
    std::vector<Rect> out;
    if (!j.contains(key)) return out;
    for (auto& p : j[key]) out.push_back({p["id"], p["x"].get<double>(), p["y"].get<double>(), p["w"].get<double>(), p["h"].get<double>()});
    return out;
}

// ---------------------------------------------------------------- 1. one screenshot
// Returns the number of problems found (each printed).
int checkOne(const std::string& png, const Options& o) {
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
    auto fail = [&](const char* fmt, auto... args) {
        std::fprintf(stderr, "FAIL %s: ", png.c_str());
        std::fprintf(stderr, fmt, args...);
        std::fprintf(stderr, "\n");
        ++failures;
    };
    if (w != j.value("width", 0) || h != j.value("height", 0)) fail("image is %dx%d, sidecar says %dx%d", w, h, j.value("width", 0), j.value("height", 0));
    if (o.steps >= 0 && j.value("steps", -1LL) != o.steps)
        fail("%lld steps were requested, the app shows %lld (state %s)", o.steps, j.value("steps", -1LL), j.value("state", std::string("?")).c_str());
    if (j.contains("error")) std::printf("note: the app shows an error: %s\n", j["error"].get<std::string>().c_str());
    std::vector<Rect> panels = rects(j, "panels");
    std::set<std::string> seen;
    for (const Rect& p : panels) {
        seen.insert(p.id);
        int x0 = std::max(0, static_cast<int>(p.x)), y0 = std::max(0, static_cast<int>(p.y));
        int x1 = std::min(w, static_cast<int>(p.x + p.w)), y1 = std::min(h, static_cast<int>(p.y + p.h));
        if (x1 - x0 < 8 || y1 - y0 < 8) {
            fail("panel %s is off screen or tiny (%d..%d x %d..%d)", p.id.c_str(), x0, x1, y0, y1);
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
        bool ok = sd >= o.minStd;
        if (!o.geometry || !ok)
            std::printf("%s panel %-11s %5d,%-5d %4dx%-4d luminance mean %.1f stddev %.1f\n", ok ? "ok  " : "FAIL", p.id.c_str(), x0, y0, x1 - x0, y1 - y0, mean, sd);
        if (!ok) ++failures;
    }
    stbi_image_free(px);
    for (auto& e : o.expected)
        if (!seen.count(e)) fail("panel %s did not draw", e.c_str());
    for (const std::string& e : o.expects) {
        std::string why = checkExpect(j, e);
        if (why.empty()) std::printf("ok   %s\n", e.c_str());
        else fail("expected %s: %s", e.c_str(), why.c_str());
    }
    if (o.geometry) {
        const double tol = 1.0;   // rounding of fractional window positions
        for (const Rect& p : panels)
            if (p.x < -tol || p.y < -tol || p.x + p.w > w + tol || p.y + p.h > h + tol)
                fail("panel %s (%.0f,%.0f %.0fx%.0f) extends past the %dx%d window", p.id.c_str(), p.x, p.y, p.w, p.h, w, h);
        for (size_t a = 0; a < panels.size(); ++a)
            for (size_t b = a + 1; b < panels.size(); ++b) {
                const Rect &p = panels[a], &q = panels[b];
                double ox = std::min(p.x + p.w, q.x + q.w) - std::max(p.x, q.x);
                double oy = std::min(p.y + p.h, q.y + q.h) - std::max(p.y, q.y);
                if (ox > tol && oy > tol) fail("panels %s and %s overlap by %.0fx%.0f px", p.id.c_str(), q.id.c_str(), ox, oy);
            }
        std::vector<Rect> toolbar = rects(j, "toolbar");
        const Rect* bar = nullptr;
        for (const Rect& p : panels)
            if (p.id == "controls") bar = &p;
        if (toolbar.empty()) fail("the sidecar lists no toolbar items");
        for (const Rect& t : toolbar) {
            bool inWindow = t.x >= -tol && t.y >= -tol && t.x + t.w <= w + tol && t.y + t.h <= h + tol;
            bool inBar = bar && t.x >= bar->x - tol && t.y >= bar->y - tol && t.x + t.w <= bar->x + bar->w + tol && t.y + t.h <= bar->y + bar->h + tol;
            if (!inWindow || !inBar || t.w < 4 || t.h < 4)
                fail("toolbar item %s (%.0f,%.0f %.0fx%.0f) is not fully visible in the toolbar", t.id.c_str(), t.x, t.y, t.w, t.h);
        }
    }
    if (!o.fit.empty()) {
        if (!j.contains("fits")) fail("the sidecar has no \"fits\" (an older app?)");
        std::string layout = j.value("layout", std::string());
        for (auto& f : j.value("fits", nlohmann::json::array())) {
            std::string panel = f.value("panel", std::string());
            double need = f.value("need", 0.0), have = f.value("have", 0.0);
            bool checked = false;
            for (auto& [p, l] : o.fit) checked = checked || (p == panel && (l.empty() || l == layout));
            if (checked && need > have + 1.5)
                fail("panel %s cuts off its %s: it needs %.0f px of width and has %.0f", panel.c_str(), f.value("what", std::string()).c_str(), need, have);
        }
    }
    if (failures) std::fprintf(stderr, "%d problem(s) in %s\n", failures, png.c_str());
    else std::printf("screenshot OK: %s (%s, scale %s)\n", png.c_str(), j.value("layout", std::string("?")).c_str(),
                     j.contains("scale") ? j["scale"].dump().c_str() : "?");
    return failures;
}

} // namespace

// ---------------------------------------------------------------- 2. the same frame as another
// Returns the number of problems found (each printed).
int checkLike(const std::string& png, const std::string& ref) {
    int failures = 0;
    auto sidecar = [](const std::string& p) {
        std::ifstream f(p + ".json");
        return f ? nlohmann::json::parse(f, nullptr, false) : nlohmann::json();
    };
    nlohmann::json a = sidecar(png), b = sidecar(ref);
    for (const char* key : {"panels", "toolbar", "layout", "steps", "state"})
        if (a.is_discarded() || b.is_discarded() || !a.contains(key) || a[key] != b[key]) {
            std::fprintf(stderr, "FAIL %s: sidecar's \"%s\" differs from %s's\n", png.c_str(), key, ref.c_str());
            ++failures;
        }
    int w = 0, h = 0, rw = 0, rh = 0, n = 0;
    unsigned char* px = stbi_load(png.c_str(), &w, &h, &n, 3);
    unsigned char* rp = stbi_load(ref.c_str(), &rw, &rh, &n, 3);
    if (!px || !rp || w != rw || h != rh) {
        std::fprintf(stderr, "FAIL %s: cannot compare with %s (%dx%d against %dx%d)\n", png.c_str(), ref.c_str(), w, h, rw, rh);
        ++failures;
    } else {
        size_t off = 0;
        int worst = 0;
        for (size_t i = 0; i < static_cast<size_t>(w) * h; ++i) {
            int d = 0;
            for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(px[i * 3 + c] - rp[i * 3 + c]));
            worst = std::max(worst, d);
            off += d > 0;
        }
        std::printf("%s against %s: %zu of %d pixels differ, by at most %d\n", png.c_str(), ref.c_str(), off, w * h, worst);
        if (worst > 1 || off * 1000 > static_cast<size_t>(w) * h) {
            std::fprintf(stderr, "FAIL %s: not the same frame as %s\n", png.c_str(), ref.c_str());
            ++failures;
        }
    }
    stbi_image_free(px);
    stbi_image_free(rp);
    return failures;
}

// ---------------------------------------------------------------- 3. main
int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto val = [&]() -> std::string { return i + 1 < argc ? argv[++i] : std::string(); };
        if (a == "--steps") o.steps = std::stoll(val());
        else if (a == "--min-stddev") o.minStd = std::stod(val());
        else if (a == "--geometry") o.geometry = true;
        else if (a == "--fit") {
            std::stringstream ss(val());
            std::string item;
            while (std::getline(ss, item, ',')) {
                size_t at = item.find('@');
                o.fit.push_back({item.substr(0, at), at == std::string::npos ? std::string() : item.substr(at + 1)});
            }
        }
        else if (a == "--expect") o.expects.push_back(val());
        else if (a == "--like") o.like = val();
        else if (a == "--panels") {
            std::stringstream ss(val());
            std::string item;
            while (std::getline(ss, item, ',')) o.expected.insert(item);
        } else if (a.rfind("--", 0) == 0) {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        } else o.pngs.push_back(a);
    }
    if (o.pngs.empty()) {
        std::fprintf(stderr, "usage: %s out.png [more.png ...] [--steps N] [--panels a,b,c] [--min-stddev X] [--geometry] [--fit a,b@layout] [--expect PTR=VALUE ...]\n", argv[0]);
        return 2;
    }
    int failures = 0;
    for (auto& p : o.pngs) {
        failures += checkOne(p, o);
        if (!o.like.empty()) failures += checkLike(p, o.like);
    }
    if (o.pngs.size() > 1) std::printf("%zu screenshot(s), %d problem(s)\n", o.pngs.size(), failures);
    return failures ? 1 : 0;
}
