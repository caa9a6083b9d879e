#include "base/parse_number.hpp"

#include "base/error.hpp"

#include <cctype>
#include <limits>

namespace warpscope {

uint64_t parseCount(const std::string& text, const std::string& option)
{
    auto bad = [&]() {
        return Error(Error::Kind::Input, option + " expects a positive whole number, got '" + text + "'.");
    };
    if (text.empty()) throw bad();
    uint64_t n = 0;
    for (char c : text) {
        if (c < '0' || c > '9') throw bad();
        uint64_t digit = static_cast<uint64_t>(c - '0');
        if (n > (std::numeric_limits<uint64_t>::max() - digit) / 10)
            throw Error(Error::Kind::Input, option + " '" + text + "' is too large.");
        n = n * 10 + digit;
    }
    if (n == 0) throw bad();
    return n;
}

uint64_t parseSize(const std::string& text, const std::string& option)
{
    std::string digits = text;
    uint64_t unit = 1;
    if (!text.empty()) {
        switch (std::toupper(static_cast<unsigned char>(text.back()))) {
        case 'K': unit = 1ull << 10; break;
        case 'M': unit = 1ull << 20; break;
        case 'G': unit = 1ull << 30; break;
        case 'T': unit = 1ull << 40; break;
        default: break;
        }
        if (unit != 1) digits.pop_back();
    }
    uint64_t n = 0;
    try {
        n = parseCount(digits, option);
    } catch (const Error&) {
        throw Error(Error::Kind::Input, option + " expects a size in bytes such as 4096, 512M or 16G, got '" + text + "'.");
    }
    if (n > std::numeric_limits<uint64_t>::max() / unit)
        throw Error(Error::Kind::Input, option + " '" + text + "' is too large.");
    return n * unit;
}

} // namespace warpscope
