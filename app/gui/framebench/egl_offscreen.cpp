// EGL offscreen platform of the frame bench (egl_offscreen.hpp).
//
// Sections: 1. EGL declarations  2. loading libEGL  3. display  4. context  5. framebuffer
//           6. the Platform interface
#include "gui/framebench/egl_offscreen.hpp"

#include "gui/render/gl.hpp"

#include <imgui.h>

#include <dlfcn.h>

// Only to check the values section 1 declares (never to call EGL: it is loaded at run time).
#if __has_include(<EGL/egl.h>) && __has_include(<EGL/eglext.h>)
#define WARPSCOPE_HAVE_EGL_HEADERS 1
#define EGL_NO_X11 1
#define MESA_EGL_NO_X11_HEADERS 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#else
#define WARPSCOPE_HAVE_EGL_HEADERS 0
#endif

#include <cfloat>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace warpscope::gui {

namespace {

// ---------------------------------------------------------------- 1. EGL declarations
// The few EGL types, enumerants and entry points the bench uses, declared here from the EGL 1.5
// specification and the extension specs, so building needs no EGL headers (the GPU machine has
// none). Where the headers exist, section 2 checks every value against them.
namespace egl {
using Display = void*;
using Config = void*;
using Context = void*;
using Surface = void*;
using Device = void*;
using Int = std::int32_t;
using Boolean = unsigned;
using Enum = unsigned;

constexpr Int kSuccess = 0x3000;
constexpr Int kNone = 0x3038;
constexpr Int kAlphaSize = 0x3021, kBlueSize = 0x3022, kGreenSize = 0x3023, kRedSize = 0x3024;
constexpr Int kSurfaceType = 0x3033, kPbufferBit = 0x0001;
constexpr Int kRenderableType = 0x3040, kOpenglBit = 0x0008;
constexpr Int kHeight = 0x3056, kWidth = 0x3057;
constexpr Int kVendor = 0x3053, kVersion = 0x3054, kExtensions = 0x3055, kClientApis = 0x308D;
constexpr Enum kOpenglApi = 0x30A2;
constexpr Int kContextMajorVersion = 0x3098, kContextMinorVersion = 0x30FB;
constexpr Int kContextFlags = 0x30FC, kForwardCompatibleBit = 0x0002;
constexpr Int kContextOpenglProfileMask = 0x30FD, kCoreProfileBit = 0x0001;
constexpr Enum kPlatformDevice = 0x313F;        // EGL_EXT_platform_device
constexpr Enum kPlatformSurfaceless = 0x31DD;   // EGL_MESA_platform_surfaceless
constexpr Int kDrmDeviceFile = 0x3233;          // EGL_EXT_device_drm

using GetProcAddressFn = void (*(*)(const char*))();
using GetErrorFn = Int (*)();
using GetDisplayFn = Display (*)(void*);
using InitializeFn = Boolean (*)(Display, Int*, Int*);
using TerminateFn = Boolean (*)(Display);
using QueryStringFn = const char* (*)(Display, Int);
using ChooseConfigFn = Boolean (*)(Display, const Int*, Config*, Int, Int*);
using BindApiFn = Boolean (*)(Enum);
using CreateContextFn = Context (*)(Display, Config, Context, const Int*);
using DestroyContextFn = Boolean (*)(Display, Context);
using MakeCurrentFn = Boolean (*)(Display, Surface, Surface, Context);
using CreatePbufferSurfaceFn = Surface (*)(Display, Config, const Int*);
using DestroySurfaceFn = Boolean (*)(Display, Surface);
using ReleaseThreadFn = Boolean (*)();
using QueryDevicesFn = Boolean (*)(Int, Device*, Int*);
using QueryDeviceStringFn = const char* (*)(Device, Int);
using GetPlatformDisplayFn = Display (*)(Enum, void*, const Int*);

struct Api {
    GetProcAddressFn getProcAddress = nullptr;
    GetErrorFn getError = nullptr;
    GetDisplayFn getDisplay = nullptr;
    InitializeFn initialize = nullptr;
    TerminateFn terminate = nullptr;
    QueryStringFn queryString = nullptr;
    ChooseConfigFn chooseConfig = nullptr;
    BindApiFn bindApi = nullptr;
    CreateContextFn createContext = nullptr;
    DestroyContextFn destroyContext = nullptr;
    MakeCurrentFn makeCurrent = nullptr;
    CreatePbufferSurfaceFn createPbufferSurface = nullptr;
    DestroySurfaceFn destroySurface = nullptr;
    ReleaseThreadFn releaseThread = nullptr;
    // Extensions (nullptr where the implementation lacks them).
    QueryDevicesFn queryDevices = nullptr;
    QueryDeviceStringFn queryDeviceString = nullptr;
    GetPlatformDisplayFn getPlatformDisplay = nullptr;
};
Api api;

const char* errorName(Int e) {
    static const char* const names[] = {"EGL_SUCCESS", "EGL_NOT_INITIALIZED", "EGL_BAD_ACCESS", "EGL_BAD_ALLOC", "EGL_BAD_ATTRIBUTE",
                                        "EGL_BAD_CONFIG", "EGL_BAD_CONTEXT", "EGL_BAD_CURRENT_SURFACE", "EGL_BAD_DISPLAY", "EGL_BAD_MATCH",
                                        "EGL_BAD_NATIVE_PIXMAP", "EGL_BAD_NATIVE_WINDOW", "EGL_BAD_PARAMETER", "EGL_BAD_SURFACE",
                                        "EGL_CONTEXT_LOST"};
    if (e >= kSuccess && e <= kSuccess + 14) return names[e - kSuccess];
    return "unknown EGL error";
}
} // namespace egl
using egl::api;

#if WARPSCOPE_HAVE_EGL_HEADERS
// The values above, checked against the Khronos headers where they are installed.
static_assert(egl::kSuccess == EGL_SUCCESS && egl::kNone == EGL_NONE && egl::kAlphaSize == EGL_ALPHA_SIZE &&
              egl::kBlueSize == EGL_BLUE_SIZE && egl::kGreenSize == EGL_GREEN_SIZE && egl::kRedSize == EGL_RED_SIZE);
static_assert(egl::kSurfaceType == EGL_SURFACE_TYPE && egl::kPbufferBit == EGL_PBUFFER_BIT && egl::kRenderableType == EGL_RENDERABLE_TYPE &&
              egl::kOpenglBit == EGL_OPENGL_BIT && egl::kHeight == EGL_HEIGHT && egl::kWidth == EGL_WIDTH);
static_assert(egl::kVendor == EGL_VENDOR && egl::kVersion == EGL_VERSION && egl::kExtensions == EGL_EXTENSIONS &&
              egl::kClientApis == EGL_CLIENT_APIS && egl::kOpenglApi == EGL_OPENGL_API);
static_assert(egl::kContextMajorVersion == EGL_CONTEXT_MAJOR_VERSION && egl::kContextMinorVersion == EGL_CONTEXT_MINOR_VERSION &&
              egl::kContextFlags == EGL_CONTEXT_FLAGS_KHR && egl::kForwardCompatibleBit == EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR &&
              egl::kContextOpenglProfileMask == EGL_CONTEXT_OPENGL_PROFILE_MASK &&
              egl::kCoreProfileBit == EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT);
static_assert(egl::kPlatformDevice == EGL_PLATFORM_DEVICE_EXT && egl::kPlatformSurfaceless == EGL_PLATFORM_SURFACELESS_MESA &&
              egl::kDrmDeviceFile == EGL_DRM_DEVICE_FILE_EXT && EGL_CONTEXT_LOST == egl::kSuccess + 14);
#endif

// ---------------------------------------------------------------- 2. loading libEGL
bool hasExtension(const char* list, const char* name) {
    if (!list) return false;
    size_t n = std::strlen(name);
    for (const char* p = list; (p = std::strstr(p, name)) != nullptr; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
    return false;
}

bool loadEgl() {
    if (api.getProcAddress) return true;
    void* lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!lib) {
        std::fprintf(stderr,
                     "warpscope-framebench: cannot load libEGL.so.1 (%s).\n"
                     "  It is glvnd's EGL loader (Debian: libegl1); on a machine without packages, carry it with\n"
                     "  scripts/carry-gui-deps.sh and put the folder on LD_LIBRARY_PATH.\n",
                     dlerror());
        return false;
    }
    bool ok = true;
    auto get = [&](auto& fn, const char* name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
        if (!fn) {
            std::fprintf(stderr, "warpscope-framebench: libEGL.so.1 has no %s\n", name);
            ok = false;
        }
    };
    get(api.getProcAddress, "eglGetProcAddress");
    get(api.getError, "eglGetError");
    get(api.getDisplay, "eglGetDisplay");
    get(api.initialize, "eglInitialize");
    get(api.terminate, "eglTerminate");
    get(api.queryString, "eglQueryString");
    get(api.chooseConfig, "eglChooseConfig");
    get(api.bindApi, "eglBindAPI");
    get(api.createContext, "eglCreateContext");
    get(api.destroyContext, "eglDestroyContext");
    get(api.makeCurrent, "eglMakeCurrent");
    get(api.createPbufferSurface, "eglCreatePbufferSurface");
    get(api.destroySurface, "eglDestroySurface");
    get(api.releaseThread, "eglReleaseThread");
    if (!ok) return false;
    // Client extensions (EGL 1.5 / EGL_EXT_client_extensions): the platforms and device enumeration.
    const char* client = api.queryString(nullptr, egl::kExtensions);
    auto ext = [&](auto& fn, const char* name) { fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(api.getProcAddress(name)); };
    if (hasExtension(client, "EGL_EXT_device_enumeration") || hasExtension(client, "EGL_EXT_device_base")) ext(api.queryDevices, "eglQueryDevicesEXT");
    if (hasExtension(client, "EGL_EXT_device_query") || hasExtension(client, "EGL_EXT_device_base"))
        ext(api.queryDeviceString, "eglQueryDeviceStringEXT");
    if (hasExtension(client, "EGL_EXT_platform_base")) ext(api.getPlatformDisplay, "eglGetPlatformDisplayEXT");
    std::printf("EGL client extensions: %s\n", client ? client : "(none: EGL 1.4 without EGL_EXT_client_extensions)");
    return true;
}

GlProc eglProc(const char* name) { return reinterpret_cast<GlProc>(api.getProcAddress(name)); }

} // namespace

