#include "gui/render/screenshot.hpp"
#include "gui/render/gl.hpp"

#include <stb_image_write.h>

#include <vector>

namespace warpscope::gui {

bool writeFramebufferPng(const std::string& path, int w, int h, std::string* error) {
    std::vector<unsigned char> rgba(static_cast<size_t>(w) * h * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    // The window's back buffer; an offscreen framebuffer (the frame bench) reads its own colour
    // attachment, which is already the read buffer.
    GLint readFbo = 0;
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &readFbo);
    if (readFbo == 0) glReadBuffer(GL_BACK);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    // OpenGL rows go bottom-up; PNG rows top-down. Drop alpha.
    std::vector<unsigned char> rgb(static_cast<size_t>(w) * h * 3);
    for (int y = 0; y < h; ++y) {
        const unsigned char* src = rgba.data() + static_cast<size_t>(h - 1 - y) * w * 4;
        unsigned char* dst = rgb.data() + static_cast<size_t>(y) * w * 3;
        for (int x = 0; x < w; ++x) {
            dst[x * 3 + 0] = src[x * 4 + 0];
            dst[x * 3 + 1] = src[x * 4 + 1];
            dst[x * 3 + 2] = src[x * 4 + 2];
        }
    }
    if (!stbi_write_png(path.c_str(), w, h, 3, rgb.data(), w * 3)) {
        if (error) *error = "cannot write '" + path + "'";
        return false;
    }
    return true;
}

} // namespace warpscope::gui
