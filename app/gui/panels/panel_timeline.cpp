// Timeline panel: the lesson's host program as lanes in time. Host thread, copy engine HtoD,
// compute, copy engine DtoH, then one lane per stream; the simulated timeline (modelled on the
// chosen GPU preset) on top and, with "Run on GPU", the one measured with events below it on the
// same time scale. Wheel zooms around the pointer, dragging pans, hovering explains an operation,
// clicking a kernel shows its source line and its launch in the Metrics panel.
//
// The runs happen on TimelineRunner's thread (timeline_model.hpp); this file only draws.
//
// Sections: 1. requests  2. colours and legend  3. header  4. lanes  5. the panel
#include "gui/panels/panels.hpp"
#include "gui/model/timeline_model.hpp"
#include "gui/panels/timing_ui.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <optional>

namespace warpscope::gui {

// ---------------------------------------------------------------- 1. requests
namespace {

std::string requestKey(const Snapshot& s, const timing::GpuSpec& spec, bool useGpu) {
    std::string k = s.lesson->lesson.dir.string() + "|" + s.lesson->lesson.id + "|" + spec.name + "|" + (useGpu ? "gpu" : "sim");
    char buf[64];
    for (auto& [n, v] : s.params) {
        std::snprintf(buf, sizeof buf, "=%.17g;", v);
        k += n + buf;
    }
    return k;
}

timing::GpuSpec timelineSpec(const AppContext& app) { return timelinePreset(app.presetSpec()); }

} // namespace

bool requestTimelineRun(AppContext& app, bool force, double debounceSeconds) {
    const Snapshot& s = *app.snap;
    if (!s.lesson) return false;
    timing::GpuSpec spec = timelineSpec(app);
    bool useGpu = app.ui.runOnGpu && gpuToggle().enabled;
    std::string key = requestKey(s, spec, useGpu);
    TimelinePanelState& st = app.timelineUi;
    if (!force && key == st.requestedKey) return false;
    bool lessonChanged = st.requestedLesson != s.lesson->lesson.id;
    TimelineRequest req;
    req.lesson = s.lesson->lesson;
    req.params = s.params;
    req.spec = spec;
    req.useGpu = useGpu;
    app.timeline->request(std::move(req), lessonChanged || force ? 0.0 : debounceSeconds);
    st.requestedKey = key;
    st.requestedLesson = s.lesson->lesson.id;
    st.view = {};   // a new lesson, parameters, preset or GPU: a new timeline, shown whole (Fit)
    return true;
}

// ---------------------------------------------------------------- 2. colours and legend
namespace {
using runtime::TimelineKind;
using runtime::TimelineOp;

Rgb kindColor(TimelineKind k) {
    switch (k) {
    case TimelineKind::CopyHtoD: return okabe_ito::Blue;
    case TimelineKind::CopyDtoH: return okabe_ito::Vermillion;
    case TimelineKind::CopyDtoD:
    case TimelineKind::Memset: return okabe_ito::SkyBlue;
    case TimelineKind::Kernel: return okabe_ito::BluishGreen;
    case TimelineKind::Graph: return okabe_ito::Yellow;
    case TimelineKind::EventRecord: return okabe_ito::Yellow;
    case TimelineKind::HostCall: return okabe_ito::ReddishPurple;
    case TimelineKind::HostWait: return Rgb{120, 120, 128};
    case TimelineKind::HostFunc: return okabe_ito::Orange;
    }
    return Rgb{128, 128, 128};
}

// Label colour on a lane rectangle (Rec. 709 luminance; timing_ui.hpp's textOn weighs colours differently).
ImU32 laneTextOn(Rgb c) {
    double lum = 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;
    return lum > 140 ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
}

void legendItem(const char* name, Rgb c, bool hollow = false) {
    float sz = ImGui::GetTextLineHeight() * 0.8f;
    float need = sz + ImGui::GetStyle().ItemSpacing.x * 3 + ImGui::CalcTextSize(name).x;
    ImGui::SameLine(0, ImGui::GetStyle().ItemSpacing.x * 2);
    if (ImGui::GetContentRegionAvail().x < need) ImGui::NewLine();
    ImVec2 p = ImGui::GetCursorScreenPos();
    float yoff = (ImGui::GetTextLineHeight() - sz) * 0.5f;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    if (hollow) {
        dl->AddRectFilled(ImVec2(p.x, p.y + yoff), ImVec2(p.x + sz, p.y + yoff + sz), col(c, 60));
        dl->AddRect(ImVec2(p.x, p.y + yoff), ImVec2(p.x + sz, p.y + yoff + sz), col(c), 0, 0, 1.5f);
    } else {
        dl->AddRectFilled(ImVec2(p.x, p.y + yoff), ImVec2(p.x + sz, p.y + yoff + sz), col(c));
    }
    ImGui::Dummy(ImVec2(sz, sz));
    ImGui::SameLine();
    ImGui::TextUnformatted(name);
}

void drawTimelineLegend() {
    ImGui::TextDisabled("colours:");
    legendItem("memcpy HtoD", kindColor(TimelineKind::CopyHtoD));
    legendItem("kernel", kindColor(TimelineKind::Kernel));
    legendItem("memcpy DtoH", kindColor(TimelineKind::CopyDtoH));
    legendItem("memset / DtoD", kindColor(TimelineKind::Memset));
    legendItem("API call", kindColor(TimelineKind::HostCall));
    legendItem("host waits", kindColor(TimelineKind::HostWait));
    legendItem("host function", kindColor(TimelineKind::HostFunc));
    legendItem("graph launch", kindColor(TimelineKind::Graph), true);
}

// ---------------------------------------------------------------- 3. header
void figuresRow(const char* what, const TimelineFigures& f, ImVec4 colour) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextColored(colour, "%s", what);
    for (double v : {f.totalUs, f.htodUs, f.computeUs, f.dtohUs, f.overlapUs, f.hostUs}) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(formatUs(v).c_str());
    }
}

