// warpscope-gui: the desktop app. A GLFW window with an OpenGL 3.3 core context, Dear ImGui's
// GLFW backend for input; the options, start-up and frame loop are app_main.cpp's (shared with the
// offscreen frame bench, framebench/).
//
// Sections: 1. key codes  2. the GLFW platform  3. main
#include "gui/app_main.hpp"
#include "gui/model/input_queue.hpp"
#include "gui/panels/keys.hpp"
#include "gui/render/gl.hpp"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>

#include <imgui.h>

#include <array>
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
        if (fill_ && !headless) {
            // The screen's work area (without panels and docks), maximized where a window manager runs.
            int x = 0, y = 0, w = 0, h = 0;
            if (GLFWmonitor* m = glfwGetPrimaryMonitor()) glfwGetMonitorWorkarea(m, &x, &y, &w, &h);
            if (w >= 320 && h >= 240) {
                width = w;
                height = h;
            }
            glfwWindowHint(GLFW_MAXIMIZED, GLFW_TRUE);
        }
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
    void fillScreen() override { fill_ = true; }
    void initImGui() override {
        ImGui_ImplGlfw_InitForOpenGL(window_, true);
        // Keys, characters and buttons go into the queue, in order, and reach ImGui's own
        // callbacks one frame at a time (model/input_queue.hpp): a tap shorter than a frame counts.
        glfwSetWindowUserPointer(window_, this);
        glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int scancode, int action, int mods) {
            if (action == GLFW_REPEAT) return;   // ImGui repeats held keys itself
            self(w).input_.key(key, action == GLFW_PRESS, scancode, mods);
        });
        glfwSetCharCallback(window_, [](GLFWwindow* w, unsigned c) { self(w).input_.character(c); });
        glfwSetMouseButtonCallback(window_, [](GLFWwindow* w, int button, int action, int mods) {
            double x = 0, y = 0;
            glfwGetCursorPos(w, &x, &y);
            self(w).input_.mouseButton(button, action == GLFW_PRESS, mods, x, y);
        });
    }
    void shutdownImGui() override { ImGui_ImplGlfw_Shutdown(); }
    bool shouldClose() const override { return glfwWindowShouldClose(window_); }
    void pollEvents(bool mayWait) override {
        if (mayWait && input_.empty()) glfwWaitEventsTimeout(0.1);
        else glfwPollEvents();
    }
    void setSize(int width, int height) override { glfwSetWindowSize(window_, width, height); }
    void newImGuiFrame() override {
        bool pressedAt = false;
        ImVec2 at;
        for (const InputEvent& e : input_.takeFrame()) {
            switch (e.kind) {
            case InputEvent::Kind::Key:
                ImGui_ImplGlfw_KeyCallback(window_, e.code, e.scancode, e.down ? GLFW_PRESS : GLFW_RELEASE, e.mods);
                break;
            case InputEvent::Kind::Char:
                ImGui_ImplGlfw_CharCallback(window_, static_cast<unsigned>(e.code));
                break;
            case InputEvent::Kind::MouseButton:
                if (e.code >= 0 && e.code < static_cast<int>(mouseDown_.size())) mouseDown_[static_cast<size_t>(e.code)] = e.down;
                if (e.down) {
                    pressedAt = true;
                    at = ImVec2(static_cast<float>(e.x), static_cast<float>(e.y));
                }
                break;
            }
        }
        ImGui_ImplGlfw_NewFrame();
        // The buttons as the queue has delivered them (a release waits a frame after its press),
        // and a click lands where it was made.
        ImGuiIO& io = ImGui::GetIO();
        for (size_t b = 0; b < mouseDown_.size(); ++b) io.MouseDown[b] = mouseDown_[b];
        if (pressedAt) io.MousePos = at;
    }
    void present() override { glfwSwapBuffers(window_); }
    void close() override {
        glfwDestroyWindow(window_);
        glfwTerminate();
    }
    void requestClose() override { glfwSetWindowShouldClose(window_, 1); }
    void cancelClose() override { glfwSetWindowShouldClose(window_, 0); }
    void framebufferSize(int& width, int& height) const override { glfwGetFramebufferSize(window_, &width, &height); }

private:
    static GlfwPlatform& self(GLFWwindow* w) { return *static_cast<GlfwPlatform*>(glfwGetWindowUserPointer(w)); }
    GLFWwindow* window_ = nullptr;
    InputQueue input_;
    bool fill_ = false;
    std::array<bool, 5> mouseDown_{};
};

} // namespace

} // namespace warpscope::gui

// ---------------------------------------------------------------- 3. main
int main(int argc, char** argv) {
    warpscope::gui::GlfwPlatform platform;
    return warpscope::gui::appMain(argc, argv, platform);
}
