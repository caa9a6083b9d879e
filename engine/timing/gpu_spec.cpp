// GPU presets and their JSON form. The presets themselves are data: assets/gpus/*.json, each
// with its sources; this file holds no GPU's numbers.
//
// Sections: 1. the bundled presets (assets/gpus)  2. JSON  3. lookup
#include "timing/gpu_spec.hpp"
#include "base/files.hpp"

#include "base/data_dir.hpp"
#include "base/error.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace warpscope::timing {

namespace fs = std::filesystem;
using nlohmann::json;

uint32_t GpuSpec::fp64Interval() const {
    // A warp-instruction is 32 results; each scheduler owns 1/schedulers of the SM's FP64 units.
    double perScheduler = fp64PerSMPerCycle / std::max(1u, schedulersPerSM);
    if (perScheduler <= 0) return 64;
    return static_cast<uint32_t>(std::max(1.0, std::ceil(32.0 / perScheduler)));
}

// ---------------------------------------------------------------- 1. bundled presets
namespace {

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Every *.json file of a folder, in name order (a folder that does not exist gives none).
std::vector<fs::path> jsonFiles(const fs::path& dir) {
    std::vector<fs::path> files;
    std::error_code ec;
    if (dir.empty() || !fs::is_directory(dir, ec)) return files;
    for (auto& e : fs::directory_iterator(dir, ec))
        if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

// Parses one preset file. A bundled file (`bundled`) must give every key and names no "base":
// the C++ holds no GPU's numbers, so nothing could fill a gap.
GpuSpec parsePreset(const std::string& text, const std::string& origin, bool bundled);

struct Shipped {
    std::vector<GpuSpec> presets;
    std::vector<std::string> errors;
};

// The bundled folder is read once per process. Each file is complete (no "base"), so the order
// of reading does not matter.
const Shipped& shipped() {
    static const Shipped s = [] {
        Shipped out;
        const fs::path dir = shippedPresetFolder();
        if (dir.empty()) {
            out.errors.push_back("the bundled GPU presets were not found (assets/gpus in warpscope's data folder)");
            return out;
        }
        for (auto& f : jsonFiles(dir)) {
            try {
                GpuSpec g = parsePreset(base::readFile(f).value_or(""), f.string(), true);
                out.presets.push_back(g);
            } catch (const Error& e) {
                out.errors.push_back(e.what());
            }
        }
        // Presets without a release date (the classroom GPU) first, then the real ones oldest first.
        std::stable_sort(out.presets.begin(), out.presets.end(), [](const GpuSpec& a, const GpuSpec& b) {
            return a.released != b.released ? a.released < b.released : a.name < b.name;
        });
        return out;
    }();
    return s;
}

const GpuSpec* shippedNamed(const std::string& name) {
    for (auto& p : shipped().presets)
        if (p.name == name) return &p;
    return nullptr;
}

} // namespace

fs::path shippedPresetFolder() {
    const fs::path data = base::findDataDir();
    std::error_code ec;
    if (data.empty() || !fs::is_directory(data / "assets" / "gpus", ec)) return {};
    return data / "assets" / "gpus";
}

const std::vector<GpuSpec>& builtinPresets() { return shipped().presets; }

// ---------------------------------------------------------------- 2. JSON
// X(field): every GpuSpec field that a JSON preset may set; its JSON key is its name (#field).
#define WARPSCOPE_SPEC_FIELDS(X)                                                                     \
    X(smCount) X(clockMHz) X(schedulersPerSM) X(maxWarpsPerSM) X(maxThreadsPerSM) X(maxBlocksPerSM)  \
    X(maxThreadsPerBlock) X(registersPerSM) X(maxRegistersPerThread) X(maxRegistersPerBlock)         \
    X(registerAllocUnit) X(sharedPerSM) X(maxSharedPerBlock) X(defaultSharedPerBlock)                \
    X(sharedAllocUnit) X(reservedSharedPerBlock) X(l1SharedBytesPerSM) X(l2Bytes) X(dramGBs)         \
    X(dramEfficiency) X(l2BytesPerCycle) X(l1SectorsPerCycle) X(l1LinesPerCycle)                     \
    X(globalRequestCycles) X(l1DataLinesPerCycle) X(l2AtomicCycles) X(l1StoreLineCycles)             \
    X(l2AtomicOpCycles) X(l2AtomicF32OpCycles) X(l2AtomicRegionBytes) X(l2AtomicLatency)             \
    X(copyEngines) X(pcieGBs) X(l2DirtyBytes) X(l2PartialWriteFill) X(dramWriteCost)                 \
    X(dramQueueCycles) X(dramLoadWindow) X(dramMaxLoad) X(pageableGBs) X(copyLatencyUs)              \
    X(pageableLatencyUs) X(pageableDtoHGBs) X(pageableDtoHLatencyUs) X(launchHostUs)                 \
    X(copyQueuedLatencyUs) X(copyAfterKernelUs) X(pageableAfterKernelUs) X(pageableStageBytes)       \
    X(copyHostUs) X(eventHostUs) X(launchLatencyUs) X(kernelGapUs) X(graphLaunchHostUs)              \
    X(graphNodeUs) X(syncWakeUs) X(kernelOverheadUs) X(duplexEfficiency) X(hostFuncLatencyUs)        \
    X(mappedGBs) X(mappedLatency) X(aluLatency) X(sfuLatency) X(fp64Latency) X(sharedLatency)        \
    X(l1HitLatency) X(l2HitLatency) X(dramLatency) X(blockLaunchLatency) X(blockDispatchCycles)      \
    X(blockRetireCycles) X(blockRetireCyclesPerWarp)                                                 \
    X(aluInterval) X(fmaInterval) X(sfuInterval) X(fp64PerSMPerCycle) X(mioQueueCycles)              \
    X(intDivideSlots)

namespace {

template <class T>
void readField(const json& j, const char* key, T& field, const std::string& origin) {
    if (!j.contains(key)) return;
    const json& v = j[key];
    if (!v.is_number()) throw Error(Error::Kind::Input, origin + ": \"" + key + "\" must be a number.");
    double d = v.get<double>();
    if (!(d >= 0) || !std::isfinite(d)) throw Error(Error::Kind::Input, origin + ": \"" + key + "\" must be a finite number >= 0.");
    if constexpr (std::is_integral_v<T>) {
        if (d != std::floor(d)) throw Error(Error::Kind::Input, origin + ": \"" + key + "\" must be a whole number.");
        field = static_cast<T>(d);
    } else {
        field = static_cast<T>(d);
    }
}

const std::vector<std::string>& knownKeys() {
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> k = {"name", "description", "computeCapability", "released", "base", "sources"};
#define WARPSCOPE_KEY(f) k.push_back(#f);
        WARPSCOPE_SPEC_FIELDS(WARPSCOPE_KEY)
#undef WARPSCOPE_KEY
        return k;
    }();
    return keys;
}

} // namespace