void drawFigures(const TimelineResult& r) {
    TimelineFigures fs = timelineFigures(r.sim);
    std::optional<TimelineFigures> fh;
    if (r.hwOk) fh = timelineFigures(r.hw);
    ImGuiTableFlags tf = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("figures", 7, tf)) return;
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch, 1.3f);
    for (const char* h : {"total", "copy HtoD busy", "compute busy", "copy DtoH busy", "copy+compute overlap", "host busy"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    if (ImGui::IsItemHovered()) tooltip("busy: time during which the engine did something (overlapping work counted once)");
    figuresRow("simulated", fs, ImGui::GetStyle().Colors[ImGuiCol_Text]);
    if (fh) {
        figuresRow("measured", *fh, colv(okabe_ito::SkyBlue));
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextDisabled("simulated / measured");
        const double a[] = {fs.totalUs, fs.htodUs, fs.computeUs, fs.dtohUs, fs.overlapUs, fs.hostUs};
        const double b[] = {fh->totalUs, fh->htodUs, fh->computeUs, fh->dtohUs, fh->overlapUs, fh->hostUs};
        for (int i = 0; i < 6; ++i) {
            ImGui::TableNextColumn();
            if (b[i] > 0) ImGui::Text("%.2fx", a[i] / b[i]);
            else ImGui::TextDisabled("-");
        }
    }
    ImGui::EndTable();
}

// ---------------------------------------------------------------- 4. lanes
struct Hit {
    const runtime::Timeline* tl = nullptr;
    const runtime::Timeline* other = nullptr;
    size_t op = 0;
};

// The same operation in the other timeline: same kind, label and stream (kernels: same launch).
const TimelineOp* counterpart(const runtime::Timeline& other, const TimelineOp& op) {
    for (auto& o : other.ops) {
        if (o.kind != op.kind || o.stream != op.stream) continue;
        if (op.launchIndex >= 0 ? o.launchIndex == op.launchIndex : o.label == op.label) return &o;
    }
    return nullptr;
}

struct Canvas {
    float x0 = 0, width = 0;         // the time area, screen x
    float labelX = 0, labelW = 0;
    double startUs = 0, spanUs = 1;
    float rowH = 0;
    float timeToX(double us) const { return x0 + static_cast<float>((us - startUs) / spanUs * width); }
};

// Draws one timeline's lanes from screen y `y`; returns the y below them. Records the hovered op.
float drawLanes(AppContext& app, ImDrawList* dl, const Canvas& cv, float y, const runtime::Timeline& tl, const std::vector<TimelineLane>& lanes,
                const runtime::Timeline* other, Hit& hit, int selectedLaunch) {
    std::vector<TimelineRect> rects = layoutTimeline(tl, lanes, cv.startUs, cv.startUs + cv.spanUs, cv.width, 2.0f);
    const float pad = 2.0f;
    std::vector<float> laneY(lanes.size()), laneH(lanes.size());
    ImVec2 mouse = ImGui::GetIO().MousePos;
    bool darkBg = app.settings.darkTheme;
    for (size_t i = 0; i < lanes.size(); ++i) {
        laneY[i] = y;
        laneH[i] = lanes[i].rows * cv.rowH + 2 * pad;
        ImU32 bg = (i % 2) ? (darkBg ? IM_COL32(255, 255, 255, 10) : IM_COL32(0, 0, 0, 10)) : 0;
        if (bg) dl->AddRectFilled(ImVec2(cv.labelX, y), ImVec2(cv.x0 + cv.width, y + laneH[i]), bg);
        if (i == 4) dl->AddLine(ImVec2(cv.labelX, y), ImVec2(cv.x0 + cv.width, y), ImGui::GetColorU32(ImGuiCol_Separator), 1.5f);
        ImU32 tc = lanes[i].kind == LaneKind::Stream ? ImGui::GetColorU32(ImGuiCol_Text) : ImGui::GetColorU32(ImGuiCol_TextDisabled);
        // Rows lower than the text (a short panel) get their label in a smaller size.
        float lfs = std::min(ImGui::GetFontSize(), laneH[i] - 2);
        float ty = y + (laneH[i] - lfs) * 0.5f;
        dl->AddText(ImGui::GetFont(), lfs, ImVec2(cv.labelX + 4, ty), tc, lanes[i].name.c_str());
        y += laneH[i];
    }
    dl->PushClipRect(ImVec2(cv.x0, laneY.empty() ? y : laneY[0]), ImVec2(cv.x0 + cv.width, y), true);
    ImFont* font = ImGui::GetFont();
    float fsz = std::min(ImGui::GetFontSize(), cv.rowH - 3);
    for (const TimelineRect& r : rects) {
        const TimelineOp& op = tl.ops[r.op];
        size_t li = static_cast<size_t>(r.lane);
        float top = laneY[li] + pad + r.row * cv.rowH, bot = top + cv.rowH - 2;
        float a = cv.x0 + r.x0, b = cv.x0 + r.x1;
        Rgb c = kindColor(op.kind);
        bool hovered = false;
        if (r.span) {
            top = laneY[li] + 1;
            bot = laneY[li] + laneH[li] - 1;
            dl->AddRectFilled(ImVec2(a, top), ImVec2(b, bot), col(c, 45));
            dl->AddRect(ImVec2(a, top), ImVec2(b, bot), col(c), 0, 0, 1.5f);
            hovered = mouse.x >= a && mouse.x <= b && mouse.y >= top && mouse.y <= bot;
        } else if (r.marker) {
            dl->AddTriangleFilled(ImVec2(a - 4, top), ImVec2(a + 4, top), ImVec2(a, top + 7), col(c));
            dl->AddLine(ImVec2(a, top), ImVec2(a, bot), col(c), 1.0f);
            hovered = std::abs(mouse.x - a) <= 4 && mouse.y >= top && mouse.y <= bot;
        } else {
            int alpha = op.kind == TimelineKind::HostWait ? 150 : 255;
            dl->AddRectFilled(ImVec2(a, top), ImVec2(b, bot), col(c, alpha), 2.0f);
            if (b - a > 4) dl->AddRect(ImVec2(a, top), ImVec2(b, bot), IM_COL32(0, 0, 0, 90), 2.0f);
            bool selected = op.kind == TimelineKind::Kernel && op.launchIndex >= 0 && op.launchIndex == selectedLaunch;
            if (selected) dl->AddRect(ImVec2(a - 1, top - 1), ImVec2(b + 1, bot + 1), col(okabe_ito::Yellow), 2.0f, 0, 2.5f);
            if (b - a > 18) {
                ImVec4 clip(a + 3, top, b - 3, bot);
                const std::string& label = op.label;
                dl->AddText(font, fsz, ImVec2(a + 4, top + (bot - top - fsz) * 0.5f), laneTextOn(c), label.c_str(), nullptr, 0, &clip);
            }
            hovered = mouse.x >= a && mouse.x <= std::max(b, a + 3) && mouse.y >= top && mouse.y <= bot;
        }
        if (hovered && ImGui::IsWindowHovered()) {
            hit.tl = &tl;
            hit.other = other;
            hit.op = r.op;
        }
    }
    dl->PopClipRect();
    return y;
}

void drawAxis(ImDrawList* dl, const Canvas& cv, float y, float h, float linesBottom) {
    float minPx = ImGui::CalcTextSize("000.00 ms").x + 14;
    double step = tickStepUs(cv.spanUs, cv.width, minPx);
    double first = std::ceil(cv.startUs / step) * step;
    ImU32 tc = ImGui::GetColorU32(ImGuiCol_Text), gc = ImGui::GetColorU32(ImGuiCol_Separator, 0.45f);
    dl->AddLine(ImVec2(cv.x0, y + h - 1), ImVec2(cv.x0 + cv.width, y + h - 1), ImGui::GetColorU32(ImGuiCol_Separator));
    for (double t = first; t <= cv.startUs + cv.spanUs + 1e-9; t += step) {
        float x = cv.timeToX(t);
        dl->AddLine(ImVec2(x, y + h - 6), ImVec2(x, y + h - 1), tc);
        dl->AddLine(ImVec2(x, y + h), ImVec2(x, linesBottom), gc);
        std::string lab = formatUs(std::abs(t) < step * 1e-6 ? 0.0 : t);
        float w = ImGui::CalcTextSize(lab.c_str()).x;
        float lx = std::clamp(x - w * 0.5f, cv.x0, cv.x0 + cv.width - w);
        dl->AddText(ImVec2(lx, y + 1), tc, lab.c_str());
    }
}

void exportTrace(AppContext& app, const TimelineResult& r) {
    TimelinePanelState& st = app.timelineUi;
    TraceExport e = exportChromeTrace(r, st.exportPath);
    st.exportOk = e.ok;
    st.exportStatus = e.status;
}

} // namespace

