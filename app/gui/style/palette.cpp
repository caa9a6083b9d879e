#include "gui/style/palette.hpp"

namespace warpscope::gui {

Rgb laneColor(LaneState s) {
    using namespace okabe_ito;
    switch (s) {
    case LaneState::None: return {40, 40, 44};
    case LaneState::Active: return BluishGreen;
    case LaneState::Masked: return Orange;
    case LaneState::Predicated: return SkyBlue;
    case LaneState::AtBarrier: return ReddishPurple;
    case LaneState::Exited: return {110, 110, 110};
    case LaneState::Count_: break;
    }
    return Black;
}

Rgb blockPendingColor() { return {58, 58, 64}; }
Rgb blockDoneColor() { return {120, 120, 120}; }
int currentLineAlpha(bool darkTheme) { return darkTheme ? 110 : 60; }

Rgb selectedArrowColor(bool darkTheme) { return darkTheme ? okabe_ito::Yellow : Rgb{25, 25, 30}; }

Rgb faultColor() { return okabe_ito::Vermillion; }

Rgb tokenColor(TokenKind k, bool dark) {
    switch (k) {
    case TokenKind::Plain: return dark ? Rgb{225, 225, 225} : Rgb{20, 20, 20};
    case TokenKind::Keyword: return dark ? Rgb{86, 180, 233} : Rgb{0, 90, 160};
    case TokenKind::Type: return dark ? Rgb{102, 204, 170} : Rgb{0, 120, 90};
    case TokenKind::Builtin: return dark ? Rgb{240, 200, 90} : Rgb{150, 100, 0};
    case TokenKind::Number: return dark ? Rgb{220, 150, 200} : Rgb{150, 50, 120};
    case TokenKind::String: return dark ? Rgb{230, 159, 0} : Rgb{160, 80, 0};
    case TokenKind::Comment: return dark ? Rgb{140, 150, 140} : Rgb{100, 110, 100};
    case TokenKind::Preprocessor: return dark ? Rgb{204, 121, 167} : Rgb{140, 60, 110};
    }
    return {};
}

} // namespace warpscope::gui