namespace {

// "sources": {"<key>[, <key>...]": "where these numbers come from", ...}. Each key names preset
// fields; the text is free. Kept with the preset so `warpscope gpus --json` shows it.
std::map<std::string, std::string> readSources(const json& j, const std::string& origin) {
    std::map<std::string, std::string> out;
    if (!j.contains("sources")) return out;
    const json& src = j["sources"];
    if (!src.is_object()) throw Error(Error::Kind::Input, origin + ": \"sources\" must be an object {\"<keys>\": \"<where they come from>\"}.");
    for (auto& [keys, text] : src.items()) {
        if (!text.is_string() || text.get<std::string>().empty())
            throw Error(Error::Kind::Input, origin + ": sources[\"" + keys + "\"] must be a non-empty text.");
        for (auto& key : sourceKeys(keys))
            if (std::find(knownKeys().begin(), knownKeys().end(), key) == knownKeys().end() || key == "sources" || key == "base" || key == "name")
                throw Error(Error::Kind::Input, origin + ": sources[\"" + keys + "\"] names no preset key ('" + key + "').");
        out[keys] = text.get<std::string>();
    }
    return out;
}

GpuSpec parsePreset(const std::string& text, const std::string& origin, bool bundled) {
    json j;
    try {
        j = json::parse(text);
    } catch (const std::exception& e) {
        throw Error(Error::Kind::Input, origin + ": not valid JSON (" + e.what() + ").");
    }
    if (!j.is_object()) throw Error(Error::Kind::Input, origin + ": a GPU preset is a JSON object.");
    for (auto& [k, v] : j.items()) {
        (void)v;
        if (std::find(knownKeys().begin(), knownKeys().end(), k) == knownKeys().end())
            throw Error(Error::Kind::Input, origin + ": unknown key \"" + k + "\" (see docs/gpu-presets.md).");
    }
    // Missing keys come from "base", else from the bundled H100; with neither, every key is needed.
    GpuSpec s;
    bool complete = bundled;
    if (j.contains("base")) {
        if (bundled) throw Error(Error::Kind::Input, origin + ": a bundled preset gives every key itself (no \"base\").");
        if (!j["base"].is_string()) throw Error(Error::Kind::Input, origin + ": \"base\" must be a preset name.");
        std::string base = lower(j["base"].get<std::string>());
        const GpuSpec* b = shippedNamed(base);
        if (!b) throw Error(Error::Kind::Input, origin + ": \"base\" names no bundled preset ('" + base + "').");
        s = *b;
    } else if (const GpuSpec* h = bundled ? nullptr : shippedNamed(kDefaultPreset)) {
        s = *h;
    } else {
        complete = true;
    }
    if (complete)
        for (auto& key : knownKeys())
            if (key != "base" && key != "sources" && key != "description" && key != "released" && !j.contains(key))
                throw Error(Error::Kind::Input, origin + ": \"" + key + "\" is missing (a preset without \"base\" gives every key" +
                                                    (bundled ? "" : "; the bundled presets were not found") + ").");
    if (!j.contains("name") || !j["name"].is_string() || j["name"].get<std::string>().empty())
        throw Error(Error::Kind::Input, origin + ": a GPU preset needs a \"name\".");
    s.name = lower(j["name"].get<std::string>());
    s.description = j.value("description", s.name);
    if (j.contains("computeCapability")) {
        if (!j["computeCapability"].is_string()) throw Error(Error::Kind::Input, origin + ": \"computeCapability\" must be a text such as \"9.0\".");
        s.computeCapability = j["computeCapability"].get<std::string>();
    }
    if (j.contains("released")) {
        if (!j["released"].is_string()) throw Error(Error::Kind::Input, origin + ": \"released\" must be a text such as \"2022-03\".");
        s.released = j["released"].get<std::string>();
    }
#define WARPSCOPE_READ(f) readField(j, #f, s.f, origin);
    WARPSCOPE_SPEC_FIELDS(WARPSCOPE_READ)
#undef WARPSCOPE_READ
    s.sources = readSources(j, origin);
    if (s.smCount == 0 || s.clockMHz <= 0 || s.schedulersPerSM == 0 || s.maxWarpsPerSM == 0 || s.maxBlocksPerSM == 0 ||
        s.registerAllocUnit == 0 || s.sharedAllocUnit == 0 || s.l1SectorsPerCycle == 0 || s.l1LinesPerCycle == 0 ||
        s.dramGBs <= 0 || s.l2BytesPerCycle <= 0)
        throw Error(Error::Kind::Input, origin + ": smCount, clockMHz, schedulersPerSM, maxWarpsPerSM, maxBlocksPerSM, allocation units, "
                                                 "L1 rates and bandwidths must be greater than 0.");
    if (s.l2AtomicOpCycles > 0 && (s.l2AtomicRegionBytes < 32 || (s.l2AtomicRegionBytes & (s.l2AtomicRegionBytes - 1)) != 0))
        throw Error(Error::Kind::Input, origin + ": \"l2AtomicRegionBytes\" must be a power of two of at least 32 when \"l2AtomicOpCycles\" is set.");
    if (s.dramQueueCycles > 0 && (s.dramLoadWindow <= 0 || s.dramMaxLoad <= 0 || s.dramMaxLoad >= 1))
        throw Error(Error::Kind::Input, origin + ": \"dramQueueCycles\" needs \"dramLoadWindow\" > 0 and 0 < \"dramMaxLoad\" < 1.");
    return s;
}

} // namespace