// ---------------------------------------------------------------- 3. display
EglOffscreen::~EglOffscreen() { close(); }

// Initializes `dpy` and records what it is; false (with a line on stderr) if it cannot be used.
static bool initDisplay(egl::Display dpy, const std::string& what) {
    if (!dpy) {
        std::fprintf(stderr, "warpscope-framebench: %s: no display (%s)\n", what.c_str(), egl::errorName(api.getError()));
        return false;
    }
    egl::Int major = 0, minor = 0;
    if (!api.initialize(dpy, &major, &minor)) {
        std::fprintf(stderr, "warpscope-framebench: %s: eglInitialize failed (%s)\n", what.c_str(), egl::errorName(api.getError()));
        return false;
    }
    return true;
}

bool EglOffscreen::makeDisplay() {
    using C = EglPlatformChoice;
    const C want = options_.platform;
    // Makes the context on `dpy` (initialised; `name` says which display it is in messages); where
    // that fails, lets the display go again.
    auto tryDisplay = [this](egl::Display dpy, const std::string& name) {
        display_ = dpy;
        platformName_ = name;
        if (makeContext()) return true;
        api.terminate(display_);
        display_ = nullptr;
        return false;
    };
    // A GPU as an EGL device, with no window system: how NVIDIA's driver renders headless. Mesa lists
    // its software rasterizer as a device too (EGL_MESA_device_software); a hardware device goes first.
    if ((want == C::Auto || want == C::Device) && api.queryDevices && api.getPlatformDisplay) {
        egl::Int count = 0;
        api.queryDevices(0, nullptr, &count);
        std::vector<egl::Device> devices(static_cast<size_t>(std::max(count, 0)));
        if (count > 0) api.queryDevices(count, devices.data(), &count);
        std::printf("EGL devices: %d\n", count);
        std::vector<int> order;
        for (int pass = 0; pass < 2; ++pass)
            for (int i = 0; i < count; ++i) {
                const char* ext = api.queryDeviceString ? api.queryDeviceString(devices[static_cast<size_t>(i)], egl::kExtensions) : nullptr;
                bool software = hasExtension(ext, "EGL_MESA_device_software");
                if (pass == 0) std::printf("  device %d: %s\n", i, ext ? ext : "(no extensions)");
                if ((pass == 0) != software && (options_.device < 0 || options_.device == i)) order.push_back(i);
            }
        for (int i : order) {
            egl::Device dev = devices[static_cast<size_t>(i)];
            egl::Display dpy = api.getPlatformDisplay(egl::kPlatformDevice, dev, nullptr);
            std::string what = "EGL device " + std::to_string(i);
            if (!initDisplay(dpy, what)) continue;
            std::string name = "EGL_EXT_platform_device, device " + std::to_string(i);
            const char* ext = api.queryDeviceString ? api.queryDeviceString(dev, egl::kExtensions) : nullptr;
            if (hasExtension(ext, "EGL_EXT_device_drm")) {
                const char* file = api.queryDeviceString(dev, egl::kDrmDeviceFile);
                if (file) name += std::string(" (") + file + ")";
            }
            if (tryDisplay(dpy, name)) return true;
        }
        if (want == C::Device) {
            std::fprintf(stderr, "warpscope-framebench: no usable EGL device%s\n", options_.device >= 0 ? " with that index" : "");
            return false;
        }
    } else if (want == C::Device) {
        std::fprintf(stderr, "warpscope-framebench: this EGL has no EGL_EXT_device_enumeration / EGL_EXT_platform_base\n");
        return false;
    }
    // Mesa's surfaceless platform (a render node or llvmpipe, no window system).
    if ((want == C::Auto || want == C::Surfaceless) && api.getPlatformDisplay) {
        egl::Display dpy = api.getPlatformDisplay(egl::kPlatformSurfaceless, nullptr, nullptr);
        if (initDisplay(dpy, "EGL_MESA_platform_surfaceless") && tryDisplay(dpy, "EGL_MESA_platform_surfaceless")) return true;
        if (want == C::Surfaceless) return false;
    }
    // The default display: whatever EGL_PLATFORM says (Mesa), or the driver's choice.
    if (want == C::Auto || want == C::Default) {
        egl::Display dpy = api.getDisplay(nullptr);
        if (initDisplay(dpy, "eglGetDisplay(EGL_DEFAULT_DISPLAY)") && tryDisplay(dpy, "default display")) return true;
    }
    std::fprintf(stderr, "warpscope-framebench: no EGL display could give an OpenGL 3.3 core context\n");
    return false;
}

