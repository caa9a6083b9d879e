// No input lost: events from the window system are handed to ImGui one frame at a time, in order,
// so a key pressed and released between two frames is still seen as pressed (model/input_queue.hpp).
#include "gui/model/input_queue.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace warpscope::gui;

namespace {
constexpr int kE = 69, kR = 82, kEnter = 257, kShift = 340;

// Takes frames until the queue is empty; returns each frame's pressed keys and the typed text as
// ImGui's text field would order it (characters, then the frame's Enter presses).
struct Frames {
    std::vector<KeyFrameState> pressed;
    std::string text;
    int frames = 0;
};
Frames drain(InputQueue& q) {
    Frames f;
    std::vector<bool> down;
    while (!q.empty() && f.frames < 1000) {
        std::vector<InputEvent> frame = q.takeFrame();
        REQUIRE_FALSE(frame.empty());
        for (auto& e : frame)
            if (e.kind == InputEvent::Kind::Char) f.text += static_cast<char>(e.code);
        KeyFrameState st = applyFrame(frame, down);
        if (st.pressed(kEnter)) f.text += '\n';
        f.pressed.push_back(st);
        ++f.frames;
    }
    return f;
}
} // namespace

TEST_CASE("a key pressed and released within one frame is seen as pressed", "[input]") {
    InputQueue q;
    q.key(kE, true);
    q.key(kE, false);   // both arrive before the next frame
    std::vector<bool> down;
    KeyFrameState first = applyFrame(q.takeFrame(), down);
    CHECK(first.pressed(kE));        // the frame sees the press: Run to end happens
    CHECK(down[kE]);
    KeyFrameState second = applyFrame(q.takeFrame(), down);
    CHECK_FALSE(second.pressed(kE));
    CHECK_FALSE(down[kE]);           // and the release the frame after
    CHECK(q.empty());
}

TEST_CASE("ten quick taps of E and R are ten presses, in order", "[input]") {
    InputQueue q;
    std::vector<int> typed;
    for (int i = 0; i < 10; ++i) {
        int k = i % 2 ? kR : kE;
        typed.push_back(k);
        q.key(k, true);
        q.key(k, false);
    }
    // Everything arrived between two frames (a slow frame): none is lost.
    Frames f = drain(q);
    std::vector<int> seen;
    for (auto& st : f.pressed)
        for (int k : st.wentDown) seen.push_back(k);
    CHECK(seen == typed);
}

TEST_CASE("Enter typed between characters keeps its place in the text", "[input]") {
    InputQueue q;
    auto type = [&](char c) {
        q.key(c, true);
        q.character(static_cast<unsigned char>(c));
        q.key(c, false);
    };
    type('a');
    type('b');
    q.key(kEnter, true);
    q.key(kEnter, false);
    type('c');
    q.key(kShift, true);
    q.key(kEnter, true);
    q.key(kEnter, false);
    q.key(kShift, false);
    type('d');
    Frames f = drain(q);
    CHECK(f.text == "ab\nc\nd");
    CHECK(f.frames <= 8);   // letters share frames; only the ordering splits them
}

TEST_CASE("a click shorter than a frame is a press, then a release, at the place it was made", "[input]") {
    InputQueue q;
    q.mouseButton(0, true, 0, 100, 50);
    q.mouseButton(0, false, 0, 100, 50);
    std::vector<InputEvent> f1 = q.takeFrame();
    REQUIRE(f1.size() == 1);
    CHECK(f1[0].down);
    CHECK(f1[0].x == 100);
    std::vector<InputEvent> f2 = q.takeFrame();
    REQUIRE(f2.size() == 1);
    CHECK_FALSE(f2[0].down);
}
