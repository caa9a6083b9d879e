// warpscope-gui: the desktop app. A GLFW window with an OpenGL 3.3 core context, Dear ImGui's
// GLFW backend for input; the options, start-up and frame loop are app_main.cpp's (shared with the
// offscreen frame bench, framebench/).
//
// Sections: 1. key codes  2. the GLFW platform  3. main
#include "gui/app_main.hpp"
#include "gui/panels/keys.hpp"
#include "gui/render/gl.hpp"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>

#include <cstdio>

namespace warpscope::gui {

namespace {

// ---------------------------------------------------------------- 1. key codes
// The panels' shortcut keys (panels/keys.hpp) are GLFW key codes, which ImGui 1.86's GLFW backend
// puts into io.KeysDown.
static_assert(key::Space == GLFW_KEY_SPACE && key::Minus == GLFW_KEY_MINUS && key::Equal == GLFW_KEY_EQUAL);
static_assert(key::B == GLFW_KEY_B && key::E == GLFW_KEY_E && key::Q == GLFW_KEY_Q && key::R == GLFW_KEY_R && key::S == GLFW_KEY_S &&
              key::Y == GLFW_KEY_Y && key::Z == GLFW_KEY_Z);
static_assert(key::Escape == GLFW_KEY_ESCAPE && key::Backspace == GLFW_KEY_BACKSPACE && key::PageUp == GLFW_KEY_PAGE_UP &&
              key::PageDown == GLFW_KEY_PAGE_DOWN);
static_assert(key::F1 == GLFW_KEY_F1 && key::F5 == GLFW_KEY_F5 && key::F10 == GLFW_KEY_F10 && key::F11 == GLFW_KEY_F11);
static_assert(key::KpSubtract == GLFW_KEY_KP_SUBTRACT && key::KpAdd == GLFW_KEY_KP_ADD);

// ---------------------------------------------------------------- 2. the GLFW platform
class GlfwPlatform final : public Platform {
public:
    const char* programName() const override { return "warpscope-gui"; }

    bool open(int width, int height, bool headless) override {
        glfwSetErrorCallback([](int code, const char* msg) { std::fprintf(stderr, "GLFW error %d: %s\n", code, msg); });
        if (!glfwInit()) {
            std::fprintf(stderr, "warpscope-gui: cannot open a window (no display?). The headless CLI is 'warpscope'.\n");
            return false;
        }
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
        if (headless) glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
        window_ = glfwCreateWindow(width, height, "warpscope", nullptr, nullptr);
        if (!window_) {
            std::fprintf(stderr, "warpscope-gui: cannot create an OpenGL 3.3 window.\n");
            glfwTerminate();
            return false;
        }
        glfwMakeContextCurrent(window_);
        glfwSwapInterval(headless ? 0 : 1);
        setGlProcLoader([](const char* name) { return reinterpret_cast<GlProc>(glfwGetProcAddress(name)); });
        return true;
    }
    void initImGui() override { ImGui_ImplGlfw_InitForOpenGL(window_, true); }
    void shutdownImGui() override { ImGui_ImplGlfw_Shutdown(); }
    bool shouldClose() const override { return glfwWindowShouldClose(window_); }
    void pollEvents(bool mayWait) override {
        if (mayWait) glfwWaitEventsTimeout(0.1);
        else glfwPollEvents();
    }
    void setSize(int width, int height) override { glfwSetWindowSize(window_, width, height); }
    void newImGuiFrame() override { ImGui_ImplGlfw_NewFrame(); }
    void present() override { glfwSwapBuffers(window_); }
    void close() override {
        glfwDestroyWindow(window_);
        glfwTerminate();
    }
    void requestClose() override { glfwSetWindowShouldClose(window_, 1); }
    void framebufferSize(int& width, int& height) const override { glfwGetFramebufferSize(window_, &width, &height); }

private:
    GLFWwindow* window_ = nullptr;
};

} // namespace

} // namespace warpscope::gui

// ---------------------------------------------------------------- 3. main
int main(int argc, char** argv) {
    warpscope::gui::GlfwPlatform platform;
    return warpscope::gui::appMain(argc, argv, platform);
}
