// The heat-map GLSL program: loading, compiling, the counts texture, and the draw callback.
#include "gui/render/heatmap_gl.hpp"
#include "base/files.hpp"

#include "base/data_dir.hpp"

#include "gui/render/gl.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace warpscope::gui {

namespace {
// OpenGL 2+ entry points, looked up through the host's loader (render/gl.hpp).
#define WARPSCOPE_HEATMAP_GL(X)                                                                         \
    X(PFNGLCREATESHADERPROC, CreateShader) X(PFNGLSHADERSOURCEPROC, ShaderSource)                       \
    X(PFNGLCOMPILESHADERPROC, CompileShader) X(PFNGLGETSHADERIVPROC, GetShaderiv)                       \
    X(PFNGLGETSHADERINFOLOGPROC, GetShaderInfoLog) X(PFNGLCREATEPROGRAMPROC, CreateProgram)             \
    X(PFNGLATTACHSHADERPROC, AttachShader) X(PFNGLLINKPROGRAMPROC, LinkProgram)                         \
    X(PFNGLGETPROGRAMIVPROC, GetProgramiv) X(PFNGLGETPROGRAMINFOLOGPROC, GetProgramInfoLog)             \
    X(PFNGLDELETESHADERPROC, DeleteShader) X(PFNGLUSEPROGRAMPROC, UseProgram)                           \
    X(PFNGLGETUNIFORMLOCATIONPROC, GetUniformLocation) X(PFNGLUNIFORM1IPROC, Uniform1i)                 \
    X(PFNGLUNIFORM2IPROC, Uniform2i) X(PFNGLUNIFORM1FPROC, Uniform1f) X(PFNGLUNIFORM4FPROC, Uniform4f)  \
    X(PFNGLGENVERTEXARRAYSPROC, GenVertexArrays) X(PFNGLBINDVERTEXARRAYPROC, BindVertexArray)           \
    X(PFNGLACTIVETEXTUREPROC, ActiveTexture)
struct Gl {
    WARPSCOPE_HEATMAP_GL(WARPSCOPE_GL_POINTER)
    bool load() { return true WARPSCOPE_HEATMAP_GL(WARPSCOPE_GL_LOAD); }
};
Gl gl;

#ifdef __EMSCRIPTEN__
// WebGL2 compiles GLSL ES 3.00: the same shaders with that version line and default precisions
// (the desktop's `#version 330 core` line is replaced; nothing else differs).
std::string glslEs(const std::string& src) {
    const size_t eol = src.find('\n');
    if (src.rfind("#version", 0) != 0 || eol == std::string::npos) return src;
    return "#version 300 es\nprecision highp float;\nprecision highp int;\nprecision highp sampler2D;\n" + src.substr(eol + 1);
}
#endif

std::string readText(const fs::path& p) { return base::readFile(p).value_or(""); }

// Whether a shader compiled (GetShaderiv, GL_COMPILE_STATUS) or a program linked (GetProgramiv,
// GL_LINK_STATUS); if not, `log` is the driver's reason.
template <class GetIv, class GetLog>
bool succeeded(unsigned object, GetIv getIv, GLenum status, GetLog getLog, std::string& log) {
    GLint ok = 0;
    getIv(object, status, &ok);
    if (ok) return true;
    char text[2048] = {};
    getLog(object, sizeof text, nullptr, text);
    log = text;
    return false;
}

unsigned compile(unsigned kind, const std::string& src, const std::string& name, std::string& err) {
    unsigned sh = gl.CreateShader(kind);
    const char* p = src.c_str();
    gl.ShaderSource(sh, 1, &p, nullptr);
    gl.CompileShader(sh);
    std::string log;
    if (!succeeded(sh, gl.GetShaderiv, GL_COMPILE_STATUS, gl.GetShaderInfoLog, log)) {
        err = name + " does not compile: " + log;
        gl.DeleteShader(sh);
        return 0;
    }
    return sh;
}
} // namespace

fs::path findShadersDir(const fs::path& lessonsDir) {
    std::error_code ec;
    auto has = [&](const fs::path& d) { return !d.empty() && fs::exists(d / "heatmap.frag", ec); };
    if (const char* env = std::getenv("WARPSCOPE_SHADERS"); env && has(env)) return env;
    if (!lessonsDir.empty() && has(lessonsDir.parent_path() / "shaders")) return lessonsDir.parent_path() / "shaders";
    // The data folder: an install's share/warpscope, or the source tree of a build-folder run.
    if (const fs::path data = base::findDataDir(); has(data / "shaders")) return data / "shaders";
    return {};
}

