// Memory heat map: one device buffer of the lesson as a 2D image (width chosen by the user; a
// square by default when the element count is a square), coloured by how often each element was
// accessed, or by how many bytes around it were moved but not used. Drawn by a GLSL program
// (heatmap_gl.cpp); ImGui rectangles when the shader is unavailable. Hover: index, address,
// value and counts.
#include "gui/render/heatmap_gl.hpp"
#include "gui/model/memory_model.hpp"
#include "gui/panels/panels.hpp"

#include <algorithm>
#include <cmath>

namespace warpscope::gui {

namespace {
HeatmapRenderer& renderer() {
    static HeatmapRenderer r;
    return r;
}

// The same ramp as shaders/heatmap.frag, for the ImGui fallback and the legend.
Rgb ramp(float t) {
    static const float c[5][3] = {{0.267f, 0.005f, 0.329f}, {0.230f, 0.322f, 0.546f}, {0.128f, 0.567f, 0.551f},
                                  {0.369f, 0.789f, 0.383f}, {0.993f, 0.906f, 0.144f}};
    float s = std::clamp(t, 0.0f, 1.0f) * 4.0f;
    int i = std::min(3, static_cast<int>(s));
    float f = s - i;
    auto ch = [&](int k) { return static_cast<uint8_t>(255 * (c[i][k] + (c[i + 1][k] - c[i][k]) * f)); };
    return {ch(0), ch(1), ch(2)};
}

Rgb cellColor(float v, float maxV, bool logScale) {
    if (v <= 0) return {18, 18, 23};
    float t = logScale ? std::log1p(v) / std::log1p(std::max(maxV, 1.0f)) : v / std::max(maxV, 1.0f);
    return ramp(0.12f + 0.88f * t);
}
} // namespace

void drawHeatmapPanel(AppContext& app) {
    const Snapshot& s = *app.snap;
    if (!s.heat || s.heat->buffers.empty()) {
        ImGui::TextDisabled(s.program ? "No device buffers yet." : "No launch yet.");
        return;
    }
    const HeatView& hv = *s.heat;
    const BufferHeat* buf = nullptr;
    for (auto& b : hv.buffers)
        if (b.name == app.ui.heatBuffer) buf = &b;
    if (!buf) {   // default: the buffer with the most accesses in this launch
        uint64_t best = 0;
        buf = &hv.buffers.front();
        for (auto& b : hv.buffers) {
            uint64_t n = 0;
            for (uint32_t v : b.launchAccesses) n += v;
            if (n > best) best = n, buf = &b;
        }
    }
    float fw = ImGui::GetFontSize();
    const ImGuiStyle& st = ImGui::GetStyle();
    // Controls flow onto the next line when the panel is narrow (nothing cut at its edge).
    auto labelled = [&](const char* label, float fieldW) { return fieldW + st.ItemInnerSpacing.x + ImGui::CalcTextSize(label).x; };
    auto check = [&](const char* label) { return ImGui::GetFrameHeight() + st.ItemInnerSpacing.x + ImGui::CalcTextSize(label).x; };
    ImGui::SetNextItemWidth(fw * 7);
    if (ImGui::BeginCombo("buffer", buf->name.c_str())) {
        for (auto& b : hv.buffers)
            if (ImGui::Selectable((b.name + "  (" + b.type + " x " + std::to_string(b.count) + ")").c_str(), &b == buf)) {
                app.ui.heatBuffer = b.name;
                app.ui.heatWidth = 0;
            }
        ImGui::EndCombo();
    }
    sameLineIfFits(labelled("width", fw * 6));
    // The lesson's shape for the buffer (lesson.json "width"), else a guess; the user can override.
    int width = app.ui.heatWidth > 0 ? app.ui.heatWidth
                                     : static_cast<int>(buf->width > 0 ? std::min(buf->width, buf->count) : defaultHeatWidth(buf->count));
    ImGui::SetNextItemWidth(fw * 6);
    if (ImGui::InputInt("width", &width, 1, 16)) app.ui.heatWidth = std::max(1, width);
    width = std::clamp<int>(width, 1, static_cast<int>(std::max<uint64_t>(1, buf->count)));
    width = std::max<int>(width, static_cast<int>((buf->count + 8191) / 8192));   // keep the texture at most 8192 rows
    width = std::min(width, 8192);
    int rows = static_cast<int>((buf->count + width - 1) / width);
    sameLineIfFits(fw * 7);
    const char* modes[] = {"accesses", "wasted bytes"};
    ImGui::SetNextItemWidth(fw * 7);
    ImGui::Combo("##mode", &app.ui.heatMode, modes, 2);
    if (ImGui::IsItemHovered())
        tooltip("accesses: lane accesses per element\nwasted bytes: bytes of this element that a sector carried although no lane asked for them");
    ImGui::Checkbox("whole run", &app.ui.heatWholeRun);
    if (ImGui::IsItemHovered()) tooltip("Counts since the lesson started (otherwise: this launch only)");
    sameLineIfFits(check("log scale"));
    ImGui::Checkbox("log scale", &app.ui.heatLog);
    sameLineIfFits(check("GLSL"));
    renderer().init(findShadersDir(app.ui.lessonsDir));
    bool useShader = renderer().ready() && app.ui.heatUseShader;
    ImGui::BeginDisabled(!renderer().ready());
    ImGui::Checkbox("GLSL", &app.ui.heatUseShader);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) tooltip("%s", renderer().status().c_str());

