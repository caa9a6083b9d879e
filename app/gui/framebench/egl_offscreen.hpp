// The frame bench's platform: an OpenGL 3.3 core context made by EGL with no window system, and
// a framebuffer object of the requested size as the render target. libEGL.so.1 (glvnd's, which
// picks the driver: NVIDIA's or Mesa's) is loaded at run time, so nothing EGL is needed to build.
#pragma once
#include "gui/app_main.hpp"

#include <chrono>
#include <string>

namespace warpscope::gui {

// Which EGL display to make: `Auto` tries a GPU device (EGL_EXT_platform_device), then Mesa's
// surfaceless platform, then the default display; the others try only that one.
enum class EglPlatformChoice { Auto, Device, Surfaceless, Default };

struct EglOptions {
    EglPlatformChoice platform = EglPlatformChoice::Auto;
    int device = -1;   // with Device: this index of eglQueryDevicesEXT's list (-1: the first usable)
};

class EglOffscreen final : public Platform {
public:
    explicit EglOffscreen(EglOptions options) : options_(options) {}
    ~EglOffscreen() override;

    const char* programName() const override { return "warpscope-framebench"; }
    bool open(int width, int height, bool headless) override;
    void initImGui() override;
    void shutdownImGui() override {}
    bool shouldClose() const override { return closeRequested_; }
    void pollEvents(bool) override {}
    void setSize(int width, int height) override;
    void newImGuiFrame() override;
    void present() override {}
    void close() override;
    void requestClose() override { closeRequested_ = true; }
    void cancelClose() override { closeRequested_ = false; }
    void framebufferSize(int& width, int& height) const override {
        width = width_;
        height = height_;
    }
    std::string describe() const override { return description_; }

private:
    bool makeDisplay();
    bool makeContext();
    bool makeFramebuffer();

    EglOptions options_;
    int width_ = 0, height_ = 0;
    bool closeRequested_ = false;
    void* display_ = nullptr;
    void* context_ = nullptr;
    void* surface_ = nullptr;   // a 16x16 pbuffer where surfaceless contexts are not supported
    unsigned fbo_ = 0, colour_ = 0;
    std::string platformName_, description_;
    std::chrono::steady_clock::time_point lastFrame_{};
};

} // namespace warpscope::gui
