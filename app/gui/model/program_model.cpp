// A whole program in the app (program_model.hpp).
#include "gui/model/program_model.hpp"

#include "base/data_dir.hpp"
#include "base/error.hpp"
#include "cudart/build.hpp"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace warpscope::gui {

namespace fs = std::filesystem;

const char* programStateName(ProgramModel::State s) {
    switch (s) {
    case ProgramModel::State::Closed: return "closed";
    case ProgramModel::State::Idle: return "not built";
    case ProgramModel::State::Building: return "building";
    case ProgramModel::State::BuildFailed: return "build failed";
    case ProgramModel::State::Built: return "built";
    case ProgramModel::State::Running: return "running";
    case ProgramModel::State::Paused: return "paused at a launch";
    case ProgramModel::State::Ended: return "ended";
    }
    return "";
}

bool ProgramModel::isWholeProgram(const std::string& text) { return cudart::hasHostMain(text); }

ProgramModel::ProgramModel() { limits.wallSeconds = 0; }

ProgramModel::~ProgramModel() {
    close();
    if (buildThread_.joinable()) buildThread_.join();
    std::error_code ec;
    if (!workDir_.empty()) fs::remove_all(workDir_, ec);
}

void ProgramModel::setState(State s) {
    std::lock_guard<std::mutex> lock(m_);
    state_ = s;
}

ProgramModel::State ProgramModel::state() const { return locked(state_); }

void ProgramModel::open(const fs::path& file) {
    close();
    std::lock_guard<std::mutex> lock(m_);
    file_ = fs::absolute(file);
    state_ = State::Idle;
    executable_.clear();
    diags_.clear();
    buildError_.clear();
    status_ = "not built yet";
    shownPause_.reset();
    pending_.reset();
    console_.clear();
}

void ProgramModel::close() {
    stop();
    joinRun();
    std::lock_guard<std::mutex> lock(m_);
    if (state_ != State::Building) state_ = State::Closed;
    shownPause_.reset();
    pending_.reset();
}

void ProgramModel::build(const std::string& text) {
    if (state() == State::Closed) return;
    if (buildThread_.joinable()) buildThread_.join();   // one build at a time
    if (workDir_.empty()) {
        std::string tmpl = (fs::temp_directory_path() / "warpscope-program-XXXXXX").string();
        std::vector<char> buf(tmpl.begin(), tmpl.end());
        buf.push_back(0);
        if (mkdtemp(buf.data())) workDir_ = buf.data();
    }
    {
        std::lock_guard<std::mutex> lock(m_);
        state_ = State::Building;
        status_ = "building " + file_.filename().string();
        buildDone_ = false;
        copy_ = workDir_ / file_.filename();
    }
    const fs::path copy = copy_, folder = file_.parent_path();
    const std::string name = file_.filename().string();
    buildThread_ = std::thread([this, text, copy, folder, name] {
        cudart::BuildOptions o;
        std::string error;
        {
            std::ofstream f(copy, std::ios::binary);
            f << text;
            if (!f) error = "cannot write " + copy.string();
        }
        o.sources = {copy.string()};
        o.includeDirs = {folder.string()};
        cudart::BuildResult r;
        if (error.empty()) {
            try {
                r = cudart::buildProgram(o);
            } catch (const std::exception& e) {
                r.ok = false;
                r.error = e.what();
            }
        } else {
            r.error = error;
        }
        std::vector<compile::Diagnostic> mine;
        for (auto& d : r.diagnostics) {
            // The copy has the file's name: its diagnostics are the file's (host and device passes).
            if (fs::path(d.file).filename() != name || d.line <= 0) continue;
            compile::Diagnostic c = d;
            c.file = name;
            bool seen = false;
            for (auto& m : mine) seen = seen || (m.line == c.line && m.column == c.column && m.message == c.message);
            if (!seen) mine.push_back(c);
        }
        std::stable_sort(mine.begin(), mine.end(), [](const compile::Diagnostic& a, const compile::Diagnostic& b) {
            if (a.severity != b.severity) return a.severity < b.severity;
            return a.line < b.line;
        });
        std::lock_guard<std::mutex> lock(m_);
        diags_ = std::move(mine);
        buildOk_ = r.ok;
        buildError_ = r.ok ? std::string() : (r.error.empty() && diags_.empty() ? std::string("the build failed") : r.error);
        if (r.ok) executable_ = r.executable;
        buildDone_ = true;
    });
}

