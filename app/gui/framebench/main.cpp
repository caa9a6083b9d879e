// warpscope-framebench: the app's frames (app_main.cpp's start-up and frame loop, the same panels,
// layout, ImGui draw data and OpenGL3 renderer) rendered offscreen through EGL into a framebuffer
// object, with no window system, and timed with --bench-frames. For measuring the frame time on a
// machine with a GPU driver but no X server (docs/performance.md); --screenshot works too.
//
//   warpscope-framebench [--egl-platform auto|device|surfaceless|default] [--egl-device N]
//                        --lesson vector-add --param N=262144 --size 1920x1080 --scale 1.5
//                        --bench-frames 120 --bench-run
//
// Every other option is warpscope-gui's (--help lists them).
#include "gui/framebench/egl_offscreen.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    using namespace warpscope::gui;
    EglOptions egl;
    // The EGL options are the bench's own; the rest goes to the app's parser unchanged.
    std::vector<char*> rest{argv[0]};
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if ((a == "--egl-platform" || a == "--egl-device") && i + 1 >= argc) {
            std::fprintf(stderr, "warpscope-framebench: %s needs a value\n", a.c_str());
            return 2;
        }
        if (a == "--egl-platform") {
            std::string v = argv[++i];
            if (v == "auto") egl.platform = EglPlatformChoice::Auto;
            else if (v == "device") egl.platform = EglPlatformChoice::Device;
            else if (v == "surfaceless") egl.platform = EglPlatformChoice::Surfaceless;
            else if (v == "default") egl.platform = EglPlatformChoice::Default;
            else {
                std::fprintf(stderr, "warpscope-framebench: --egl-platform expects auto, device, surfaceless or default, got '%s'\n", v.c_str());
                return 2;
            }
        } else if (a == "--egl-device") {
            char* end = nullptr;
            long d = std::strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end || d < 0) {
                std::fprintf(stderr, "warpscope-framebench: --egl-device expects an index, got '%s'\n", argv[i]);
                return 2;
            }
            egl.device = static_cast<int>(d);
            egl.platform = EglPlatformChoice::Device;
        } else {
            if (a == "--help" || a == "-h")
                std::printf("warpscope-framebench: the app's frames rendered offscreen (EGL + a framebuffer object) and timed.\n"
                            "  --egl-platform P      auto (a GPU device, then surfaceless, then the default display),\n"
                            "                        device, surfaceless or default\n"
                            "  --egl-device N        the Nth EGL device (implies --egl-platform device)\n"
                            "Needs --bench-frames N, --screenshot FILE or --screenshot-matrix DIR; the app's options:\n\n");
            rest.push_back(argv[i]);
        }
    }
    rest.push_back(nullptr);
    EglOffscreen platform(egl);
    return appMain(static_cast<int>(rest.size()) - 1, rest.data(), platform);
}