// ---------------------------------------------------------------- 4. context
bool EglOffscreen::makeContext() {
    const char* ext = api.queryString(display_, egl::kExtensions);
    if (!api.bindApi(egl::kOpenglApi)) {
        std::fprintf(stderr, "warpscope-framebench: %s: no desktop OpenGL (eglBindAPI: %s; client APIs: %s)\n", platformName_.c_str(),
                     egl::errorName(api.getError()), api.queryString(display_, egl::kClientApis));
        return false;
    }
    // A pbuffer-capable RGBA8 config; where none is offered (some surfaceless setups), any config,
    // made current without a surface.
    const egl::Int withPbuffer[] = {egl::kSurfaceType, egl::kPbufferBit, egl::kRenderableType, egl::kOpenglBit, egl::kRedSize, 8,
                                    egl::kGreenSize,   8,                 egl::kBlueSize,       8,                egl::kAlphaSize, 8, egl::kNone};
    const egl::Int anySurface[] = {egl::kRenderableType, egl::kOpenglBit, egl::kRedSize, 8, egl::kGreenSize, 8, egl::kBlueSize, 8, egl::kNone};
    egl::Config config = nullptr;
    egl::Int n = 0;
    bool pbufferConfig = api.chooseConfig(display_, withPbuffer, &config, 1, &n) && n > 0;
    if (!pbufferConfig && !(api.chooseConfig(display_, anySurface, &config, 1, &n) && n > 0)) {
        std::fprintf(stderr, "warpscope-framebench: %s: no OpenGL-renderable config (%s)\n", platformName_.c_str(), egl::errorName(api.getError()));
        return false;
    }
    // OpenGL 3.3 core, forward-compatible: what the desktop app asks GLFW for.
    const egl::Int attribs[] = {egl::kContextMajorVersion, 3, egl::kContextMinorVersion, 3, egl::kContextOpenglProfileMask, egl::kCoreProfileBit,
                                egl::kContextFlags, egl::kForwardCompatibleBit, egl::kNone};
    context_ = api.createContext(display_, config, nullptr, attribs);
    if (!context_) {
        std::fprintf(stderr, "warpscope-framebench: %s: cannot create an OpenGL 3.3 core context (%s)\n", platformName_.c_str(),
                     egl::errorName(api.getError()));
        return false;
    }
    bool surfaceless = hasExtension(ext, "EGL_KHR_surfaceless_context");
    if (!surfaceless && pbufferConfig) {
        const egl::Int size[] = {egl::kWidth, 16, egl::kHeight, 16, egl::kNone};
        surface_ = api.createPbufferSurface(display_, config, size);
    }
    if (!surfaceless && !surface_) {
        std::fprintf(stderr, "warpscope-framebench: %s: neither EGL_KHR_surfaceless_context nor a pbuffer\n", platformName_.c_str());
        api.destroyContext(display_, context_);
        context_ = nullptr;
        return false;
    }
    if (!api.makeCurrent(display_, surface_, surface_, context_)) {
        std::fprintf(stderr, "warpscope-framebench: %s: eglMakeCurrent failed (%s)\n", platformName_.c_str(), egl::errorName(api.getError()));
        if (surface_) api.destroySurface(display_, surface_);
        api.destroyContext(display_, context_);
        surface_ = context_ = nullptr;
        return false;
    }
    return true;
}

