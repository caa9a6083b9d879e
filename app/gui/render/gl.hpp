// The OpenGL declarations the app's own GL code uses (heat map, screenshots, the frame loop), and
// where its GL 2+ entry points come from. The system GL header declares only OpenGL 1.x; newer
// functions are looked up at run time through a loader the host installs: GLFW's
// glfwGetProcAddress in the desktop app, eglGetProcAddress in the offscreen frame bench
// (app/gui/framebench/). Panels never see GLFW or EGL.
#pragma once
#include <GL/gl.h>
#include <GL/glext.h>

namespace warpscope::gui {

using GlProc = void (*)();
using GlProcLoader = GlProc (*)(const char* name);

// Installed once, after a GL context is current and before the first frame.
void setGlProcLoader(GlProcLoader loader);
// nullptr when no loader is installed or the driver lacks `name`.
GlProc glProc(const char* name);
// Sets the function pointer `fn` (a PFNGL...PROC) to the entry point `name`; false when missing.
template <class Fn>
bool loadGlProc(Fn& fn, const char* name) {
    fn = reinterpret_cast<Fn>(glProc(name));
    return fn != nullptr;
}

// A struct of GL entry points from one list, each named once: X(PFNGL...PROC, Name) for glName.
//   #define MY_GL(X) X(PFNGLCREATESHADERPROC, CreateShader) X(PFNGLSHADERSOURCEPROC, ShaderSource)
//   struct MyGl { MY_GL(WARPSCOPE_GL_POINTER) bool load() { return true MY_GL(WARPSCOPE_GL_LOAD); } };
// load() is false when the driver lacks any of them.
#define WARPSCOPE_GL_POINTER(type, name) type name = nullptr;
#define WARPSCOPE_GL_LOAD(type, name) &&loadGlProc(name, "gl" #name)

} // namespace warpscope::gui
