// The Console panel's state (panels/panel_console.cpp): what a whole program printed, line by
// line, as it runs in its sandboxed child process. Chunks arrive from the program model's thread
// (stdout, stderr) and the app's own notes (build, pause, the sandbox's end message); the panel
// reads a copy. Window-free and thread-safe.
#pragma once
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace warpscope::gui {

enum class ConsoleStream : uint8_t { Out, Err, Note };

struct ConsoleLine {
    ConsoleStream stream = ConsoleStream::Out;
    std::string text;     // without the newline
};

class ConsoleModel {
public:
    static constexpr size_t kMaxLines = 20000;   // the oldest go first (one note says so)

    // Appends a chunk of a stream; a line is complete at its '\n' (a partial one shows too).
    void append(ConsoleStream stream, const std::string& chunk);
    // A whole line of the app's own (build, pause, how the program ended).
    void note(const std::string& line);
    void clear();

    std::vector<ConsoleLine> lines() const;   // complete lines, then each stream's partial line
    std::string text() const;                 // every line joined with '\n' (tests, copy)
    uint64_t revision() const;                // changes with every append
    size_t dropped() const;                   // lines dropped past kMaxLines

private:
    void push(ConsoleStream s, std::string text);
    mutable std::mutex m_;
    std::vector<ConsoleLine> lines_;
    std::string partial_[3];
    uint64_t revision_ = 0;
    size_t dropped_ = 0;
};

} // namespace warpscope::gui
