#include "gui/model/console_model.hpp"

namespace warpscope::gui {

void ConsoleModel::push(ConsoleStream s, std::string text) {
    if (!text.empty() && text.back() == '\r') text.pop_back();
    lines_.push_back({s, std::move(text)});
    if (lines_.size() > kMaxLines) {
        const size_t drop = lines_.size() - kMaxLines;
        lines_.erase(lines_.begin(), lines_.begin() + static_cast<std::ptrdiff_t>(drop));
        dropped_ += drop;
    }
}

void ConsoleModel::append(ConsoleStream stream, const std::string& chunk) {
    std::lock_guard<std::mutex> lock(m_);
    std::string& part = partial_[static_cast<int>(stream)];
    for (char c : chunk) {
        if (c == '\n') {
            push(stream, std::move(part));
            part.clear();
        } else {
            part += c;
        }
    }
    ++revision_;
}

void ConsoleModel::note(const std::string& line) {
    std::lock_guard<std::mutex> lock(m_);
    // A note starts on a line of its own: what the program printed without a newline ends first.
    for (int s = 0; s < 2; ++s)
        if (!partial_[s].empty()) {
            push(static_cast<ConsoleStream>(s), std::move(partial_[s]));
            partial_[s].clear();
        }
    size_t at = 0;
    for (;;) {
        size_t nl = line.find('\n', at);
        push(ConsoleStream::Note, line.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
        if (nl == std::string::npos || nl + 1 == line.size()) break;
        at = nl + 1;
    }
    ++revision_;
}

void ConsoleModel::clear() {
    std::lock_guard<std::mutex> lock(m_);
    lines_.clear();
    for (auto& p : partial_) p.clear();
    dropped_ = 0;
    ++revision_;
}

std::vector<ConsoleLine> ConsoleModel::lines() const {
    std::lock_guard<std::mutex> lock(m_);
    std::vector<ConsoleLine> out;
    out.reserve(lines_.size() + 3 + (dropped_ ? 1 : 0));
    if (dropped_) out.push_back({ConsoleStream::Note, "(" + std::to_string(dropped_) + " earlier lines dropped)"});
    out.insert(out.end(), lines_.begin(), lines_.end());
    for (int s = 0; s < 3; ++s)
        if (!partial_[s].empty()) out.push_back({static_cast<ConsoleStream>(s), partial_[s]});
    return out;
}

std::string ConsoleModel::text() const {
    std::string t;
    for (auto& l : lines()) t += l.text + "\n";
    return t;
}

uint64_t ConsoleModel::revision() const {
    std::lock_guard<std::mutex> lock(m_);
    return revision_;
}

size_t ConsoleModel::dropped() const {
    std::lock_guard<std::mutex> lock(m_);
    return dropped_;
}

} // namespace warpscope::gui
