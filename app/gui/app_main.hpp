// The app's start-up and frame loop (app_main.cpp), shared by the desktop program (main.cpp: a
// GLFW window) and the offscreen frame bench (framebench/: EGL and a framebuffer object), so the
// bench renders exactly the frames the app renders. A Platform is what differs between them: where
// the GL context and the pixels live, and where ImGui's input and timing come from.
#pragma once
#include "gui/panels/frame.hpp"

#include <functional>
#include <string>

namespace warpscope::gui {

class Platform : public WindowHost {
public:
    // The program's name in messages and --version.
    virtual const char* programName() const = 0;
    // Creates the window or offscreen target (width x height) with an OpenGL 3.3 core context
    // current, and installs the GL entry-point loader (render/gl.hpp); on failure prints why.
    virtual bool open(int width, int height, bool headless) = 0;
    // Called before open when no size was asked for: the window fills the screen's work area.
    virtual void fillScreen() {}
    // The platform's ImGui backend, after ImGui::CreateContext and before the first frame.
    virtual void initImGui() = 0;
    virtual void shutdownImGui() = 0;
    virtual bool shouldClose() const = 0;
    // The window's close button or Quit was answered "Cancel" (unsaved text): stay open.
    virtual void cancelClose() {}
    // Handles input; `mayWait`: nothing is running, so it may sleep up to 0.1 s for an event.
    virtual void pollEvents(bool mayWait) = 0;
    virtual void setSize(int width, int height) = 0;
    // Feeds ImGui's IO for the next frame: display size, framebuffer scale, delta time, input.
    virtual void newImGuiFrame() = 0;
    // Shows the rendered frame (swap buffers; offscreen: nothing).
    virtual void present() = 0;
    virtual void close() = 0;
    // One line printed above --bench-frames' result (the GL renderer, ...); "" for none.
    virtual std::string describe() const { return {}; }
    // The GLSL version line Dear ImGui's OpenGL3 renderer compiles its shaders with.
    virtual const char* glslVersion() const { return "#version 330 core"; }
    // Runs frames until `frame` returns false. The web page instead hands `frame` to the browser
    // and returns at once; framesOutliveRunApp() says so, and runApp then keeps what the frames use.
    virtual void runLoop(const std::function<bool()>& frame) {
        while (frame()) {
        }
    }
    virtual bool framesOutliveRunApp() const { return false; }
    // Where frames outlive runApp there is no exit to save the settings at: true every few seconds.
    virtual bool timeToSaveSettings() { return false; }
    // After a frame is drawn, before present(): the web page reports the model's state to its tests.
    virtual void frameDrawn(const AppContext& /*app*/, int /*fbWidth*/, int /*fbHeight*/) {}
};

// Parses the options, sets up the session and runs the frame loop on `platform`.
int runApp(int argc, char** argv, Platform& platform);
// runApp with the error messages and exit codes main() gives (2 for an error).
int appMain(int argc, char** argv, Platform& platform);

} // namespace warpscope::gui