// ---------------------------------------------------------------- 5. framebuffer
namespace {
#define WARPSCOPE_FBO_GL(X)                                                                              \
    X(PFNGLGENFRAMEBUFFERSPROC, GenFramebuffers) X(PFNGLBINDFRAMEBUFFERPROC, BindFramebuffer)            \
    X(PFNGLDELETEFRAMEBUFFERSPROC, DeleteFramebuffers) X(PFNGLGENRENDERBUFFERSPROC, GenRenderbuffers)    \
    X(PFNGLBINDRENDERBUFFERPROC, BindRenderbuffer) X(PFNGLDELETERENDERBUFFERSPROC, DeleteRenderbuffers)  \
    X(PFNGLRENDERBUFFERSTORAGEPROC, RenderbufferStorage)                                                 \
    X(PFNGLFRAMEBUFFERRENDERBUFFERPROC, FramebufferRenderbuffer)                                         \
    X(PFNGLCHECKFRAMEBUFFERSTATUSPROC, CheckFramebufferStatus)
struct FboApi {
    WARPSCOPE_FBO_GL(WARPSCOPE_GL_POINTER)
    bool load() { return true WARPSCOPE_FBO_GL(WARPSCOPE_GL_LOAD); }
};
FboApi fbo;
} // namespace

// An RGBA8 colour renderbuffer of width_ x height_, bound for drawing and reading: the frame's
// "window". The app draws no depth or stencil (nor does its GLFW window need them).
bool EglOffscreen::makeFramebuffer() {
    if (!fbo_) {
        fbo.GenFramebuffers(1, &fbo_);
        fbo.GenRenderbuffers(1, &colour_);
    }
    fbo.BindRenderbuffer(GL_RENDERBUFFER, colour_);
    fbo.RenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width_, height_);
    fbo.BindFramebuffer(GL_FRAMEBUFFER, fbo_);
    fbo.FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_);
    GLenum status = fbo.CheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        std::fprintf(stderr, "warpscope-framebench: the %dx%d framebuffer is incomplete (0x%x)\n", width_, height_, status);
        return false;
    }
    glDrawBuffer(GL_COLOR_ATTACHMENT0);
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    return true;
}

