#include "gui/render/screenshot.hpp"
#include "gui/panels/panels.hpp"

#include "gui/render/gl.hpp"

#include <nlohmann/json.hpp>
#include <stb_image_write.h>

#include <fstream>
#include <vector>

namespace warpscope::gui {

bool writeScreenshot(const std::string& path, int w, int h, const AppContext& app, uint64_t steps, std::string* error) {
    std::vector<unsigned char> rgba(static_cast<size_t>(w) * h * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    // The window's back buffer; an offscreen framebuffer (the frame bench) reads its own colour
    // attachment, which is already the read buffer.
    GLint readFbo = 0;
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &readFbo);
    if (readFbo == 0) glReadBuffer(GL_BACK);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    // OpenGL rows go bottom-up; PNG rows top-down. Drop alpha.
    std::vector<unsigned char> rgb(static_cast<size_t>(w) * h * 3);
    for (int y = 0; y < h; ++y) {
        const unsigned char* src = rgba.data() + static_cast<size_t>(h - 1 - y) * w * 4;
        unsigned char* dst = rgb.data() + static_cast<size_t>(y) * w * 3;
        for (int x = 0; x < w; ++x) {
            dst[x * 3 + 0] = src[x * 4 + 0];
            dst[x * 3 + 1] = src[x * 4 + 1];
            dst[x * 3 + 2] = src[x * 4 + 2];
        }
    }
    if (!stbi_write_png(path.c_str(), w, h, 3, rgb.data(), w * 3)) {
        if (error) *error = "cannot write '" + path + "'";
        return false;
    }
    nlohmann::json j;
    j["width"] = w;
    j["height"] = h;
    const Snapshot& s = *app.snap;
    j["lesson"] = s.lesson ? s.lesson->lesson.id : "";
    j["requested_steps"] = steps;
    j["steps"] = s.timed ? s.totalCycleSteps : s.totalSteps;   // Timed mode steps cycles
    j["warp_instructions"] = s.totalSteps;
    if (s.timed) j["gpu_preset"] = s.gpuPreset;
    j["state"] = runStateName(s.state);
    if (s.error) j["error"] = s.error->message;
    j["panels"] = nlohmann::json::array();
    for (const PanelRect& r : app.drawn) j["panels"].push_back({{"id", r.id}, {"x", r.x}, {"y", r.y}, {"w", r.w}, {"h", r.h}});
    // Every toolbar item (buttons, slider, toggles, layout buttons): the layout check wants each in view.
    j["toolbar"] = nlohmann::json::array();
    for (const PanelRect& r : app.toolbarItems) {
        nlohmann::json t = {{"id", r.id}, {"x", r.x}, {"y", r.y}, {"w", r.w}, {"h", r.h}};
        if (!r.in.empty()) t["in"] = r.in;
        j["toolbar"].push_back(t);
    }
    // Widths: content a panel measured against its room, and content wider than its window (cut off).
    j["fits"] = nlohmann::json::array();
    for (const FitRecord& f : app.fits) j["fits"].push_back({{"panel", f.panel}, {"what", f.what}, {"need", f.need}, {"have", f.have}});
    j["layout"] = app.ui.layout;
    j["scale"] = app.settings.uiScale;
    if (nlohmann::json ex = exerciseSidecar(app); !ex.empty()) j["exercise"] = ex;   // the grade and Show why, for tests
    std::ofstream f(path + ".json");
    f << j.dump(2) << "\n";
    if (!f) {
        if (error) *error = "cannot write '" + path + ".json'";
        return false;
    }
    return true;
}

} // namespace warpscope::gui
