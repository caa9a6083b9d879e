// The web page's Platform (web_platform.hpp).
#include "gui/web/web_platform.hpp"

#include "gui/model/editor.hpp"
#include "gui/panels/app.hpp"
#include "gui/panels/screenshot.hpp"
#include "gui/render/gl.hpp"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

// The single-thread program's fibers (green_threads.cpp defines these there): the work of the
// models' "threads" since the last frame, and whether this is that program. In the threaded
// program these weak definitions stand: there is nothing to pump.
extern "C" __attribute__((weak)) void warpscope_green_pump() {}
extern "C" __attribute__((weak)) bool warpscope_green_threads() { return false; }

namespace warpscope::gui {

namespace {

// The page's size in device pixels: the canvas draws one pixel per device pixel (a high-DPI
// screen, devicePixelRatio 2, gets a canvas twice the page's CSS size, shown at the CSS size by
// index.html's style), so text is drawn at the screen's resolution; the UI scale follows the
// ratio (index.html passes --scale unless the learner chose one). The browser's mouse events
// come in canvas pixels (emscripten scales them by the canvas's size over its CSS size).
EM_JS(int, web_inner_width, (), { return Math.round(window.innerWidth * (window.devicePixelRatio || 1)) | 0; });
EM_JS(int, web_inner_height, (), { return Math.round(window.innerHeight * (window.devicePixelRatio || 1)) | 0; });
EM_JS(double, web_device_pixel_ratio, (), { return window.devicePixelRatio || 1; });
EM_JS(int, web_css_width, (), { var c = Module['canvas']; return c ? Math.round(c.getBoundingClientRect().width) : 0; });
EM_JS(int, web_css_height, (), { var c = Module['canvas']; return c ? Math.round(c.getBoundingClientRect().height) : 0; });
// The model's state for the page's tests: <pre id="warpscope-sidecar">, and one console line.
EM_JS(void, web_publish, (const char* id, const char* text, int toConsole), {
    var el = document.getElementById(UTF8ToString(id));
    var t = UTF8ToString(text);
    if (el) el.textContent = t;
    // (no backslashes in EM_JS: Debian's emcc 3.1.6 cannot carry them through its metadata)
    if (toConsole) console.log('[' + UTF8ToString(id) + '] ' + t.split(String.fromCharCode(10)).map(function (x) { return x.trim(); }).join(' '));
});

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void callFrame(void* arg) {
    auto* frame = static_cast<std::function<bool()>*>(arg);
    // The desktop's frames run inside appMain's handlers; here the browser calls each one, so an
    // error that escapes a frame is reported as appMain reports it, and the page stops.
    try {
        // The single-thread program: the models' "threads" are fibers that run here, between frames.
        warpscope_green_pump();
        if (!(*frame)()) emscripten_cancel_main_loop();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "warpscope (web): error: %s\n", e.what());
        emscripten_cancel_main_loop();
    } catch (...) {
        std::fprintf(stderr, "warpscope (web): error: an exception that is not a std::exception\n");
        emscripten_cancel_main_loop();
    }
}

} // namespace

bool WebPlatform::open(int width, int height, bool) {
    glfwSetErrorCallback([](int code, const char* msg) { std::fprintf(stderr, "GLFW error %d: %s\n", code, msg); });
    if (!glfwInit()) {
        std::fprintf(stderr, "warpscope: GLFW does not start in this browser\n");
        return false;
    }
    // WebGL2 (OpenGL ES 3.0; the link options allow no other).
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    const int w = web_inner_width(), h = web_inner_height();
    window_ = glfwCreateWindow(w > 0 ? w : width, h > 0 ? h : height, "warpscope", nullptr, nullptr);
    if (!window_) {
        std::fprintf(stderr, "warpscope: this browser cannot make a WebGL2 context (is WebGL turned off?)\n");
        return false;
    }
    glfwMakeContextCurrent(window_);
    setGlProcLoader([](const char* name) { return reinterpret_cast<GlProc>(glfwGetProcAddress(name)); });
    lastSave_ = lastDrawn_ = std::chrono::steady_clock::now();
    return true;
}

void WebPlatform::initImGui() { ImGui_ImplGlfw_InitForOpenGL(window_, true); }

void WebPlatform::shutdownImGui() { ImGui_ImplGlfw_Shutdown(); }

void WebPlatform::pollEvents(bool) {
    // The browser delivers input between frames; here the canvas follows the page's size.
    const int w = web_inner_width(), h = web_inner_height();
    int cw = 0, ch = 0;
    glfwGetWindowSize(window_, &cw, &ch);
    if (w > 0 && h > 0 && (w != cw || h != ch)) glfwSetWindowSize(window_, w, h);
}