// ---------------------------------------------------------------- 6. the Platform interface
bool EglOffscreen::open(int width, int height, bool headless) {
    if (!headless) {
        std::fprintf(stderr, "warpscope-framebench: nothing to do offscreen: give --bench-frames N, --screenshot FILE or --screenshot-matrix DIR\n");
        return false;
    }
    width_ = width;
    height_ = height;
    if (!loadEgl() || !makeDisplay()) return false;
    setGlProcLoader(eglProc);
    if (!fbo.load()) {
        std::fprintf(stderr, "warpscope-framebench: the GL driver lacks the framebuffer-object entry points\n");
        return false;
    }
    if (!makeFramebuffer()) return false;
    auto str = [](GLenum e) {
        const GLubyte* s = glGetString(e);
        return s ? reinterpret_cast<const char*>(s) : "(null)";
    };
    const char* eglVendor = api.queryString(display_, egl::kVendor);
    const char* eglVersion = api.queryString(display_, egl::kVersion);
    std::printf("EGL platform: %s\n", platformName_.c_str());
    std::printf("EGL_VENDOR: %s\nEGL_VERSION: %s\nEGL_CLIENT_APIS: %s\n", eglVendor ? eglVendor : "(null)", eglVersion ? eglVersion : "(null)",
                api.queryString(display_, egl::kClientApis));
    std::printf("GL_VENDOR: %s\nGL_RENDERER: %s\nGL_VERSION: %s\n", str(GL_VENDOR), str(GL_RENDERER), str(GL_VERSION));
    std::fflush(stdout);
    description_ = std::string("offscreen: ") + str(GL_RENDERER) + " (" + str(GL_VENDOR) + "), " + platformName_;
    return true;
}