bool ProgramModel::waitBuild(double timeoutSeconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutSeconds);
    while (std::chrono::steady_clock::now() < end) {
        {
            std::lock_guard<std::mutex> lock(m_);
            if (buildDone_ || state_ != State::Building) return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

std::vector<compile::Diagnostic> ProgramModel::diagnostics() const { return locked(diags_); }

std::string ProgramModel::buildError() const { return locked(buildError_); }

bool ProgramModel::built() const {
    std::lock_guard<std::mutex> lock(m_);
    return !executable_.empty();
}

bool ProgramModel::poll() {
    bool changed = false;
    std::unique_lock<std::mutex> lock(m_);
    if (state_ == State::Building && buildDone_) {
        lock.unlock();
        if (buildThread_.joinable()) buildThread_.join();
        lock.lock();
        int errors = 0;
        for (auto& d : diags_) errors += d.severity == compile::Diagnostic::Severity::Error;
        if (buildOk_) {
            state_ = State::Built;
            status_ = "built: Run starts it";
        } else {
            state_ = State::BuildFailed;
            status_ = errors ? std::to_string(errors) + (errors == 1 ? " error" : " errors") + " (marked in the editor)" : "build failed: " + buildError_;
        }
        lock.unlock();
        console_.note(buildOk_ ? "warpscope: built " + file_.filename().string()
                               : "warpscope: " + file_.filename().string() + " did not build: " + status_);
        for (auto& d : diagnostics()) console_.note(d.text());
        changed = true;
    }
    return changed;
}

bool ProgramModel::run(std::string* error) {
    if (state() == State::Running || state() == State::Paused) {
        *error = "the program is running: Stop it first";
        return false;
    }
    joinRun();
    std::string exe;
    {
        std::lock_guard<std::mutex> lock(m_);
        exe = executable_;
    }
    if (exe.empty()) {
        *error = "build the program first (Build)";
        return false;
    }
    std::vector<std::string> words;
    if (!splitArguments(arguments, &words, error)) {
        *error = "the arguments: " + *error;
        return false;
    }
    int toApp[2], fromApp[2];
    if (pipe2(toApp, O_CLOEXEC) != 0) {
        *error = "cannot make a pipe";
        return false;
    }
    if (pipe2(fromApp, O_CLOEXEC) != 0) {
        ::close(toApp[0]);
        ::close(toApp[1]);
        *error = "cannot make a pipe";
        return false;
    }
    sandbox::Spec spec;
    spec.argv = {exe};
    spec.argv.insert(spec.argv.end(), words.begin(), words.end());
    spec.limits = limits;
    // The sandbox's folder is the model's own, so the child's timeline can be read after it.
    const fs::path runDir = workDir_ / "run";
    {
        std::error_code ec;
        fs::remove_all(runDir, ec);
    }
    spec.workDir = runDir.string();
    spec.env.push_back({"WARPSCOPE_TIMELINE", "1"});
    spec.env.push_back({"WARPSCOPE_TIMELINE_OUT", (runDir / "timeline.json").string()});
    spec.captureOutput = true;
    spec.keepFds = {toApp[1], fromApp[0]};
    const std::string dataDir = base::findDataDir().string();
    if (!dataDir.empty()) spec.env.push_back({"WARPSCOPE_DATA_DIR", dataDir});
    spec.env.push_back({"WARPSCOPE_LINE_BUFFERED", "1"});
    spec.env.push_back({"WARPSCOPE_PROGRAM_SOURCE", copy_.string()});
    if (pauseAtLaunches) {
        spec.env.push_back({"WARPSCOPE_PAUSE", std::to_string(toApp[1]) + "," + std::to_string(fromApp[0])});
        spec.env.push_back({"WARPSCOPE_PAUSE_MAX_THREADS", std::to_string(pauseMaxThreads)});
    }
    auto runner = std::make_unique<sandbox::Runner>(spec);
    std::string why;
    const bool started = runner->start(&why);
    ::close(toApp[1]);
    ::close(fromApp[0]);
    if (!started) {
        ::close(toApp[0]);
        ::close(fromApp[1]);
        *error = why;
        return false;
    }
    console_.clear();
    console_.note("warpscope: running " + file_.filename().string() + (runner->isolated() ? " in the sandbox (bubblewrap: read-only system, no network, writes only in " + runner->workDir() + ")" : ""));
    if (const std::string note = sandbox::isolationNote(); !note.empty()) console_.note(note);
    {
        std::lock_guard<std::mutex> lock(m_);
        isolated_ = runner->isolated();
        runner_ = std::move(runner);
        toAppRead_ = toApp[0];
        fromAppWrite_ = fromApp[1];
        state_ = State::Running;
        status_ = "running";
        launches_ = 0;
        pending_.reset();
        shownPause_.reset();
        result_ = sandbox::Result{};
        timeline_.reset();
    }
    stopRequested_ = false;
    runThread_ = std::thread([this] { monitor(); });
    return true;
}

bool ProgramModel::splitArguments(const std::string& line, std::vector<std::string>* words, std::string* error) {
    words->clear();
    std::string word;
    bool inWord = false;
    char quote = 0;
    for (size_t i = 0; i < line.size(); ++i) {
        const char ch = line[i];
        if (quote) {
            if (ch == quote) quote = 0;
            else if (ch == '\\' && quote == '"' && i + 1 < line.size() && (line[i + 1] == '"' || line[i + 1] == '\\')) word += line[++i];
            else word += ch;
        } else if (ch == '\'' || ch == '"') {
            quote = ch;
            inWord = true;
        } else if (ch == '\\') {
            if (i + 1 == line.size()) {
                *error = "a backslash at the end escapes nothing";
                return false;
            }
            word += line[++i];
            inWord = true;
        } else if (ch == ' ' || ch == '\t') {
            if (inWord) words->push_back(word);
            word.clear();
            inWord = false;
        } else {
            word += ch;
            inWord = true;
        }
    }
    if (quote) {
        *error = std::string("the quote ") + quote + " is not closed";
        return false;
    }
    if (inWord) words->push_back(word);
    return true;
}

namespace {

std::optional<PausedLaunch> loadPause(int index, const fs::path& json, std::string* error) {
    PausedLaunch p;
    p.index = index;
    p.lessonJson = json;
    try {
        p.lesson = runtime::loadLesson(json);
        auto j = nlohmann::json::parse(p.lesson.hostJson);
        const nlohmann::json* launch = nullptr;
        for (auto& op : j)
            if (op.contains("launch")) launch = &op;
        if (!launch) throw Error(Error::Kind::Input, "the capture has no launch");
        p.kernel = p.lesson.title;
        for (int d = 0; d < 3; ++d) {
            p.grid[d] = (*launch)["grid"][d].get<uint32_t>();
            p.block[d] = (*launch)["block"][d].get<uint32_t>();
        }
        p.dynamicShared = (*launch).value("shared", 0u);
        for (auto& a : (*launch)["args"]) {
            if (a.contains("buffer")) {
                p.args.push_back("device pointer: allocation " + a["buffer"].get<std::string>() + " + " + std::to_string(a.value("offset", 0ull)) + " bytes");
            } else {
                const std::string hex = a.value("bytes", std::string());
                // Little-endian bytes, shown as the number they make.
                std::string value = "0x";
                for (size_t k = hex.size(); k >= 2; k -= 2) value += hex.substr(k - 2, 2);
                p.args.push_back(std::to_string(hex.size() / 2) + " bytes: " + value);
            }
        }
    } catch (const std::exception& e) {
        *error = e.what();
        return std::nullopt;
    }
    return p;
}

} // namespace

// The child's timeline (engine/cudart: writeTimelineOut); null when there is none or it is unreadable.
static std::shared_ptr<const runtime::Timeline> readTimeline(const std::string& path) {
    std::ifstream f(path);
    if (!f) return nullptr;
    try {
        nlohmann::json j = nlohmann::json::parse(f);
        auto t = std::make_shared<runtime::Timeline>();
        t->source = j.value("source", std::string("simulated"));
        for (auto& o : j.at("ops")) {
            runtime::TimelineOp op;
            const int kind = o.at("kind").get<int>(), engine = o.at("engine").get<int>();
            if (kind < 0 || kind > static_cast<int>(runtime::TimelineKind::HostWait) || engine < 0 ||
                engine > static_cast<int>(runtime::TimelineEngine::Compute))
                return nullptr;
            op.kind = static_cast<runtime::TimelineKind>(kind);
            op.engine = static_cast<runtime::TimelineEngine>(engine);
            op.stream = o.at("stream").get<int>();
            op.label = o.at("label").get<std::string>();
            op.startUs = o.at("start").get<double>();
            op.endUs = o.at("end").get<double>();
            op.bytes = o.at("bytes").get<uint64_t>();
            op.pinned = o.at("pinned").get<bool>();
            op.inGraph = o.at("graph").get<bool>();
            op.launchIndex = o.at("launch").get<int>();
            t->ops.push_back(std::move(op));
        }
        return t;
    } catch (const std::exception&) {
        return nullptr;
    }
}

void ProgramModel::monitor() {
    sandbox::Runner* r = runner_.get();
    const int outFd = r->outFd(), errFd = r->errFd(), ctlFd = toAppRead_;
    std::string control;
    bool outOpen = true, errOpen = true, ctlOpen = true, ended = false;
    // The Timeline follows the program: the child rewrites timeline.json as it goes (whole, by a
    // rename), so a changed file is read again, now and then and at each pause.
    const std::string timelinePath = r->workDir() + "/timeline.json";
    fs::file_time_type timelineSeen{};
    auto nextTimelineLook = std::chrono::steady_clock::now();
    auto refreshTimeline = [&] {
        std::error_code ec;
        const fs::file_time_type t = fs::last_write_time(timelinePath, ec);
        if (ec || t == timelineSeen) return;
        timelineSeen = t;
        if (std::shared_ptr<const runtime::Timeline> tl = readTimeline(timelinePath)) {
            std::lock_guard<std::mutex> lock(m_);
            timeline_ = std::move(tl);
        }
    };
    auto drain = [&](int fd, bool& open, int which) {
        char buf[8192];
        ssize_t n = read(fd, buf, sizeof buf);
        if (n <= 0) {
            open = false;
            return;
        }
        if (which < 2) {
            console_.append(which == 0 ? ConsoleStream::Out : ConsoleStream::Err, std::string(buf, static_cast<size_t>(n)));
            return;
        }
        control.append(buf, static_cast<size_t>(n));
        for (size_t nl; (nl = control.find('\n')) != std::string::npos;) {
            std::string line = control.substr(0, nl);
            control.erase(0, nl + 1);
            std::istringstream ls(line);
            std::string word;
            int index = 0;
            ls >> word >> index;
            std::string rest;
            std::getline(ls, rest);
            if (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
            {
                std::lock_guard<std::mutex> lock(m_);
                launches_ = index + 1;
            }
            if (word == "skip") {
                console_.note("warpscope: launch " + std::to_string(index) + " runs without a pause: " + rest);
                continue;
            }
            if (word != "launch") continue;
            std::string error;
            std::optional<PausedLaunch> p = loadPause(index, rest, &error);
            if (!p) {
                console_.note("warpscope: launch " + std::to_string(index) + " cannot be shown (" + error + "); it runs on");
                const char go[] = "continue\n";
                (void)!write(fromAppWrite_, go, sizeof go - 1);
                continue;
            }
            refreshTimeline();   // written by the child just before it paused
            console_.note("warpscope: paused before launch " + std::to_string(index) + ", " + p->kernel + ": step it in the panels, then Continue");
            std::lock_guard<std::mutex> lock(m_);
            pending_ = std::move(p);
            state_ = State::Paused;
            status_ = "paused before launch " + std::to_string(index);
        }
    };
    while (!ended || outOpen || errOpen) {
        if (stopRequested_.exchange(false) && !ended) r->stop();
        pollfd fds[3];
        int n = 0;
        int which[3];
        if (outOpen) fds[n] = {outFd, POLLIN, 0}, which[n++] = 0;
        if (errOpen) fds[n] = {errFd, POLLIN, 0}, which[n++] = 1;
        if (ctlOpen && !ended) fds[n] = {ctlFd, POLLIN, 0}, which[n++] = 2;
        if (n > 0 && ::poll(fds, static_cast<nfds_t>(n), 50) > 0) {
            for (int k = 0; k < n; ++k)
                if (fds[k].revents & (POLLIN | POLLHUP | POLLERR)) drain(fds[k].fd, which[k] == 0 ? outOpen : which[k] == 1 ? errOpen : ctlOpen, which[k]);
        } else if (n == 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        if (!ended && std::chrono::steady_clock::now() >= nextTimelineLook) {
            refreshTimeline();
            nextTimelineLook = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
        }
        if (!ended && r->poll()) {
            ended = true;
            // What is still in the pipes comes next; a child's own children may keep them open, so
            // the reads stop once nothing more arrives.
        }
        if (ended && (outOpen || errOpen)) {
            pollfd rest[2];
            int m = 0;
            if (outOpen) rest[m++] = {outFd, POLLIN, 0};
            if (errOpen) rest[m++] = {errFd, POLLIN, 0};
            if (::poll(rest, static_cast<nfds_t>(m), 100) <= 0) break;
        }
    }
    const sandbox::Result res = r->result();
    std::string end;
    if (res.limit != sandbox::Limit::None) end = res.message;
    else if (res.exited) end = "warpscope: the program exited with code " + std::to_string(res.exitCode);
    else end = "warpscope: the program crashed: signal " + std::to_string(res.signal) + " (" + strsignal(res.signal) + "); the app goes on";
    {
        std::ifstream st(r->workDir() + "/.warpscope-status");
        std::string s;
        std::getline(st, s);
        if (s == "fault") end += " (a kernel faulted: see above)";
        else if (s == "check") end += " (a checker reported: see above)";
    }
    console_.note(end);
    std::shared_ptr<const runtime::Timeline> tl = readTimeline(timelinePath);
    std::lock_guard<std::mutex> lock(m_);
    if (tl) timeline_ = tl;   // the program's end; a run that wrote none keeps what it showed
    result_ = res;
    state_ = State::Ended;
    status_ = end.rfind("warpscope: ", 0) == 0 ? end.substr(11) : end;
    pending_.reset();
    ::close(toAppRead_);
    ::close(fromAppWrite_);
    toAppRead_ = fromAppWrite_ = -1;
}

void ProgramModel::joinRun() {
    if (runThread_.joinable()) runThread_.join();
    std::lock_guard<std::mutex> lock(m_);
    runner_.reset();
}

void ProgramModel::resume(const char* command, const char* status) {
    std::lock_guard<std::mutex> lock(m_);
    if (state_ != State::Paused || fromAppWrite_ < 0) return;
    const std::string line = std::string(command) + "\n";
    (void)!write(fromAppWrite_, line.data(), line.size());
    state_ = State::Running;
    status_ = status;
    pending_.reset();
}

void ProgramModel::continueRun() { resume("continue", "running"); }

void ProgramModel::runToEnd() { resume("run", "running (no more pauses)"); }

void ProgramModel::stop() {
    stopRequested_ = true;
}

std::optional<PausedLaunch> ProgramModel::takePaused() {
    std::lock_guard<std::mutex> lock(m_);
    if (!pending_) return std::nullopt;
    std::optional<PausedLaunch> p = std::move(pending_);
    pending_.reset();
    shownPause_ = p;
    return p;
}

std::string ProgramModel::statusText() const { return locked(status_); }

sandbox::Result ProgramModel::lastResult() const { return locked(result_); }

bool ProgramModel::isolated() const { return locked(isolated_); }

std::shared_ptr<const runtime::Timeline> ProgramModel::timeline() const { return locked(timeline_); }

int ProgramModel::launchesSeen() const { return locked(launches_); }

bool ProgramModel::waitFor(std::initializer_list<State> states, double timeoutSeconds) const {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutSeconds);
    for (;;) {
        const State s = state();
        for (State want : states)
            if (s == want) return true;
        if (std::chrono::steady_clock::now() >= end) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

} // namespace warpscope::gui
