// Colours. Lane and block states use the Okabe-Ito palette, which stays distinguishable for the
// common forms of colour blindness; every colour also has a legend entry with its name.
#pragma once
#include "gui/model/snapshot.hpp"
#include "gui/style/syntax.hpp"

#include <cstdint>

namespace warpscope::gui {

struct Rgb {
    uint8_t r = 0, g = 0, b = 0;
};

namespace okabe_ito {
inline constexpr Rgb Black{0, 0, 0};
inline constexpr Rgb Orange{230, 159, 0};
inline constexpr Rgb SkyBlue{86, 180, 233};
inline constexpr Rgb BluishGreen{0, 158, 115};
inline constexpr Rgb Yellow{240, 228, 66};
inline constexpr Rgb Blue{0, 114, 178};
inline constexpr Rgb Vermillion{213, 94, 0};
inline constexpr Rgb ReddishPurple{204, 121, 167};
} // namespace okabe_ito

Rgb laneColor(LaneState s);
Rgb blockPendingColor();
Rgb blockDoneColor();
Rgb faultColor();
// The Source panel's current-line band and the selected warp's arrow on it: the light theme needs a
// paler band and a dark arrow (a yellow arrow on light blue cannot be seen).
int currentLineAlpha(bool darkTheme);
Rgb selectedArrowColor(bool darkTheme);
Rgb tokenColor(TokenKind k, bool darkTheme);

} // namespace warpscope::gui
