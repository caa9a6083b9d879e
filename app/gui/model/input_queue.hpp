// Keys, characters and mouse buttons in the order the window system sent them, handed to Dear
// ImGui one frame at a time so that nothing is lost.
//
// Dear ImGui 1.86 reads which keys are down once a frame (io.KeysDown), so a key pressed and
// released between two frames is never seen as pressed: a quick tap of E or R did nothing, and
// an Enter typed between two frames was lost in the editor. The desktop app's GLFW callbacks push
// every event here instead (main.cpp, chained to ImGui's own callbacks); each frame takes the
// events that can be applied together without hiding one another: at most one change per key or
// button, and no character after an editing key (Enter, Backspace, arrows...) or an editing key
// after a character in the same frame, since ImGui's text field reads the characters before the
// keys. The rest waits for the next frame, in order. Window-free: the tests push and take.
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

namespace warpscope::gui {

struct InputEvent {
    enum class Kind { Key, Char, MouseButton } kind = Kind::Key;
    int code = 0;          // Key: the GLFW key code; Char: the Unicode code point; MouseButton: the button
    bool down = false;     // Key, MouseButton: pressed (true) or released
    int scancode = 0;      // Key: as GLFW gave it (handed on to ImGui's callback)
    int mods = 0;          // Key, MouseButton: GLFW modifier bits
    double x = 0, y = 0;   // MouseButton: where the pointer was
};

class InputQueue {
public:
    // GLFW's key codes the editor's text field treats as editing keys (see the header comment).
    static bool isEditingKey(int key);

    void push(const InputEvent& e) { pending_.push_back(e); }
    void key(int code, bool down, int scancode = 0, int mods = 0) { push({InputEvent::Kind::Key, code, down, scancode, mods, 0, 0}); }
    void character(unsigned codepoint) { push({InputEvent::Kind::Char, static_cast<int>(codepoint), false, 0, 0, 0, 0}); }
    void mouseButton(int button, bool down, int mods, double x, double y) {
        push({InputEvent::Kind::MouseButton, button, down, 0, mods, x, y});
    }
    // The events for the next frame, in order (see the header comment); the rest stay queued.
    std::vector<InputEvent> takeFrame();
    bool empty() const { return pending_.empty(); }
    size_t size() const { return pending_.size(); }

private:
    std::deque<InputEvent> pending_;
};

// What a frame's events leave pressed and what they pressed, the way ImGui sees it: `down` holds
// the state after the frame's events; a key that went down in the frame counts as pressed even
// if it is up again by the next. Used by the tests to check that a short tap is seen.
struct KeyFrameState {
    std::vector<int> wentDown;   // keys pressed this frame, in order
    bool pressed(int key) const;
};
KeyFrameState applyFrame(const std::vector<InputEvent>& frame, std::vector<bool>& keysDown);

} // namespace warpscope::gui