void WebPlatform::setSize(int width, int height) { glfwSetWindowSize(window_, width, height); }

void WebPlatform::newImGuiFrame() {
    frameStart_ = std::chrono::steady_clock::now();
    ImGui_ImplGlfw_NewFrame();
}

void WebPlatform::close() {
    if (window_) glfwDestroyWindow(window_);
    window_ = nullptr;
    glfwTerminate();
}

void WebPlatform::framebufferSize(int& width, int& height) const { glfwGetFramebufferSize(window_, &width, &height); }

std::string WebPlatform::describe() const {
    return warpscope_green_threads() ? "WebGL2 in the browser, one thread (the page is not cross-origin isolated)" : "WebGL2 in the browser";
}

void WebPlatform::runLoop(const std::function<bool()>& frame) {
    // Kept for the page's life: the browser calls it once per animation frame.
    auto* held = new std::function<bool()>(frame);
    emscripten_set_main_loop_arg(callFrame, held, 0, 0);
}

bool WebPlatform::timeToSaveSettings() {
    const auto now = std::chrono::steady_clock::now();
    if (now - lastSave_ < std::chrono::seconds(3)) return false;
    lastSave_ = now;
    return true;
}

// The desktop's screenshot sidecar, and what the page adds for its tests: which build runs
// (threads or one), the device pixel ratio and the canvas's size in device pixels, and the
// editor's last build (its diagnostics at their lines, as the editor marks them).
std::string WebPlatform::webSidecar(int fbWidth, int fbHeight, const AppContext& app) const {
    nlohmann::json j = nlohmann::json::parse(screenshotSidecar(fbWidth, fbHeight, app, 0), nullptr, false);
    if (!j.is_object()) return screenshotSidecar(fbWidth, fbHeight, app, 0);
    const bool threads = !warpscope_green_threads();
    j["web"] = {{"threads", threads}, {"device_pixel_ratio", web_device_pixel_ratio()}, {"canvas_width", fbWidth}, {"canvas_height", fbHeight},
                {"css_width", web_css_width()}, {"css_height", web_css_height()}};
    if (app.editor && app.editor->active()) {
        const EditorModel& ed = *app.editor;
        nlohmann::json e = {{"file", ed.file().string()}, {"building", ed.building()}, {"built", ed.lastBuild() != nullptr},
                            {"failed", ed.lastBuildFailed()}, {"message", ed.lastBuildFailed() ? ed.buildError() : std::string()}};
        e["diagnostics"] = nlohmann::json::array();
        for (const compile::Diagnostic& d : ed.diagnostics()) {
            const char* sev = d.severity == compile::Diagnostic::Severity::Error ? "error"
                              : d.severity == compile::Diagnostic::Severity::Warning ? "warning" : "note";
            e["diagnostics"].push_back({{"line", d.line}, {"column", d.column}, {"severity", sev}, {"message", d.message}});
        }
        j["editor"] = e;
    }
    return j.dump(2);
}

void WebPlatform::frameDrawn(const AppContext& app, int fbWidth, int fbHeight) {
    using Ms = std::chrono::duration<double, std::milli>;
    const auto now = std::chrono::steady_clock::now();
    ++frames_;
    workMs_.push_back(Ms(now - frameStart_).count());
    intervalMs_.push_back(Ms(now - lastDrawn_).count());
    lastDrawn_ = now;
    if (workMs_.size() > 240) {
        workMs_.erase(workMs_.begin(), workMs_.begin() + 120);
        intervalMs_.erase(intervalMs_.begin(), intervalMs_.begin() + 120);
    }
    if (!sidecar_ || frames_ % 10 != 0) return;
    // The frame times of the last frames (the first ten skipped as warm-up) and the state the
    // desktop's screenshot sidecar describes, each time they change.
    if (frames_ > 10) {
        char buf[256];
        std::snprintf(buf, sizeof buf, "{\"frames\":%llu,\"median_frame_ms\":%.3f,\"median_interval_ms\":%.3f,\"width\":%d,\"height\":%d}",
                      static_cast<unsigned long long>(frames_), median(workMs_), median(intervalMs_), fbWidth, fbHeight);
        web_publish("warpscope-frames", buf, 0);
    }
    std::string json = webSidecar(fbWidth, fbHeight, app);
    if (json != lastSidecar_) {
        lastSidecar_ = std::move(json);
        web_publish("warpscope-sidecar", lastSidecar_.c_str(), 1);
    }
}

} // namespace warpscope::gui