void EglOffscreen::initImGui() {
    ImGuiIO& io = ImGui::GetIO();
    io.BackendPlatformName = "warpscope_egl_offscreen";
    lastFrame_ = std::chrono::steady_clock::now();
}

void EglOffscreen::setSize(int width, int height) {
    width_ = width;
    height_ = height;
    if (context_) makeFramebuffer();
}

// What ImGui's GLFW backend feeds each frame, from the offscreen target: its size (window and
// framebuffer are the same size, as under X with no HiDPI scaling), the time since the last
// frame, and no pointer or keys.
void EglOffscreen::newImGuiFrame() {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width_), static_cast<float>(height_));
    io.DisplayFramebufferScale = ImVec2(1, 1);
    auto now = std::chrono::steady_clock::now();
    float dt = std::chrono::duration<float>(now - lastFrame_).count();
    io.DeltaTime = dt > 0 ? dt : 1.0f / 60;
    lastFrame_ = now;
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    for (bool& down : io.MouseDown) down = false;
    io.MouseWheel = io.MouseWheelH = 0;
    io.KeyCtrl = io.KeyShift = io.KeyAlt = io.KeySuper = false;
}

void EglOffscreen::close() {
    if (!display_) return;
    if (fbo_) {
        fbo.DeleteFramebuffers(1, &fbo_);
        fbo.DeleteRenderbuffers(1, &colour_);
        fbo_ = colour_ = 0;
    }
    api.makeCurrent(display_, nullptr, nullptr, nullptr);
    if (surface_) api.destroySurface(display_, surface_);
    if (context_) api.destroyContext(display_, context_);
    api.terminate(display_);
    api.releaseThread();
    display_ = context_ = surface_ = nullptr;
}

} // namespace warpscope::gui
