// Input events handed to ImGui one frame at a time (input_queue.hpp).
#include "gui/model/input_queue.hpp"

#include <algorithm>
#include <set>
#include <utility>

namespace warpscope::gui {

bool InputQueue::isEditingKey(int key) {
    switch (key) {
    case 257:   // Enter
    case 335:   // keypad Enter
    case 258:   // Tab
    case 259:   // Backspace
    case 261:   // Delete
    case 262: case 263: case 264: case 265:   // Right, Left, Down, Up
    case 266: case 267:                       // Page Up, Page Down
    case 268: case 269:                       // Home, End
        return true;
    default:
        return false;
    }
}

std::vector<InputEvent> InputQueue::takeFrame() {
    std::vector<InputEvent> out;
    std::set<std::pair<int, int>> changed;   // (kind, code) that already changed this frame
    bool hadChar = false, hadEditingKey = false;
    while (!pending_.empty()) {
        const InputEvent& e = pending_.front();
        if (e.kind == InputEvent::Kind::Char) {
            if (hadEditingKey) break;
            hadChar = true;
        } else {
            auto id = std::make_pair(static_cast<int>(e.kind), e.code);
            if (changed.count(id)) break;   // a second change of this key waits: the first must be seen
            bool editing = e.kind == InputEvent::Kind::Key && isEditingKey(e.code);
            if (editing && hadChar) break;
            changed.insert(id);
            hadEditingKey = hadEditingKey || (editing && e.down);
        }
        out.push_back(e);
        pending_.pop_front();
    }
    return out;
}

bool KeyFrameState::pressed(int key) const { return std::find(wentDown.begin(), wentDown.end(), key) != wentDown.end(); }

KeyFrameState applyFrame(const std::vector<InputEvent>& frame, std::vector<bool>& keysDown) {
    KeyFrameState st;
    for (auto& e : frame) {
        if (e.kind != InputEvent::Kind::Key || e.code < 0) continue;
        if (keysDown.size() <= static_cast<size_t>(e.code)) keysDown.resize(static_cast<size_t>(e.code) + 1, false);
        if (e.down && !keysDown[static_cast<size_t>(e.code)]) st.wentDown.push_back(e.code);
        keysDown[static_cast<size_t>(e.code)] = e.down;
    }
    return st;
}

} // namespace warpscope::gui
