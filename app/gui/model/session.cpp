// Session: lesson info and the UI side (commands posted to the worker, snapshots read back).
// The worker is split by seam (session_worker.hpp lists the files).
//
// Sections (numbered across the session files): 1. lesson info  3. Session (UI side)
#include "gui/model/session_worker.hpp"
#include "base/files.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <stdexcept>
#include <sstream>

namespace warpscope::gui {

namespace {
std::string readFile(const std::filesystem::path& p) { return base::readFile(p).value_or(""); }
} // namespace

// ---------------------------------------------------------------- 1. lesson info
std::shared_ptr<const LessonInfo> makeLessonInfo(const runtime::Lesson& lesson) {
    auto info = std::make_shared<LessonInfo>();
    info->lesson = lesson;
    if (!lesson.sourcePath.empty()) {
        std::istringstream in(readFile(lesson.sourcePath));
        std::string line;
        while (std::getline(in, line)) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            info->sourceLines.push_back(line);
        }
    }
    if (!lesson.dir.empty()) info->stepsMarkdown = readFile(lesson.dir / "steps.md");
    // "variables": the source variables the lesson talks about (Warp detail shows them by name).
    if (!lesson.dir.empty()) {
        try {
            auto j = nlohmann::json::parse(readFile(lesson.dir / "lesson.json"));
            if (j.contains("variables")) {
                const auto& vs = j["variables"];
                if (!vs.is_array()) throw std::runtime_error("\"variables\" must be a list");
                for (size_t k = 0; k < vs.size(); ++k) {
                    const auto& v = vs[k];
                    std::string where = "variables[" + std::to_string(k) + "]";
                    if (!v.is_object() || !v.contains("name") || !v.contains("register") || !v.contains("line") ||
                        !v["name"].is_string() || !v["register"].is_string() || !v["line"].is_number_unsigned() ||
                        v["line"].get<uint64_t>() > UINT32_MAX)   // (a larger one would wrap to another line)
                        throw std::runtime_error(where + " needs \"name\", \"register\" (\"%r1\") and \"line\" (a number)");
                    LessonVariable lv;
                    lv.name = v["name"].get<std::string>();
                    lv.reg = v["register"].get<std::string>();
                    lv.line = v["line"].get<uint32_t>();
                    lv.kernel = v.value("kernel", std::string());
                    lv.type = v.value("type", std::string());
                    if (!lv.type.empty() && lv.type != "int" && lv.type != "float" && lv.type != "hex")
                        throw std::runtime_error(where + ".type must be int, float or hex");
                    info->variables.push_back(std::move(lv));
                }
            }
        } catch (const std::exception& e) {
            info->variables.clear();
            info->variablesError = "lesson.json: " + std::string(e.what());
        }
    }
    try {
        auto host = nlohmann::json::parse(lesson.hostJson.empty() ? std::string("[]") : lesson.hostJson);
        for (auto& op : host)
            if (op.is_object() && op.contains("launch")) ++info->launchCount;
    } catch (const std::exception&) {
        info->launchCount = 0;
    }
    return info;
}

// ---------------------------------------------------------------- 3. Session (UI side)
Session::Session(sim::LaunchOptions options) : w_(std::make_unique<Worker>()) {
    w_->options = options;
    w_->speed = &speed_;
    thread_ = std::thread([this] { workerMain(); });
}

Session::~Session() {
    {
        std::lock_guard lk(w_->m);
        w_->queue.clear();
    }
    post(Command(CommandKind::Quit));
    if (thread_.joinable()) thread_.join();
}

void Session::post(Command c) {
    {
        std::lock_guard lk(w_->m);
        // To end on several threads cannot look at the queue until it is done: a command that
        // abandons the run stops it through the engine's cancel flag (the worker then acts on it).
        const bool abandons = c.kind == CommandKind::Load || c.kind == CommandKind::Restart || c.kind == CommandKind::StepBack ||
                              c.kind == CommandKind::SetTiming || c.kind == CommandKind::Quit;
        if (abandons && w_->parallelRun && w_->device) w_->device->requestCancel();
        w_->queue.push_back(std::move(c));
    }
    w_->cv.notify_all();
}

