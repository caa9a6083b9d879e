// Key codes the panels' shortcuts test with ImGui::IsKeyPressed. Dear ImGui 1.86 indexes
// io.KeysDown by the platform backend's own key codes; the desktop app's backend is GLFW, so these
// are GLFW's values (main.cpp checks each against GLFW's header at compile time). Kept here so the
// panels build without GLFW (the offscreen frame bench has none).
#pragma once

namespace warpscope::gui::key {

inline constexpr int Space = 32;
inline constexpr int Minus = 45;
inline constexpr int Equal = 61;
inline constexpr int B = 66;
inline constexpr int E = 69;
inline constexpr int Q = 81;
inline constexpr int R = 82;
inline constexpr int S = 83;
inline constexpr int Y = 89;
inline constexpr int Z = 90;
inline constexpr int Escape = 256;
inline constexpr int Backspace = 259;
inline constexpr int PageUp = 266;
inline constexpr int PageDown = 267;
inline constexpr int F1 = 290;
inline constexpr int F5 = 294;
inline constexpr int F10 = 299;
inline constexpr int F11 = 300;
inline constexpr int KpSubtract = 333;
inline constexpr int KpAdd = 334;

} // namespace warpscope::gui::key
