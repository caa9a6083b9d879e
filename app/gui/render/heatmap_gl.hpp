// Draws the memory heat map with a GLSL program (shaders/heatmap.vert/.frag, read at run time
// from the shaders folder, found like the lessons folder), inside ImGui's draw list through a
// draw callback. When the shader files are missing or fail to compile, ready() is false and
// status() says why; the panel then draws with ImGui rectangles instead.
#pragma once
#include <imgui.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace warpscope::gui {

class HeatmapRenderer {
public:
    // Loads and compiles the shaders from `dir` (once; later calls return the first outcome).
    bool init(const std::filesystem::path& dir);
    bool ready() const { return ready_; }
    const std::string& status() const { return status_; }

    // Counts, row-major, `width` per row; uploaded when `key` changes.
    void upload(uint64_t key, const std::vector<float>& counts, int width, int rows);
    // Queues the quad into the current window's draw list.
    void draw(ImDrawList* dl, ImVec2 a, ImVec2 b, float maxValue, bool logScale, int hover, int count);

private:
    static void callback(const ImDrawList* list, const ImDrawCmd* cmd);
    bool tried_ = false, ready_ = false;
    std::string status_;
    unsigned program_ = 0, vao_ = 0, texture_ = 0;
    uint64_t key_ = ~0ull;
    int width_ = 0, rows_ = 0;
    // Parameters of the queued draw (one heat map per frame).
    ImVec2 a_, b_;
    float max_ = 1;
    bool log_ = true;
    int hover_ = -1, count_ = 0;
};

// The shaders folder: $WARPSCOPE_SHADERS, <lessons>/../shaders, ./shaders, or beside the
// executable's ancestors. Empty when none has heatmap.frag.
std::filesystem::path findShadersDir(const std::filesystem::path& lessonsDir);

} // namespace warpscope::gui