void Session::load(const runtime::Lesson& lesson, const runtime::ParamValues& params) {
    Command c(CommandKind::Load);
    c.lesson = makeLessonInfo(lesson);
    c.params = params;
    post(std::move(c));
}

void Session::setParams(const runtime::ParamValues& params) {
    Command c(CommandKind::Load);
    c.params = params;   // lesson stays
    post(std::move(c));
}

void Session::restart() { post(Command(CommandKind::Restart)); }
void Session::setCheckers(bool initcheck, bool racecheck) {
    Command c(CommandKind::Restart);
    c.initcheck = initcheck ? 1 : 0;
    c.racecheck = racecheck ? 1 : 0;
    post(std::move(c));
}
void Session::setLimits(const SandboxLimits& limits) {
    Command c(CommandKind::Restart);
    c.limits = std::make_shared<const SandboxLimits>(limits);
    post(std::move(c));
}
void Session::cancel() {
    {
        std::lock_guard lk(w_->m);
        // The engine's flag stops a launch or a replay inside the engine's loop; the command stops
        // the worker where it waits or polls (and every later launch of this run is stopped by
        // the flag too, so a host program with many launches ends at once).
        if (w_->device) w_->device->requestCancel();
        if (w_->device || w_->executing) w_->queue.push_front(Command(CommandKind::Cancel));
    }
    w_->cv.notify_all();
}
void Session::step() { post(Command(CommandKind::Step)); }
void Session::stepWarp() { post(Command(CommandKind::StepWarp)); }
void Session::stepLine() { post(Command(CommandKind::StepLine)); }
void Session::runToBarrier() { post(Command(CommandKind::RunToBarrier)); }
void Session::run() { post(Command(CommandKind::Run)); }
void Session::pause() { post(Command(CommandKind::Pause)); }
void Session::stepBack() { post(Command(CommandKind::StepBack)); }
void Session::runSteps(uint64_t n) {
    Command c(CommandKind::RunSteps);
    c.count = n;
    post(std::move(c));
}
void Session::runToEnd() { post(Command(CommandKind::RunToEnd)); }
void Session::runToLine(uint32_t line) {
    Command c(CommandKind::RunToLine);
    c.line = line;
    post(std::move(c));
}
void Session::setTiming(const TimingConfig& config) {
    Command c(CommandKind::SetTiming);
    c.timing = std::make_shared<const TimingConfig>(config);
    post(std::move(c));
}
void Session::showSm(uint32_t sm) {
    Command c(CommandKind::ShowSm);
    c.sm = sm;
    post(std::move(c));
}
void Session::toggleRun() {
    auto s = snapshot();
    post(Command(s->state == RunState::Running ? CommandKind::Pause : CommandKind::Run));
}
void Session::select(uint32_t block, uint32_t warp, bool follow) {
    Command c(CommandKind::Select);
    c.block = block;
    c.warp = warp;
    c.follow = follow;
    post(std::move(c));
}
void Session::setFollow(bool follow) {
    auto s = snapshot();
    select(s->selBlock, s->selWarp, follow);
}

std::shared_ptr<const Snapshot> Session::snapshot() const {
    std::lock_guard lk(w_->m);
    return w_->published;
}

bool Session::busy() const {
    std::lock_guard lk(w_->m);
    return w_->executing || !w_->queue.empty();
}

bool Session::waitIdle(double timeoutSeconds) {
    std::unique_lock lk(w_->m);
    return w_->idleCv.wait_for(lk, std::chrono::duration<double>(timeoutSeconds),
                               [&] { return !w_->executing && w_->queue.empty(); });
}

void Session::workerMain() { w_->main(); }

} // namespace warpscope::gui
