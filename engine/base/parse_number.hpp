// Numbers given on a command line (the CLI's and the app's options): whole counts and byte sizes
// with a unit suffix. One parser, so `--device-memory 16G` means the same to both programs.
#pragma once
#include <cstdint>
#include <string>

namespace warpscope {

// A positive whole number ("4096"); throws Error(Input) naming `option` for anything else
// ("", "-1", "0", "12x", "1e9", a value past 2^64).
uint64_t parseCount(const std::string& text, const std::string& option);

// A whole number of bytes with an optional binary unit: "4096", "512K", "512M", "16G", "1T"
// (K = 1024; the letter in either case). Throws Error(Input) naming `option` when malformed or
// when the product does not fit in 64 bits.
uint64_t parseSize(const std::string& text, const std::string& option);

} // namespace warpscope
