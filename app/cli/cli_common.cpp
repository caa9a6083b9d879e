// The helpers more than one sub-command uses (declared in cli.hpp).
#include "cli.hpp"

using namespace warpscope;

int exitCodeFor(const Error& e) {
    switch (e.kind()) {
    case Error::Kind::Input:
    case Error::Kind::Unsupported: return 2;
    case Error::Kind::Fault:
    case Error::Kind::Deadlock:
    case Error::Kind::Budget: return 3;
    case Error::Kind::Device: return 4;
    case Error::Kind::Cancelled: return 130;   // as an interrupted command
    }
    return 2;
}

fs::path resolveLessonArg(const std::string& arg, const fs::path& lessonsDir) {
    std::error_code ec;
    if (fs::exists(arg, ec)) return arg;
    if (!lessonsDir.empty() && fs::exists(lessonsDir / arg / "lesson.json", ec)) return lessonsDir / arg;
    throw Error(Error::Kind::Input, "No lesson or spec named '" + arg + "' (not a path, and not a lesson id under " +
                                        (lessonsDir.empty() ? std::string("any lessons folder") : lessonsDir.string()) + ").");
}

nlohmann::json timelineJson(const runtime::Timeline& t) {
    nlohmann::json j = {{"source", t.source}, {"measured", t.measured}, {"total_us", t.totalUs()}, {"device_end_us", t.deviceEndUs()},
                        {"copy_compute_overlap_us", t.overlapUs()}};
    for (auto e : {runtime::TimelineEngine::Host, runtime::TimelineEngine::CopyHtoD, runtime::TimelineEngine::CopyDtoH, runtime::TimelineEngine::Compute})
        j["busy_us"][std::string(runtime::engineName(e))] = t.busyUs(e);
    for (auto& op : t.ops) {
        nlohmann::json o = {{"kind", std::string(runtime::kindName(op.kind))}, {"engine", std::string(runtime::engineName(op.engine))},
                            {"label", op.label}, {"start_us", op.startUs}, {"end_us", op.endUs}};
        if (op.stream >= 0) o["stream"] = op.stream;
        if (op.bytes) o["bytes"] = op.bytes;
        if (op.kind == runtime::TimelineKind::CopyHtoD || op.kind == runtime::TimelineKind::CopyDtoH) o["pinned"] = op.pinned;
        if (op.inGraph) o["graph_node"] = true;
        if (op.launchIndex >= 0) o["launch"] = op.launchIndex;
        j["ops"].push_back(o);
    }
    return j;
}

std::string optionValue(int argc, char** argv, int& i) {
    if (i + 1 >= argc) throw Error(Error::Kind::Input, std::string(argv[i]) + " needs a value.");
    return argv[++i];
}

void addParamOverride(const std::string& kv, std::map<std::string, std::string>& overrides) {
    auto eq = kv.find('=');
    if (eq == std::string::npos) throw Error(Error::Kind::Input, "--param expects NAME=VALUE.");
    overrides[kv.substr(0, eq)] = kv.substr(eq + 1);
}
