// The app's Platform in a web page (app/gui/web; docs/web.md): emscripten's GLFW on a <canvas>
// with a WebGL2 (OpenGL ES 3.0) context, the browser's frame loop (requestAnimationFrame) instead
// of a while loop, the canvas kept the size of the page, settings saved every few seconds (a page
// has no exit), and the model's state and frame times written into the page for its tests.
#pragma once
#include "gui/app_main.hpp"

#include <chrono>
#include <string>
#include <vector>

struct GLFWwindow;

namespace warpscope::gui {

class WebPlatform final : public Platform {
public:
    // sidecar: write the screenshot sidecar's JSON (the model's state) into the page each time it
    // changes, for the tests.
    explicit WebPlatform(bool sidecar) : sidecar_(sidecar) {}
    const char* programName() const override { return "warpscope (web)"; }
    bool open(int width, int height, bool headless) override;
    void initImGui() override;
    void shutdownImGui() override;
    bool shouldClose() const override { return false; }   // a page closes with its tab
    void pollEvents(bool mayWait) override;
    void setSize(int width, int height) override;
    void newImGuiFrame() override;
    void present() override {}   // the browser shows the canvas when the frame callback returns
    void close() override;
    void requestClose() override {}
    void framebufferSize(int& width, int& height) const override;
    std::string describe() const override;
    const char* glslVersion() const override { return "#version 300 es"; }
    void runLoop(const std::function<bool()>& frame) override;
    bool framesOutliveRunApp() const override { return true; }
    bool timeToSaveSettings() override;
    void frameDrawn(const AppContext& app, int fbWidth, int fbHeight) override;

private:
    std::string webSidecar(int fbWidth, int fbHeight, const AppContext& app) const;
    GLFWwindow* window_ = nullptr;
    bool sidecar_ = false;
    std::string lastSidecar_;
    uint64_t frames_ = 0;
    std::chrono::steady_clock::time_point frameStart_, lastSave_, lastDrawn_;
    std::vector<double> workMs_, intervalMs_;   // the last frames: building + drawing; between frames
};

} // namespace warpscope::gui