std::vector<std::string> sourceKeys(const std::string& keys) {
    std::vector<std::string> out;
    std::stringstream ss(keys);
    std::string part;
    while (std::getline(ss, part, ',')) {
        const auto b = part.find_first_not_of(' ');
        const auto e = part.find_last_not_of(' ');
        if (b != std::string::npos) out.push_back(part.substr(b, e - b + 1));
    }
    return out;
}

std::vector<std::string> numericPresetKeys() {
    std::vector<std::string> k;
#define WARPSCOPE_KEY(f) k.push_back(#f);
    WARPSCOPE_SPEC_FIELDS(WARPSCOPE_KEY)
#undef WARPSCOPE_KEY
    return k;
}

GpuSpec presetFromJson(const std::string& text, const std::string& origin, bool bundled) { return parsePreset(text, origin, bundled); }

std::string presetToJson(const GpuSpec& s) {
    json j;
    j["name"] = s.name;
    j["description"] = s.description;
    j["computeCapability"] = s.computeCapability;
    if (!s.released.empty()) j["released"] = s.released;
#define WARPSCOPE_WRITE(f) j[#f] = s.f;
    WARPSCOPE_SPEC_FIELDS(WARPSCOPE_WRITE)
#undef WARPSCOPE_WRITE
    if (!s.sources.empty()) j["sources"] = s.sources;
    return j.dump(2);
}