    const std::vector<uint32_t>& counts = app.ui.heatMode == 0 ? (app.ui.heatWholeRun ? buf->runAccesses : buf->launchAccesses)
                                                                : (app.ui.heatWholeRun ? buf->runWasted : buf->launchWasted);
    uint32_t maxV = 0;
    uint64_t total = 0, touched = 0;
    for (uint32_t v : counts) {
        maxV = std::max(maxV, v);
        total += v;
        touched += v ? 1 : 0;
    }
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%llu elements, %llu touched, total %llu, max %u per element", static_cast<unsigned long long>(buf->count),
                       static_cast<unsigned long long>(touched), static_cast<unsigned long long>(total), maxV);
    ImGui::PopStyleColor();

    // The image: cells as square as the space allows.
    ImVec2 avail = ImGui::GetContentRegionAvail();
    // Room for the colour legend below: one line, or two where its text wraps.
    char legend[96];
    std::snprintf(legend, sizeof legend, "1 .. %u%s   dark = untouched%s", maxV, app.ui.heatLog ? " (log)" : "", useShader ? "" : "   (ImGui fallback)");
    float legendW = std::min(avail.x * 0.5f, fw * 14) + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(legend).x;
    avail.y -= ImGui::GetTextLineHeightWithSpacing() * (legendW > avail.x ? 2.4f : 1.4f);
    float cell = std::min(avail.x / width, std::max(avail.y, 40.0f) / rows);
    float cw = cell, ch = cell;
    if (cell < 1.0f) {   // more elements than pixels: stretch to the area
        cw = avail.x / width;
        ch = std::max(avail.y, 40.0f) / rows;
    }
    ImVec2 a = ImGui::GetCursorScreenPos();
    ImVec2 b(a.x + cw * width, a.y + ch * rows);
    ImGui::InvisibleButton("##heat", ImVec2(std::max(1.0f, b.x - a.x), std::max(1.0f, b.y - a.y)));
    int hover = -1;
    if (ImGui::IsItemHovered()) {
        ImVec2 m = ImGui::GetIO().MousePos;
        int cx = std::clamp(static_cast<int>((m.x - a.x) / cw), 0, width - 1), cy = std::clamp(static_cast<int>((m.y - a.y) / ch), 0, rows - 1);
        uint64_t idx = static_cast<uint64_t>(cy) * width + cx;
        if (idx < buf->count) {
            hover = static_cast<int>(idx);
            tooltip("%s[%llu]  (row %d, column %d)\naddress %s\nvalue %s\naccesses: %u this launch, %u in the run\nwasted bytes: %u this launch, %u in the run",
                              buf->name.c_str(), static_cast<unsigned long long>(idx), cy, cx, hex(buf->base + idx * buf->elemBytes).c_str(),
                              formatElement(*buf, idx).c_str(), buf->launchAccesses[idx], buf->runAccesses[idx], buf->launchWasted[idx],
                              buf->runWasted[idx]);
        }
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    if (useShader) {
        std::vector<float> tex(static_cast<size_t>(width) * rows, 0.0f);
        for (size_t i = 0; i < counts.size() && i < tex.size(); ++i) tex[i] = static_cast<float>(counts[i]);
        uint64_t key = hv.serial * 64 + static_cast<uint64_t>(app.ui.heatMode) * 2 + (app.ui.heatWholeRun ? 1 : 0) +
                       std::hash<std::string>{}(buf->name) * 131;
        renderer().upload(key, tex, width, rows);
        renderer().draw(dl, a, b, static_cast<float>(maxV), app.ui.heatLog, hover, static_cast<int>(buf->count));
    } else {
        // ImGui fallback: at most 160 x 160 rectangles, each showing the largest count it covers.
        int bx = std::min(width, 160), by = std::min(rows, 160);
        float bw = (b.x - a.x) / bx, bh = (b.y - a.y) / by;
        for (int y = 0; y < by; ++y)
            for (int x = 0; x < bx; ++x) {
                int x0 = x * width / bx, x1 = std::max(x0 + 1, (x + 1) * width / bx);
                int y0 = y * rows / by, y1 = std::max(y0 + 1, (y + 1) * rows / by);
                uint32_t v = 0;
                bool any = false;
                for (int yy = y0; yy < y1; ++yy)
                    for (int xx = x0; xx < x1; ++xx) {
                        uint64_t i = static_cast<uint64_t>(yy) * width + xx;
                        if (i < counts.size()) v = std::max(v, counts[i]), any = true;
                    }
                Rgb c = any ? cellColor(static_cast<float>(v), static_cast<float>(maxV), app.ui.heatLog) : Rgb{40, 40, 46};
                dl->AddRectFilled(ImVec2(a.x + x * bw, a.y + y * bh), ImVec2(a.x + (x + 1) * bw, a.y + (y + 1) * bh), col(c));
            }
        if (hover >= 0) {
            float hx = a.x + (hover % width) * cw, hy = a.y + (hover / width) * ch;
            dl->AddRect(ImVec2(hx, hy), ImVec2(hx + std::max(cw, 2.0f), hy + std::max(ch, 2.0f)), IM_COL32(255, 255, 255, 220));
        }
    }
    // Legend: the ramp from 0 to max.
    ImVec2 p = ImGui::GetCursorScreenPos();
    float lw = std::min(avail.x * 0.5f, fw * 14), lh = ImGui::GetTextLineHeight() * 0.7f;
    for (int i = 0; i < 32; ++i)
        dl->AddRectFilled(ImVec2(p.x + lw * i / 32, p.y + 3), ImVec2(p.x + lw * (i + 1) / 32 + 1, p.y + 3 + lh), col(ramp(0.12f + 0.88f * i / 31.0f)));
    ImGui::Dummy(ImVec2(lw, lh + 4));
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", legend);
    ImGui::PopStyleColor();
}

} // namespace warpscope::gui
