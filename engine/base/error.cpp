#include "base/error.hpp"

namespace warpscope {

const char* Error::kindName(Kind k) {
    switch (k) {
    case Kind::Input: return "input";
    case Kind::Unsupported: return "unsupported";
    case Kind::Fault: return "fault";
    case Kind::Deadlock: return "deadlock";
    case Kind::Budget: return "budget";
    case Kind::Device: return "device";
    case Kind::Cancelled: return "cancelled";
    }
    return "error";
}

} // namespace warpscope