bool HeatmapRenderer::init(const fs::path& dir) {
    if (tried_) return ready_;
    tried_ = true;
    if (dir.empty()) {
        status_ = "shaders/heatmap.vert and heatmap.frag were not found (set WARPSCOPE_SHADERS); drawing with ImGui rectangles.";
        return false;
    }
    std::string vs = readText(dir / "heatmap.vert"), fsrc = readText(dir / "heatmap.frag");
    if (vs.empty() || fsrc.empty()) {
        status_ = "cannot read the heat-map shaders in " + dir.string() + "; drawing with ImGui rectangles.";
        return false;
    }
#ifdef __EMSCRIPTEN__
    vs = glslEs(vs);
    fsrc = glslEs(fsrc);
#endif
    if (!gl.load()) {
        status_ = "this OpenGL lacks the shader entry points; drawing with ImGui rectangles.";
        return false;
    }
    std::string err;
    unsigned v = compile(GL_VERTEX_SHADER, vs, "heatmap.vert", err);
    unsigned f = v ? compile(GL_FRAGMENT_SHADER, fsrc, "heatmap.frag", err) : 0;
    if (!v || !f) {
        status_ = err + " Drawing with ImGui rectangles.";
        return false;
    }
    program_ = gl.CreateProgram();
    gl.AttachShader(program_, v);
    gl.AttachShader(program_, f);
    gl.LinkProgram(program_);
    gl.DeleteShader(v);
    gl.DeleteShader(f);
    if (std::string log; !succeeded(program_, gl.GetProgramiv, GL_LINK_STATUS, gl.GetProgramInfoLog, log)) {
        status_ = "the heat-map shaders do not link: " + log;
        return false;
    }
    gl.GenVertexArrays(1, &vao_);
    glGenTextures(1, &texture_);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    status_ = "GLSL shaders from " + dir.string();
    ready_ = true;
    return true;
}

void HeatmapRenderer::upload(uint64_t key, const std::vector<float>& counts, int width, int rows) {
    if (!ready_ || (key == key_ && width == width_ && rows == rows_)) return;
    key_ = key;
    width_ = width;
    rows_ = rows;
    glBindTexture(GL_TEXTURE_2D, texture_);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, width, rows, 0, GL_RED, GL_FLOAT, counts.data());
}

void HeatmapRenderer::draw(ImDrawList* dl, ImVec2 a, ImVec2 b, float maxValue, bool logScale, int hover, int count) {
    if (!ready_) return;
    a_ = a;
    b_ = b;
    max_ = maxValue;
    log_ = logScale;
    hover_ = hover;
    count_ = count;
    dl->AddCallback(&HeatmapRenderer::callback, this);
    dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

void HeatmapRenderer::callback(const ImDrawList*, const ImDrawCmd* cmd) {
    auto* self = static_cast<HeatmapRenderer*>(cmd->UserCallbackData);
    ImDrawData* dd = ImGui::GetDrawData();
    if (!dd) return;
    ImVec2 off = dd->DisplayPos, scale = dd->FramebufferScale;
    int fbH = static_cast<int>(dd->DisplaySize.y * scale.y);
    ImVec4 c = cmd->ClipRect;
    glEnable(GL_SCISSOR_TEST);
    glScissor(static_cast<int>((c.x - off.x) * scale.x), static_cast<int>(fbH - (c.w - off.y) * scale.y),
              static_cast<int>((c.z - c.x) * scale.x), static_cast<int>((c.w - c.y) * scale.y));
    gl.UseProgram(self->program_);
    gl.BindVertexArray(self->vao_);
    gl.ActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, self->texture_);
    auto loc = [&](const char* n) { return gl.GetUniformLocation(self->program_, n); };
    gl.Uniform4f(loc("uRect"), self->a_.x, self->a_.y, self->b_.x, self->b_.y);
    gl.Uniform4f(loc("uDisplay"), off.x, off.y, dd->DisplaySize.x, dd->DisplaySize.y);
    gl.Uniform1i(loc("uCounts"), 0);
    gl.Uniform2i(loc("uSize"), self->width_, self->rows_);
    gl.Uniform1i(loc("uCount"), self->count_);
    gl.Uniform1f(loc("uMax"), self->max_);
    gl.Uniform1i(loc("uLog"), self->log_ ? 1 : 0);
    gl.Uniform1i(loc("uHover"), self->hover_);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

} // namespace warpscope::gui