// ---------------------------------------------------------------- 3. lookup
std::vector<fs::path> presetFolders() {
    std::vector<fs::path> out;
    if (const char* env = std::getenv("WARPSCOPE_GPUS"); env && *env) {
        std::stringstream ss(env);
        std::string part;
        while (std::getline(ss, part, ':'))
            if (!part.empty()) out.emplace_back(part);
    }
    out.emplace_back("gpus");
    // The settings directory, as the app's settings.json: $XDG_CONFIG_HOME/warpscope, else ~/.config/warpscope.
    if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x && fs::path(x).is_absolute())
        out.push_back(fs::path(x) / "warpscope" / "gpus");
    else if (const char* home = std::getenv("HOME"); home && *home)
        out.push_back(fs::path(home) / ".config" / "warpscope" / "gpus");
    return out;
}

std::vector<GpuSpec> allPresets(const std::vector<fs::path>& folders, std::vector<std::string>* errors) {
    std::vector<GpuSpec> out = builtinPresets();
    if (errors) errors->insert(errors->end(), shipped().errors.begin(), shipped().errors.end());
    for (auto& dir : folders) {
        for (auto& f : jsonFiles(dir)) {
            try {
                GpuSpec s = presetFromJson(base::readFile(f).value_or(""), f.string());
                auto it = std::find_if(out.begin(), out.end(), [&](const GpuSpec& p) { return p.name == s.name; });
                if (it != out.end()) *it = s;
                else out.push_back(s);
            } catch (const Error& e) {
                if (errors) errors->push_back(e.what());
            }
        }
    }
    return out;
}

GpuSpec findPreset(const std::string& nameOrPath, const std::vector<fs::path>& folders) {
    std::error_code ec;
    if (nameOrPath.size() > 5 && nameOrPath.substr(nameOrPath.size() - 5) == ".json" && fs::is_regular_file(nameOrPath, ec))
        return presetFromJson(base::readFile(nameOrPath).value_or(""), nameOrPath);
    std::string want = lower(nameOrPath);
    auto presets = allPresets(folders);
    for (auto& p : presets)
        if (p.name == want) return p;
    std::string names;
    for (auto& p : presets) names += (names.empty() ? "" : ", ") + p.name;
    std::string why;
    for (auto& e : shipped().errors) why += "; " + e;
    throw Error(Error::Kind::Input, "No GPU preset named '" + nameOrPath + "' (known: " + (names.empty() ? "none" : names) +
                                        "; or give a .json file" + why + ").");
}

GpuSpec resolvePreset(const std::string& nameOrPath) {
    return findPreset(nameOrPath.empty() ? kDefaultPreset : nameOrPath, presetFolders());
}

} // namespace warpscope::timing