// ---------------------------------------------------------------- 5. the panel
void drawTimelinePanel(AppContext& app) {
    const Snapshot& s = *app.snap;
    // A whole program that ran to its end: its own timeline (panel_console.cpp).
    std::shared_ptr<const TimelineResult> program = programTimelineResult(app);
    if (emptyPanel(!s.lesson && !program, "Choose a lesson.")) return;
    TimelinePanelState& st = app.timelineUi;
    if (!program) requestTimelineRun(app, false, 0.4);
    auto res = program ? program : app.timeline->result();
    bool running = app.timeline->running();

    // A short panel (Presenter on a 720p projector) is for the lanes: the controls keep one row,
    // the figures become the total, and the legend and export are left out (the lanes' tooltips
    // name every operation).
    const bool compact = ImGui::GetContentRegionAvail().y < ImGui::GetTextLineHeightWithSpacing() * 16;
    // Controls: run again, zoom, GPU preset, hardware toggle.
    if (ImGui::Button(running ? "Running..." : "Run again")) requestTimelineRun(app, true, 0);
    ImGui::SameLine();
    if (ImGui::Button("Fit")) st.view = {};
    ImGui::SameLine();
    bool zoomOut = ImGui::Button(" - ");
    if (ImGui::IsItemHovered()) tooltip("Zoom out (mouse wheel over the lanes)");
    ImGui::SameLine();
    bool zoomIn = ImGui::Button(" + ");
    if (ImGui::IsItemHovered()) tooltip("Zoom in (mouse wheel over the lanes; drag to pan)");
    if (!compact) {
    ImGui::SameLine();
    ImGui::TextDisabled("GPU preset");
    ImGui::SameLine();
    {
        drawPresetCombo(app, "##tlpreset", timing::kDefaultPreset, false, [](const timing::GpuSpec& p) {
            tooltip("%s\n%u copy engines, PCIe %.0f GB/s pinned", p.description.c_str(), p.copyEngines, p.pcieGBs);
        });
        if (ImGui::IsItemHovered()) tooltip("The GPU the simulated timeline is modelled on (shared with Timed mode)");
    }
    ImGui::SameLine();
    drawGpuToggle(app);
    }
    ImGui::SameLine();
    if (running) ImGui::TextDisabled("simulating...");
    else if (res && res->simOk) ImGui::TextDisabled("simulated in %.1f s", res->simSeconds);

    if (!res) {
        ImGui::TextDisabled(running ? "Running the host program on the simulator..." : "No timeline yet.");
        return;
    }
    bool stale = res->id != app.timeline->latestRequest();
    if (stale && running) {
        ImGui::SameLine();
        ImGui::TextColored(colv(okabe_ito::Orange), "(showing the previous parameters)");
    }
    ImGui::PushTextWrapPos(0);
    if (!res->simOk) ImGui::TextColored(colv(faultColor()), "Simulated timeline: %s", res->simError.c_str());
    if (res->hwTried && !res->hwOk) ImGui::TextColored(colv(okabe_ito::Orange), "Measured timeline: %s", res->hwError.c_str());
    ImGui::PopTextWrapPos();
    if (!res->simOk && !res->hwOk) return;

    if (compact) {
        if (res->simOk) {
            ImGui::PushFont(app.fonts.bold);
            ImGui::Text("simulated: %.3g \xC2\xB5s in all", res->sim.totalUs());
            ImGui::PopFont();
        }
    } else {
    if (res->simOk) drawFigures(*res);
    drawTimelineLegend();

    // Export
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
    ImGui::InputText("##tlpath", st.exportPath, sizeof st.exportPath);
    ImGui::SameLine();
    if (ImGui::Button("Export Chrome trace")) exportTrace(app, *res);
    if (ImGui::IsItemHovered()) tooltip("Chrome trace JSON of the timeline(s) shown: open in ui.perfetto.dev or chrome://tracing");
    if (!st.exportStatus.empty()) {
        ImGui::SameLine();
        ImGui::TextColored(st.exportOk ? colv(okabe_ito::BluishGreen) : colv(faultColor()), "%s", st.exportStatus.c_str());
    }
    }

    // The view: both timelines share it.
    double total = std::max(res->simOk ? res->sim.totalUs() : 0.0, res->hwOk ? res->hw.totalUs() : 0.0);
    st.view = clampView(st.view, total);
    if (zoomIn) st.view = zoomView(st.view, st.view.startUs + st.view.spanUs / 2, 0.5, total);
    if (zoomOut) st.view = zoomView(st.view, st.view.startUs + st.view.spanUs / 2, 2.0, total);

    const ImGuiStyle& style = ImGui::GetStyle();
    float labelW = ImGui::CalcTextSize("stream 0 (legacy default)").x + 14;
    float axisH = ImGui::GetTextLineHeight() + 8;
    float scrollH = style.ScrollbarSize;
    ImVec2 avail = ImGui::GetContentRegionAvail();
    if (avail.y < axisH * 3) avail.y = axisH * 3;

    Canvas cv;
    ImVec2 origin = ImGui::GetCursorScreenPos();
    cv.labelX = origin.x;
    cv.labelW = labelW;
    cv.x0 = origin.x + labelW;
    cv.width = std::max(40.0f, avail.x - labelW - style.ScrollbarSize - 2);
    cv.startUs = st.view.startUs;
    cv.spanUs = st.view.spanUs;
    std::vector<TimelineLane> simLanes, hwLanes;
    if (res->simOk) simLanes = timelineLanes(res->sim);
    if (res->hwOk) hwLanes = timelineLanes(res->hw);

    // Time axis (fixed above the scrolling lanes).
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImGui::Dummy(ImVec2(avail.x, axisH));
    float lanesTop = origin.y + axisH;
    float textH = ImGui::GetTextLineHeight();
    float lanesH = std::max(textH * 4, avail.y - axisH - scrollH - style.ItemSpacing.y * 2);
    // Rows grow to fill the panel (up to twice the text height), never below text + 6 px.
    {
        int rows = 0, lanesN = 0, titles = 0;
        for (auto* v : {&simLanes, &hwLanes}) {
            for (auto& l : *v) rows += l.rows;
            lanesN += static_cast<int>(v->size());
            titles += v->empty() ? 0 : 1;
        }
        if (compact && !hwLanes.size()) titles = 0;   // one timeline: the figures above say whose it is
        float fixed = titles * (textH + 12) + lanesN * 4 + 4;
        float fit = rows > 0 ? (lanesH - fixed) / rows : textH + 6;
        // A short panel shows every lane, in rows down to 0.65 of the text's height.
        cv.rowH = std::clamp(fit, compact ? textH * 0.65f : textH + 6, textH * 2.0f);
    }
    drawAxis(dl, cv, origin.y, axisH, lanesTop + lanesH);

    Hit hit;
    // The launch the Metrics panel shows (the session's current one unless one was picked).
    int selectedLaunch = app.ui.metricsLaunch >= 0 ? app.ui.metricsLaunch : s.launchIndex;
    ImGui::BeginChild("##lanes", ImVec2(avail.x, lanesH), false, ImGuiWindowFlags_NoScrollWithMouse);
    {
        ImDrawList* cdl = ImGui::GetWindowDrawList();
        float y = ImGui::GetCursorScreenPos().y;
        float y0 = y;
        auto title = [&](const std::string& text, ImVec4 colour) {
            cdl->AddText(app.fonts.bold, app.fonts.bold->FontSize, ImVec2(cv.labelX + 4, y + 2), ImGui::GetColorU32(colour), text.c_str());
            y += ImGui::GetTextLineHeight() + 6;
        };
        if (res->simOk) {
            if (!compact || res->hwOk) title(res->sim.source, ImGui::GetStyle().Colors[ImGuiCol_Text]);
            y = drawLanes(app, cdl, cv, y, res->sim, simLanes, res->hwOk ? &res->hw : nullptr, hit, selectedLaunch);
        }
        if (res->hwOk) {
            y += 6;
            title(res->hw.source, colv(okabe_ito::SkyBlue));
            y = drawLanes(app, cdl, cv, y, res->hw, hwLanes, res->simOk ? &res->sim : nullptr, hit, selectedLaunch);
        }
        ImGui::Dummy(ImVec2(avail.x - style.ScrollbarSize - 2, y - y0));

        // Wheel: zoom over the time area, scroll over the lane names.
        ImGuiIO& io = ImGui::GetIO();
        bool hoveredArea = ImGui::IsWindowHovered();
        bool overTime = io.MousePos.x >= cv.x0 && io.MousePos.x <= cv.x0 + cv.width;   // not the lane names, not the scrollbar
        if (hoveredArea && io.MouseWheel != 0) {
            if (overTime) {
                double anchor = cv.startUs + (io.MousePos.x - cv.x0) / cv.width * cv.spanUs;
                st.view = zoomView(st.view, anchor, std::pow(0.8, io.MouseWheel), total);
            } else {
                ImGui::SetScrollY(ImGui::GetScrollY() - io.MouseWheel * cv.rowH * 3);
            }
        }
        // Drag pans; a click that did not move selects a kernel.
        if (hoveredArea && ImGui::IsMouseClicked(ImGuiMouseButton_Left) && overTime) {
            st.dragging = true;
            st.dragFromUs = st.view.startUs;
            st.dragFromX = io.MousePos.x;
        }
        if (st.dragging) {
            if (ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
                float dx = io.MousePos.x - st.dragFromX;
                if (std::abs(dx) > 2) {
                    st.view.startUs = st.dragFromUs - dx / cv.width * st.view.spanUs;
                    st.view = clampView(st.view, total);
                    st.dragMoved = true;
                }
            } else {
                if (!st.dragMoved && hit.tl) {
                    const TimelineOp& op = hit.tl->ops[hit.op];
                    if (op.kind == TimelineKind::Kernel && op.launchIndex >= 0) {
                        st.selectedLaunch = op.launchIndex;
                        app.ui.metricsLaunch = op.launchIndex;
                        if (uint32_t line = kernelSourceLine(s.lesson->sourceLines, op.label)) {
                            app.ui.clickedLine = line;
                            app.ui.scrollToLine = line;
                        }
                    }
                }
                st.dragging = false;
                st.dragMoved = false;
            }
        }
        if (hit.tl && !st.dragMoved) {
            const TimelineOp& op = hit.tl->ops[hit.op];
            std::string text = describeOp(op);
            if (hit.other)
                if (const TimelineOp* o = counterpart(*hit.other, op)) {
                    text += std::string("\n") + (hit.tl->measured ? "simulated: " : "measured: ") + formatUs(o->durationUs());
                    if (o->durationUs() > 0 && !hit.tl->measured)
                        text += "  (simulated / measured " + std::to_string(op.durationUs() / o->durationUs()).substr(0, 4) + "x)";
                }
            tooltip("%s", text.c_str());
        }
    }
    ImGui::EndChild();

    // Horizontal scrollbar: the thumb is the view within the whole run.
    {
        ImVec2 p = ImGui::GetCursorScreenPos();
        float tx0 = cv.x0, tw = cv.width, th = scrollH * 0.8f;
        ImGui::SetCursorScreenPos(ImVec2(tx0, p.y));
        ImGui::InvisibleButton("##hscroll", ImVec2(tw, th));
        double whole = clampView({}, total).spanUs;
        float a = tx0 + static_cast<float>(st.view.startUs / whole * tw);
        float b = tx0 + static_cast<float>((st.view.startUs + st.view.spanUs) / whole * tw);
        b = std::max(b, a + 8);
        if (ImGui::IsItemActive()) {
            float mx = ImGui::GetIO().MousePos.x;
            st.view.startUs = (mx - tx0) / tw * whole - st.view.spanUs / 2;
            st.view = clampView(st.view, total);
        }
        ImDrawList* sdl = ImGui::GetWindowDrawList();
        sdl->AddRectFilled(ImVec2(tx0, p.y), ImVec2(tx0 + tw, p.y + th), ImGui::GetColorU32(ImGuiCol_ScrollbarBg), th * 0.5f);
        ImGuiCol thumb = ImGui::IsItemActive() ? ImGuiCol_ScrollbarGrabActive : ImGui::IsItemHovered() ? ImGuiCol_ScrollbarGrabHovered : ImGuiCol_ScrollbarGrab;
        sdl->AddRectFilled(ImVec2(a, p.y), ImVec2(b, p.y + th), ImGui::GetColorU32(thumb), th * 0.5f);
        ImGui::SetCursorScreenPos(ImVec2(cv.labelX, p.y));
        ImGui::TextDisabled("view: %s", formatUs(st.view.spanUs).c_str());
        if (ImGui::IsItemHovered()) tooltip("%s to %s of %s. Wheel: zoom; drag: pan; Fit: everything", formatUs(st.view.startUs).c_str(),
                              formatUs(st.view.startUs + st.view.spanUs).c_str(), formatUs(total).c_str());
    }
}

} // namespace warpscope::gui
