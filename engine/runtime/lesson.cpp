// Lesson / launch-spec loading and the host-script runner.
//
// Sections: 1. JSON helpers and errors  2. loadLesson  3. parameters  4. buffer initialisers
//           5. argument marshalling  6. runLesson (host ops, read-back, checks)
#include "runtime/lesson.hpp"
#include "base/files.hpp"

#include "compile/compile.hpp"
#include "ptx/parser.hpp"
#include "base/error.hpp"
#include "base/data_dir.hpp"
#include "runtime/expr.hpp"
#include "runtime/references.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

namespace warpscope::runtime {

using nlohmann::json;
namespace fs = std::filesystem;

// ---------------------------------------------------------------- 1. JSON helpers and errors
namespace {

[[noreturn]] void bad(const std::string& where, const std::string& what) {
    throw Error(Error::Kind::Input, where + ": " + what);
}

std::string readFile(const fs::path& p, const std::string& what) {
    std::optional<std::string> text = base::readFile(p);
    if (!text) throw Error(Error::Kind::Input, "Cannot read " + what + " '" + p.string() + "'.");
    return std::move(*text);
}

const std::vector<std::string>& knownTypes() {
    static const std::vector<std::string> t = {"u8", "s8", "u16", "s16", "f16", "u32", "s32", "f32", "u64", "s64", "f64"};
    return t;
}
int typeSize(const std::string& t) {
    if (t == "u8" || t == "s8") return 1;
    if (t == "u16" || t == "s16" || t == "f16") return 2;
    if (t == "u64" || t == "s64" || t == "f64") return 8;
    return 4;
}
bool isFloatType(const std::string& t) { return t == "f16" || t == "f32" || t == "f64"; }

std::string exprText(const json& j, const std::string& where) {
    if (j.is_string()) return j.get<std::string>();
    if (j.is_number_integer()) return std::to_string(j.get<int64_t>());
    if (j.is_number_unsigned()) return std::to_string(j.get<uint64_t>());
    if (j.is_number_float()) {
        std::ostringstream os;
        os.precision(17);
        os << j.get<double>();
        std::string s = os.str();
        if (s.find_first_of(".eE") == std::string::npos) s += ".0";
        return s;
    }
    bad(where, "expected a number or an expression string");
}

// The host script's operations: the key that names each kind, the keys it needs and the keys it
// may have. One table, used when a lesson loads (checkHostOps: every mistake of form reported
// at load, with the file and the key) and when it runs.
struct HostOpKind {
    const char* key;
    std::vector<const char*> needs, allowed;
    const char* names;   // what the kind's own key holds: "kernel", "buffer", "event", ... ("" any)
};
const std::vector<HostOpKind>& hostOpKinds() {
    static const std::vector<HostOpKind> kinds = {
        {"launch", {"grid", "block"}, {"launch", "grid", "block", "shared", "cooperative", "args", "stream", "family", "if", "help"}, "kernel"},
        {"to_device", {}, {"to_device", "offset", "count", "stream", "async", "if", "help"}, "buffer"},
        {"to_host", {}, {"to_host", "offset", "count", "stream", "async", "if", "help"}, "buffer"},
        {"record", {}, {"record", "stream", "if", "help"}, "event"},
        {"wait", {}, {"wait", "stream", "if", "help"}, "event"},
        {"sync", {}, {"sync", "stream", "event", "if", "help"}, ""},
        {"elapsed", {"from", "to"}, {"elapsed", "from", "to", "if", "help"}, "timer"},
        {"for", {"to", "do"}, {"for", "from", "to", "do", "if", "help"}, "variable"},
        {"capture", {"stream", "do"}, {"capture", "stream", "do", "if", "help"}, "graph"},
        {"graph", {}, {"graph", "stream", "if", "help"}, "graph"},
        {"timeline", {}, {"timeline", "if", "help"}, ""},
        {"memset", {}, {"memset", "value", "if", "help"}, "buffer"},
        {"copy", {"to"}, {"copy", "to", "if", "help"}, "buffer"},
        {"free", {}, {"free", "if", "help"}, "buffer"},
        {"symbol", {"from"}, {"symbol", "from", "if", "help"}, "variable"},
        {"priority", {"stream"}, {"priority", "stream", "if", "help"}, ""},
        {"host_function", {}, {"host_function", "stream", "us", "if", "help"}, "function"},
        {"l2_window", {}, {"l2_window", "stream", "offset", "count", "hit_ratio", "hit_prop", "miss_prop", "if", "help"}, "buffer"},
        {"l2_persisting", {}, {"l2_persisting", "if", "help"}, ""},
    };
    return kinds;
}
const char* const kUnknownHostOp =
    "unknown operation (expected launch, to_device, to_host, record, wait, sync, elapsed, for, capture, graph, timeline, memset, copy, "
    "symbol, free, priority, host_function, l2_window or l2_persisting)";

const HostOpKind* hostOpKind(const json& op) {
    for (auto& k : hostOpKinds())
        if (op.contains(k.key)) return &k;
    return nullptr;
}

void checkKeys(const json& obj, const std::string& where, const std::vector<const char*>& allowed) {
    for (auto& [k, v] : obj.items()) {
        bool ok = false;
        for (auto* a : allowed) ok = ok || k == a;
        if (!ok) {
            std::string list;
            for (auto* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
            bad(where, "unknown key '" + k + "' (expected one of: " + list + ")");
        }
    }
}

// The form of the host script, checked at load: each operation an object of a known kind, with
// the keys it needs and no others, its name a string, loops and captures holding arrays. What
// depends on the parameters (loop bounds, sizes, streams) is checked when it runs.
void checkHostOps(const json& ops, const std::string& path) {
    if (!ops.is_array()) bad(path, "must be an array of operations");
    size_t n = 0;
    for (auto& op : ops) {
        const std::string where = path + "[" + std::to_string(n++) + "]";
        if (!op.is_object()) bad(where, "an operation is an object such as {\"launch\": \"kernel\", ...}");
        const HostOpKind* kind = hostOpKind(op);
        if (!kind) bad(where, kUnknownHostOp);
        checkKeys(op, where, kind->allowed);
        for (auto* need : kind->needs)
            if (!op.contains(need)) bad(where, std::string("needs \"") + need + "\"");
        if (*kind->names && !op[kind->key].is_string())
            bad(where + "." + kind->key, std::string("names a ") + kind->names + " (a string)");
        if (op.contains("do")) checkHostOps(op["do"], where + ".do");
    }
}

Tolerance parseTolerance(const json& j, const std::string& where) {
    Tolerance t;
    if (j.is_string() && j.get<std::string>() == "exact") return t;
    if (!j.is_object()) bad(where, "a tolerance is \"exact\" or an object like {\"ulp\": 2}");
    checkKeys(j, where, {"ulp", "abs", "rel"});
    if (j.contains("ulp")) t.ulp = j["ulp"].get<double>();
    if (j.contains("abs")) t.abs = j["abs"].get<double>();
    if (j.contains("rel")) t.rel = j["rel"].get<double>();
    return t;
}

} // namespace

std::optional<uint32_t> Lesson::registersFor(const std::string& kernel) const {
    auto it = registersByKernel.find(kernel);
    if (it != registersByKernel.end()) return it->second;
    return registers;
}

bool RunResult::allChecksPassed() const {
    for (auto& c : checks)
        if (!c.passed) return false;
    return true;
}

namespace {
// Compiles the lesson's .cu source (compile::compileCached: NVRTC, nvcc or clang, or the compiler
// $WARPSCOPE_COMPILER names) and points ptxPath at the cached PTX. Compile errors are input errors
// listing each diagnostic as file:line:col.
std::string compileLessonSource(Lesson& L, const std::string& file) {
    const std::string source = readFile(L.sourcePath, "CUDA source file");
    compile::Options options;
    if (const char* v = std::getenv("WARPSCOPE_COMPILER"); v && *v) {
        auto c = compile::parseCompiler(v);
        if (!c) throw Error(Error::Kind::Input, std::string("WARPSCOPE_COMPILER is auto, nvrtc, nvcc or clang, not '") + v + "'.");
        options.compiler = *c;
    }
    compile::Result r = compile::compileCached(source, L.sourcePath.string(), options);
    if (!r.ok || r.hasErrors()) {
        std::string msg = file + ": " + L.sourcePath.filename().string() + " does not compile";
        if (r.used != compile::Compiler::Auto) msg += std::string(" (") + compile::compilerName(r.used) + ")";
        msg += ":";
        for (auto& d : r.diagnostics)
            if (d.severity == compile::Diagnostic::Severity::Error) msg += "\n" + d.text();
        if (!r.error.empty()) msg += "\n" + r.error;
        throw Error(Error::Kind::Input, msg);
    }
    L.ptxPath = r.cacheFile.empty() ? fs::path(L.sourcePath).replace_extension(".ptx") : fs::path(r.cacheFile);
    return r.ptx;
}

} // namespace

// ---------------------------------------------------------------- 2. loadLesson
Lesson loadLesson(const fs::path& folderOrJson) {
    Lesson L;
    fs::path jsonPath = folderOrJson;
    std::error_code ec;
    if (fs::is_directory(folderOrJson, ec)) {
        jsonPath = folderOrJson / "lesson.json";
        L.dir = folderOrJson;
        L.id = folderOrJson.filename().string();
        if (L.id.empty()) L.id = folderOrJson.parent_path().filename().string();
    } else {
        L.dir = folderOrJson.parent_path();
        L.id = folderOrJson.stem().string();
    }
    Lesson parsed = loadLessonText(readFile(jsonPath, "lesson file"), L.dir, jsonPath.string());
    if (parsed.id.empty()) parsed.id = L.id;
    if (parsed.title.empty()) parsed.title = parsed.id;
    return parsed;
}

namespace {
Lesson loadLessonTextImpl(const std::string& text, const fs::path& dir, const std::string& file, bool readPtx);
}

Lesson loadLessonText(const std::string& text, const fs::path& dir, const std::string& file, bool readPtx) {
    // Any value of the wrong JSON type deep inside (a string where a number belongs, ...) must
    // become a readable input error, never an escaping library exception.
    try {
        return loadLessonTextImpl(text, dir, file, readPtx);
    } catch (const json::exception& e) {
        throw Error(Error::Kind::Input, file + ": a value has the wrong type or form (" + e.what() + ")");
    }
}

namespace {
Lesson loadLessonTextImpl(const std::string& text, const fs::path& dir, const std::string& file, bool readPtx) {
    Lesson L;
    L.dir = dir;
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        throw Error(Error::Kind::Input, file + ": not valid JSON: " + e.what());
    }
    if (!j.is_object()) bad(file, "the top level must be a JSON object");
    checkKeys(j, file, {"id", "title", "summary", "source", "ptx", "params", "buffers", "host", "checks", "golden", "order", "registers", "planted", "streams",
                     "variables"});   // variables: read by the app (Warp detail), docs/lesson-format.md
    if (j.contains("streams")) {
        const json& st = j["streams"];
        if (!st.is_object()) bad(file + ": streams", "is an object such as {\"count\": \"STREAMS\", \"non_blocking\": false}");
        checkKeys(st, file + ": streams", {"count", "non_blocking", "help"});
        if (!st.contains("count")) bad(file + ": streams", "needs \"count\" (how many streams the program creates)");
        L.streamCountExpr = exprText(st["count"], file + ": streams.count");
        if (st.contains("non_blocking")) {
            if (!st["non_blocking"].is_boolean()) bad(file + ": streams.non_blocking", "is true or false");
            L.nonBlockingStreams = st["non_blocking"].get<bool>();
        }
    }
    try {
        if (j.contains("id")) L.id = j["id"].get<std::string>();
        if (j.contains("order")) {
            // An integer of any size parses; one past int (or written as 1e9) would not convert.
            const json& o = j["order"];
            const bool ok = o.is_number_unsigned() ? o.get<uint64_t>() <= 1000000
                                                   : o.is_number_integer() && o.get<int64_t>() >= -1000000 && o.get<int64_t>() <= 1000000;
            if (!ok)
                bad(file + ": order", "is a whole number from -1000000 to 1000000 (lessons are listed by it)");
            L.order = static_cast<int>(o.get<int64_t>());
        }
        L.title = j.value("title", L.id);
        L.summary = j.value("summary", "");
        if (j.contains("source")) L.sourcePath = L.dir / j["source"].get<std::string>();
        const bool cuSource = L.sourcePath.extension() == ".cu";
        if (!j.contains("ptx") && !cuSource) bad(file, "missing \"ptx\" (the PTX file to run, or a .cu \"source\" to compile)");
        if (j.contains("ptx")) L.ptxPath = L.dir / j["ptx"].get<std::string>();
    } catch (const json::type_error& e) {
        bad(file, std::string("wrong type: ") + e.what());
    }
    if (readPtx) {
        // A .cu source without a PTX file is compiled now (cached by content hash).
        std::error_code ec;
        if (L.sourcePath.extension() == ".cu" && (L.ptxPath.empty() || !fs::exists(L.ptxPath, ec)))
            L.ptxText = compileLessonSource(L, file);
        else
            L.ptxText = readFile(L.ptxPath, "PTX file");
    }

    if (j.contains("params")) {
        if (!j["params"].is_object()) bad(file + ": params", "must be an object");
        for (auto& [name, p] : j["params"].items()) {
            std::string where = file + ": params." + name;
            ParamSpec ps;
            ps.name = name;
            if (p.is_number()) {
                ps.defaultValue = p.get<double>();
                ps.isFloat = p.is_number_float();
            } else {
                if (!p.is_object()) bad(where, "a parameter is a number or {\"default\": ...}");
                checkKeys(p, where, {"default", "min", "max", "choices", "help"});
                if (!p.contains("default") || !p["default"].is_number()) bad(where, "needs a numeric \"default\"");
                ps.defaultValue = p["default"].get<double>();
                ps.isFloat = p["default"].is_number_float();
                if (p.contains("min")) ps.min = p["min"].get<double>();
                if (p.contains("max")) ps.max = p["max"].get<double>();
                if (p.contains("choices")) {
                    if (!p["choices"].is_array()) bad(where + ".choices", "must be an array of numbers");
                    for (auto& c : p["choices"]) ps.choices.push_back(c.get<double>());
                }
                ps.help = p.value("help", "");
            }
            L.params.push_back(ps);
        }
    }
    if (j.contains("buffers")) {
        if (!j["buffers"].is_object()) bad(file + ": buffers", "must be an object");
        for (auto& [name, b] : j["buffers"].items()) {
            std::string where = file + ": buffers." + name;
            if (!b.is_object()) bad(where, "a buffer is an object with \"type\" and \"count\"");
            checkKeys(b, where, {"type", "count", "init", "pinned", "transfer", "width", "host"});
            BufferSpec bs;
            bs.name = name;
            if (!b.contains("type") || !b["type"].is_string()) bad(where, "needs a \"type\" such as \"f32\"");
            bs.type = b["type"].get<std::string>();
            bool known = false;
            for (auto& t : knownTypes()) known = known || t == bs.type;
            if (!known) bad(where + ".type", "unknown type '" + bs.type + "' (use u8 s8 u16 s16 f16 u32 s32 f32 u64 s64 f64)");
            if (!b.contains("count")) bad(where, "needs a \"count\"");
            bs.countExpr = exprText(b["count"], where + ".count");
            bs.initJson = b.contains("init") ? b["init"].dump() : "\"zeros\"";
            if (b.contains("pinned")) {
                if (b["pinned"].is_boolean()) bs.pinnedExpr = b["pinned"].get<bool>() ? "1" : "0";
                else bs.pinnedExpr = exprText(b["pinned"], where + ".pinned");
            }
            if (b.contains("transfer")) {
                if (b["transfer"] != "auto" && b["transfer"] != "manual")
                    bad(where + ".transfer", "is \"auto\" (copied to the device before the host script and back after it) or \"manual\"");
                bs.manual = b["transfer"] == "manual";
            }
            if (b.contains("width")) bs.widthExpr = exprText(b["width"], where + ".width");
            if (b.contains("host")) {
                if (b["host"] != "mapped" && b["host"] != "write-combined")
                    bad(where + ".host", "is \"mapped\" (zero-copy: kernels read it over PCIe) or \"write-combined\" (page-locked, write-combined)");
                bs.hostKind = b["host"].get<std::string>();
                if (bs.hostKind == "mapped" && bs.manual)
                    bad(where + ".transfer", "a mapped buffer is never copied: kernels reach the host memory itself (leave out \"transfer\")");
            }
            L.buffers.push_back(bs);
        }
    }
    if (j.contains("host")) {
        checkHostOps(j["host"], file + ": host");
        L.hostJson = j["host"].dump();
    } else {
        L.hostJson = "[]";
    }
    if (j.contains("checks")) {
        if (!j["checks"].is_array()) bad(file + ": checks", "must be an array");
        size_t k = 0;
        for (auto& c : j["checks"]) {
            std::string where = file + ": checks[" + std::to_string(k++) + "]";
            if (!c.is_object()) bad(where, "a check is an object");
            checkKeys(c, where, {"buffer", "reference", "inputs", "equals", "expect", "tolerance", "if", "help"});
            CheckSpec cs;
            if (c.contains("if")) cs.ifExpr = exprText(c["if"], where + ".if");
            if (!c.contains("buffer") || !c["buffer"].is_string()) bad(where, "needs \"buffer\"");
            cs.buffer = c["buffer"].get<std::string>();
            cs.reference = c.value("reference", "");
            cs.equals = c.value("equals", "");
            if (c.contains("inputs"))
                for (auto& i : c["inputs"]) cs.inputs.push_back(i.get<std::string>());
            if (c.contains("expect"))
                for (auto& v : c["expect"]) cs.expect.push_back(v.get<double>());
            if (c.contains("tolerance")) cs.tolerance = parseTolerance(c["tolerance"], where + ".tolerance");
            int kinds = !cs.reference.empty() + !cs.equals.empty() + !cs.expect.empty();
            if (kinds != 1) bad(where, "give exactly one of \"reference\", \"equals\" or \"expect\"");
            if (!cs.reference.empty() && !references().count(cs.reference)) {
                std::string list;
                for (auto& [n, r] : references()) list += (list.empty() ? "" : ", ") + n;
                bad(where + ".reference", "unknown reference '" + cs.reference + "' (known: " + list + ")");
            }
            bool found = false;
            for (auto& b : L.buffers) found = found || b.name == cs.buffer;
            if (!found) bad(where + ".buffer", "no buffer named '" + cs.buffer + "'");
            L.checks.push_back(cs);
        }
    }
    if (j.contains("registers")) {
        // ptxas allocates 1..255 registers per thread; the occupancy calculator needs a whole number.
        auto regCount = [&](const json& v, const std::string& where) -> uint32_t {
            if (!v.is_number_integer() || v.get<int64_t>() < 1 || v.get<int64_t>() > 255)
                bad(where, "registers per thread must be a whole number from 1 to 255 (as `ptxas -v` reports it), got " + v.dump());
            return static_cast<uint32_t>(v.get<int64_t>());
        };
        const json& r = j["registers"];
        if (r.is_object()) {
            // Kernels launched anywhere in the host script, inside "for" and "capture" bodies too.
            std::set<std::string> launched;
            std::function<void(const json&)> collect = [&](const json& ops) {
                if (!ops.is_array()) return;
                for (auto& op : ops) {
                    if (!op.is_object()) continue;
                    if (op.contains("launch") && op["launch"].is_string()) launched.insert(op["launch"].get<std::string>());
                    if (op.contains("do")) collect(op["do"]);
                }
            };
            if (j.contains("host")) collect(j["host"]);
            for (auto& [kernel, v] : r.items()) {
                if (!launched.count(kernel)) bad(file + ": registers." + kernel, "the host script launches no kernel named '" + kernel + "'");
                L.registersByKernel[kernel] = regCount(v, file + ": registers." + kernel);
            }
        } else if (r.is_number()) {
            L.registers = regCount(r, file + ": registers");
        } else {
            bad(file + ": registers", "expected a number of registers per thread, or an object {\"<kernel>\": n}");
        }
    }
    if (j.contains("golden")) {
        const json& g = j["golden"];
        if (!g.is_object() || !g.contains("compare")) bad(file + ": golden", "expected {\"compare\": \"exact\" or {\"ulp\": n}}");
        L.golden = parseTolerance(g["compare"], file + ": golden.compare");
    }
    return L;
}
} // namespace

fs::path findLessonsDir(const fs::path& exePath) {
    std::error_code ec;
    if (const char* env = std::getenv("WARPSCOPE_LESSONS"); env && *env && fs::is_directory(env, ec)) return env;
    const fs::path data = base::findDataDir(exePath);
    return data.empty() ? fs::path() : data / "lessons";
}

std::vector<Lesson> listLessons(const fs::path& dir, std::vector<std::string>* errors) {
    std::vector<Lesson> out;
    std::error_code ec;
    if (dir.empty() || !fs::is_directory(dir, ec)) return out;
    for (auto& e : fs::directory_iterator(dir, ec)) {
        if (!e.is_directory() || !fs::exists(e.path() / "lesson.json")) continue;
        try {
            out.push_back(loadLesson(e.path()));
        } catch (const Error& err) {
            if (errors) errors->push_back(e.path().filename().string() + ": " + err.what());
        }
    }
    std::sort(out.begin(), out.end(), [](const Lesson& a, const Lesson& b) {
        return a.order != b.order ? a.order < b.order : a.id < b.id;
    });
    return out;
}

// ---------------------------------------------------------------- 3. parameters
ParamValues resolveParams(const Lesson& lesson, const std::map<std::string, std::string>& overrides) {
    ParamValues v;
    for (auto& p : lesson.params) v[p.name] = p.defaultValue;
    for (auto& [name, text] : overrides) {
        const ParamSpec* spec = nullptr;
        for (auto& p : lesson.params)
            if (p.name == name) spec = &p;
        if (!spec) {
            std::string list;
            for (auto& p : lesson.params) list += (list.empty() ? "" : ", ") + p.name;
            throw Error(Error::Kind::Input, "Unknown parameter '" + name + "' (this lesson has: " + (list.empty() ? "none" : list) + ").");
        }
        char* end = nullptr;
        double d = std::strtod(text.c_str(), &end);
        if (text.empty() || *end) throw Error(Error::Kind::Input, "Parameter " + name + "=" + text + " is not a number.");
        if (!spec->isFloat && d != std::floor(d)) throw Error(Error::Kind::Input, "Parameter " + name + " must be an integer.");
        if (spec->min && d < *spec->min) throw Error(Error::Kind::Input, "Parameter " + name + "=" + text + " is below its minimum " + std::to_string(static_cast<int64_t>(*spec->min)) + ".");
        if (spec->max && d > *spec->max) throw Error(Error::Kind::Input, "Parameter " + name + "=" + text + " is above its maximum " + std::to_string(static_cast<int64_t>(*spec->max)) + ".");
        if (!spec->choices.empty()) {
            bool ok = false;
            for (double c : spec->choices) ok = ok || c == d;
            if (!ok) throw Error(Error::Kind::Input, "Parameter " + name + "=" + text + " is not one of the allowed choices.");
        }
        v[name] = d;
    }
    return v;
}

// ---------------------------------------------------------------- 4. buffer initialisers
namespace {

uint64_t splitmix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

void storeElem(HostBuffer& b, size_t i, double v, uint64_t rawInt, bool useRaw) {
    if (useRaw && !isFloatType(b.type)) {
        std::memcpy(b.bytes.data() + i * static_cast<size_t>(typeSize(b.type)), &rawInt, static_cast<size_t>(typeSize(b.type)));
        return;
    }
    if (b.type == "f16") {
        // f16 via f32 bits, round to nearest (values used in lessons are small and exact).
        float f = static_cast<float>(v);
        uint32_t x = std::bit_cast<uint32_t>(f);
        uint32_t sign = (x >> 16) & 0x8000u;
        int exp = static_cast<int>((x >> 23) & 0xff) - 127 + 15;
        uint32_t mant = x & 0x7fffffu;
        uint16_t h;
        if (exp <= 0) h = static_cast<uint16_t>(sign);
        else if (exp >= 31) h = static_cast<uint16_t>(sign | 0x7c00u);
        else h = static_cast<uint16_t>(sign | (uint32_t(exp) << 10) | (mant >> 13));
        std::memcpy(b.bytes.data() + i * 2, &h, 2);
        return;
    }
    b.set(i, v);
}

void initBuffer(HostBuffer& b, const json& init, const std::string& where, const NameLookup& names) {
    size_t n = b.count();
    auto num = [&](const json& j, const std::string& w) { return evaluate(exprText(j, w), names, w); };
    if (init.is_string()) {
        std::string k = init.get<std::string>();
        if (k == "zeros" || k == "uninitialized") return;
        if (k == "iota") {
            for (size_t i = 0; i < n; ++i) storeElem(b, i, static_cast<double>(i), i, true);
            return;
        }
        bad(where, "unknown initialiser '" + k + "' (zeros, iota, uninitialized, or an object: constant, iota, random, hash, file)");
    }
    if (!init.is_object() || init.size() != 1) bad(where, "an initialiser object has exactly one key: constant, iota, random, hash or file");
    auto [kind, arg] = *init.items().begin();
    std::string w = where + "." + kind;
    if (kind == "constant") {
        Value v = num(arg, w);
        for (size_t i = 0; i < n; ++i) storeElem(b, i, v.asDouble(), static_cast<uint64_t>(v.asInt()), !v.isFloat);
    } else if (kind == "iota") {
        if (!arg.is_object()) bad(w, "expected {\"start\": s, \"step\": d}");
        checkKeys(arg, w, {"start", "step"});
        Value s = arg.contains("start") ? num(arg["start"], w + ".start") : Value::ofInt(0);
        Value d = arg.contains("step") ? num(arg["step"], w + ".step") : Value::ofInt(1);
        for (size_t i = 0; i < n; ++i) {
            if (s.isFloat || d.isFloat) storeElem(b, i, s.asDouble() + d.asDouble() * static_cast<double>(i), 0, false);
            else storeElem(b, i, 0, static_cast<uint64_t>(s.i + d.i * static_cast<int64_t>(i)), true);
        }
    } else if (kind == "random") {
        if (!arg.is_object()) bad(w, "expected {\"seed\": s, \"min\": lo, \"max\": hi}");
        checkKeys(arg, w, {"seed", "min", "max"});
        uint64_t seed = arg.contains("seed") ? static_cast<uint64_t>(num(arg["seed"], w + ".seed").asInt()) : 1;
        Value lo = arg.contains("min") ? num(arg["min"], w + ".min") : Value::ofInt(0);
        Value hi = arg.contains("max") ? num(arg["max"], w + ".max") : Value::ofInt(1);
        if (hi.asDouble() < lo.asDouble()) bad(w, "max is below min");
        uint64_t state = seed * 0x9e3779b97f4a7c15ull + 1;
        for (size_t i = 0; i < n; ++i) {
            uint64_t r = splitmix64(state += 0x9e3779b97f4a7c15ull);
            if (isFloatType(b.type)) {
                double u = static_cast<double>(r >> 11) * 0x1.0p-53;
                storeElem(b, i, lo.asDouble() + u * (hi.asDouble() - lo.asDouble()), 0, false);
            } else {
                uint64_t span = static_cast<uint64_t>(hi.asInt() - lo.asInt()) + 1;
                uint64_t v = span == 0 ? r : r % span;
                storeElem(b, i, 0, static_cast<uint64_t>(lo.asInt()) + v, true);
            }
        }
    } else if (kind == "hash") {
        uint64_t seed = 0;
        if (arg.is_object()) {
            checkKeys(arg, w, {"seed"});
            if (arg.contains("seed")) seed = static_cast<uint64_t>(num(arg["seed"], w + ".seed").asInt());
        } else {
            seed = static_cast<uint64_t>(num(arg, w).asInt());
        }
        for (size_t i = 0; i < n; ++i) {
            uint64_t h = splitmix64(static_cast<uint64_t>(i) ^ (seed * 0xd1b54a32d192ed03ull));
            if (isFloatType(b.type)) storeElem(b, i, static_cast<double>(h >> 11) * 0x1.0p-53, 0, false);
            else storeElem(b, i, 0, h, true);
        }
    } else if (kind == "file") {
        if (!arg.is_string()) bad(w, "expected a file path");
        (void)0;
        bad(w, "internal: file initialisers are resolved by the caller");
    } else {
        bad(where, "unknown initialiser '" + kind + "'");
    }
}

// ---------------------------------------------------------------- 5. argument marshalling
ParamBytes scalarBytes(const std::string& type, const Value& v, int size, const std::string& where) {
    ParamBytes out(static_cast<size_t>(size), 0);
    auto put = [&](auto x) {
        if (sizeof x > out.size()) bad(where, "value of type ." + type + " does not fit the parameter");
        std::memcpy(out.data(), &x, sizeof x);
    };
    if (type == "f32") put(static_cast<float>(v.asDouble()));
    else if (type == "f64") put(v.asDouble());
    else if (type == "f16") bad(where, "half-precision kernel parameters are not supported");
    else {
        if (v.isFloat && v.d != std::floor(v.d)) bad(where, "an integer parameter got a fractional value");
        uint64_t raw = static_cast<uint64_t>(v.asInt());
        int n = std::min<int>(size, typeSize(type));
        std::memcpy(out.data(), &raw, static_cast<size_t>(n));
    }
    return out;
}

std::string ptxTypeToBufferType(ptx::Type t) {
    switch (t) {
    case ptx::Type::F32: return "f32";
    case ptx::Type::F64: return "f64";
    case ptx::Type::S8: return "s8";
    case ptx::Type::S16: return "s16";
    case ptx::Type::S32: return "s32";
    case ptx::Type::S64: return "s64";
    case ptx::Type::U8: case ptx::Type::B8: return "u8";
    case ptx::Type::U16: case ptx::Type::B16: return "u16";
    case ptx::Type::U32: case ptx::Type::B32: return "u32";
    default: return "u64";
    }
}

} // namespace

// ---------------------------------------------------------------- 6. runLesson
namespace {
RunResult runLessonImpl(const Lesson& lesson, const ParamValues& params, Device& device);
}

RunResult runLesson(const Lesson& lesson, const ParamValues& params, Device& device) {
    try {
        return runLessonImpl(lesson, params, device);
    } catch (const json::exception& e) {
        throw Error(Error::Kind::Input, lesson.id + ": the host script has a value of the wrong type or form (" + e.what() + ")");
    }
}

namespace {
// Parameter names as expressions see them: float parameters as floats, the rest as integers.
NameLookup paramNames(const Lesson& lesson, const ParamValues& params) {
    return [&lesson, &params](std::string_view n) -> std::optional<Value> {
        auto it = params.find(std::string(n));
        if (it == params.end()) return std::nullopt;
        for (auto& p : lesson.params)
            if (p.name == n && p.isFloat) return Value::ofFloat(it->second);
        return Value::ofInt(Value::saturate(it->second));
    };
}

// A buffer's "width" under `names`; 0 when it has none. Throws Error(Input) with the JSON path when
// the expression is wrong or not a positive integer.
uint64_t evalWidth(const Lesson& lesson, const BufferSpec& b, const NameLookup& names) {
    if (b.widthExpr.empty()) return 0;
    const std::string where = lesson.id + ": buffers." + b.name + ".width";
    Value v = evaluate(b.widthExpr, names, where);
    if (v.isFloat || v.i <= 0) bad(where, "must be a positive integer (elements per row)");
    return static_cast<uint64_t>(v.i);
}
} // namespace

uint64_t bufferWidth(const Lesson& lesson, const std::string& buffer, const ParamValues& params) {
    for (auto& b : lesson.buffers) {
        if (b.name != buffer) continue;
        try {
            return evalWidth(lesson, b, paramNames(lesson, params));
        } catch (const Error&) {
            return 0;   // running the lesson reports the mistake; the heat map just guesses a shape
        }
    }
    return 0;
}

namespace {
RunResult runLessonImpl(const Lesson& lesson, const ParamValues& params, Device& device) {
    RunResult result;
    std::map<std::string, int64_t> vars;   // loop variables of "for" operations, innermost wins
    const NameLookup paramsOnly = paramNames(lesson, params);
    NameLookup names = [&](std::string_view n) -> std::optional<Value> {
        if (auto v = vars.find(std::string(n)); v != vars.end()) return Value::ofInt(v->second);
        return paramsOnly(n);
    };
    const ptx::Module module = ptx::parse(lesson.ptxText, lesson.ptxPath.filename().string());
    device.loadParsedModule(lesson.ptxText, module, lesson.ptxPath.filename().string());   // parsed once per run

    // Buffers: host images, initialised, then copied to device allocations. Every buffer also
    // has host memory from the device (pinned or pageable) that the host script's copies use.
    std::map<std::string, HostBuffer> host;
    std::map<std::string, DevPtr> dev;
    std::map<std::string, HostBuffer> initial;
    std::map<std::string, uint8_t*> hostMem;
    std::map<std::string, bool> manual;
    std::set<std::string> mapped;                  // "host": "mapped" buffers: kernels write the host's memory itself
    struct HostMemGuard {
        Device& d;
        std::map<std::string, uint8_t*>& m;
        ~HostMemGuard() {
            for (auto& [n, p] : m) {
                try {
                    d.hostFree(p);
                } catch (...) {
                }
            }
        }
    } hostGuard{device, hostMem};
    for (auto& b : lesson.buffers) {
        std::string where = lesson.id + ": buffers." + b.name;
        Value count = evaluate(b.countExpr, names, where + ".count");
        if (count.isFloat || count.i < 0) bad(where + ".count", "must be a non-negative integer");
        if (count.i > (int64_t(1) << 31)) bad(where + ".count", "is larger than the simulator allows (2^31 elements)");
        evalWidth(lesson, b, names);   // a mistake in "width" is reported like one in "count"
        HostBuffer hb;
        hb.type = b.type;
        hb.bytes.assign(static_cast<size_t>(count.i) * static_cast<size_t>(typeSize(b.type)), 0);
        json init = json::parse(b.initJson);
        if (init.is_object() && init.size() == 1 && init.contains("file")) {
            fs::path p = lesson.dir / init["file"].get<std::string>();
            std::string data = readFile(p, "buffer file");
            if (data.size() != hb.bytes.size())
                bad(where + ".init.file", "'" + p.string() + "' has " + std::to_string(data.size()) + " bytes; the buffer needs " + std::to_string(hb.bytes.size()));
            std::memcpy(hb.bytes.data(), data.data(), data.size());
        } else {
            initBuffer(hb, init, where + ".init", names);
        }
        DevPtr p = device.malloc(std::max<size_t>(hb.bytes.size(), 1), b.name);
        // "uninitialized": allocated like cudaMalloc and never written by the host (initcheck).
        bool uninit = init.is_string() && init.get<std::string>() == "uninitialized";
        if (!uninit && !b.manual) device.memcpyHtoD(p, hb.bytes.data(), hb.bytes.size());
        bool pinned = (!b.pinnedExpr.empty() && evaluate(b.pinnedExpr, names, where + ".pinned").asInt() != 0) || !b.hostKind.empty();
        // Mapped memory: the simulator keeps its bytes in the device allocation (the kernel's
        // view of it), and the cycle model sends the kernel's accesses there over PCIe.
        if (b.hostKind == "mapped") device.setMappedRange(p, hb.bytes.size(), true);
        auto* hm = static_cast<uint8_t*>(device.hostAlloc(hb.bytes.size(), pinned));
        hostMem[b.name] = hm;
        if (!hb.bytes.empty()) std::memcpy(hm, hb.bytes.data(), hb.bytes.size());
        manual[b.name] = b.manual;
        if (b.hostKind == "mapped") mapped.insert(b.name);
        dev[b.name] = p;
        initial[b.name] = hb;
        host[b.name] = std::move(hb);
    }

    std::map<int64_t, int> streams{{0, 0}};        // the script's stream numbers -> the device's
    std::map<std::string, int> events, graphs;
    std::set<std::string> freed, captured;
    // The host script is expanded first (loops unrolled, expressions evaluated, arguments
    // marshalled, every mistake reported) into a plan of device calls, which then runs without
    // any interpretation between the calls: on a GPU the timeline measures the program, not the
    // interpreter.
    std::vector<std::function<void()>> plan;
    int activeCapture = -1;   // device stream being captured while the plan runs
    int captureStream = -1;                        // the script's number of the stream being captured
    size_t executed = 0;
    constexpr size_t kMaxOperations = 100000;
    // Copies to the host that are asynchronous: until the host synchronises with them (the
    // device, their stream, an event recorded after them on it, or a synchronous call on the
    // legacy default stream), a real program may read the buffer before the data arrives. The
    // simulator applies a copy at once, so this bookkeeping is what makes such a read a failed
    // check rather than a pass the GPU would not give.
    struct PendingRead {
        int stream;
        size_t seq;
        std::string where;
    };
    std::map<std::string, std::vector<PendingRead>> pendingReads;   // by buffer
    std::map<int, std::pair<int, size_t>> eventAt;                 // event -> (stream, seq) of its last record
    size_t opSeq = 0;
    auto settleReads = [&](auto&& done) {
        for (auto it = pendingReads.begin(); it != pendingReads.end();) {
            auto& v = it->second;
            v.erase(std::remove_if(v.begin(), v.end(), done), v.end());
            it = v.empty() ? pendingReads.erase(it) : std::next(it);
        }
    };
    // A synchronous call on the legacy default stream waits for the blocking streams' earlier work.
    auto legacySync = [&] { settleReads([&](const PendingRead& r) { return r.stream == 0 || !lesson.nonBlockingStreams; }); };
    // Synchronising with an event: the copies issued on its stream before it was recorded are done.
    auto settleEvent = [&](int e) {
        auto it = eventAt.find(e);
        if (it == eventAt.end()) return;
        const int es = it->second.first;   // (not a structured binding: clang 14 cannot capture one)
        const size_t eseq = it->second.second;
        settleReads([&](const PendingRead& r) { return r.stream == es && r.seq < eseq; });
    };
    constexpr int64_t kMaxStreams = 64;

    auto bufferPtr = [&](const std::string& name, const std::string& w) {
        auto it = dev.find(name);
        if (it == dev.end()) bad(w, "no buffer named '" + name + "'");
        return it->second;
    };
    auto integer = [&](const json& j, const std::string& w) { return evaluate(exprText(j, w), names, w).asInt(); };
    auto streamOf = [&](const json& op, const std::string& where) -> int {
        int64_t k = captureStream >= 0 ? captureStream : 0;
        if (op.contains("stream")) k = integer(op["stream"], where + ".stream");
        if (k < 0 || k > kMaxStreams) bad(where + ".stream", "stream numbers go from 0 (the legacy default stream) to " + std::to_string(kMaxStreams));
        if (captureStream >= 0 && k != captureStream)
            bad(where + ".stream", "inside a capture every operation goes to the captured stream " + std::to_string(captureStream));
        auto it = streams.find(k);
        if (it == streams.end())
            bad(where + ".stream", "stream " + std::to_string(k) + " does not exist: the program has stream 0 and the " +
                                       std::to_string(streams.size() - 1) + " streams of \"streams\": {\"count\": ...}");
        return it->second;
    };
    auto eventOf = [&](const json& j, const std::string& w, bool create) -> int {
        if (!j.is_string() || j.get<std::string>().empty()) bad(w, "an event is named by a string");
        std::string n = j.get<std::string>();
        auto it = events.find(n);
        if (it == events.end()) {
            if (!create) bad(w, "no event named '" + n + "' has been recorded");
            it = events.emplace(n, device.createEvent()).first;
        }
        return it->second;
    };
    // Element range [offset, offset + count) of a buffer for a copy; defaults to the whole buffer.
    auto range = [&](const json& op, const std::string& name, const std::string& where) {
        size_t es = static_cast<size_t>(typeSize(host.at(name).type));
        int64_t n = static_cast<int64_t>(host.at(name).bytes.size() / es);
        int64_t off = op.contains("offset") ? integer(op["offset"], where + ".offset") : 0;
        int64_t cnt = op.contains("count") ? integer(op["count"], where + ".count") : n - off;
        if (off < 0 || cnt < 0 || off + cnt > n)
            bad(where, "elements [" + std::to_string(off) + ", " + std::to_string(off + cnt) + ") are outside buffer '" + name + "' (" +
                           std::to_string(n) + " elements)");
        return std::pair<size_t, size_t>(static_cast<size_t>(off) * es, static_cast<size_t>(cnt) * es);
    };

    std::function<void(const json&, const std::string&)> runOps;
    auto runOne = [&](const json& op, const std::string& where) {
        if (!op.is_object()) bad(where, "an operation is an object such as {\"launch\": \"kernel\", ...}");
        if (op.contains("if") && integer(op["if"], where + ".if") == 0) return;
        if (++executed > kMaxOperations)
            bad(where, "the host script runs more than " + std::to_string(kMaxOperations) + " operations (a loop bound may be wrong)");
        if (op.contains("launch")) {
            checkKeys(op, where, hostOpKind(op)->allowed);
            std::string kernel = op["launch"].get<std::string>();
            if (op.contains("family") && !op["family"].is_string()) bad(where + ".family", "the family is a name (a string)");
            // Launches of one family are variants a student compares; timing validation ranks within it.
            std::string family = op.value("family", "");
            const ptx::Function* fn = module.findFunction(kernel);
            if (!fn || !fn->isEntry) {
                std::string list;
                for (auto* kf : module.kernels()) list += (list.empty() ? "" : ", ") + kf->name;
                bad(where + ".launch", "no kernel named '" + kernel + "' in the PTX (kernels: " + list + ")");
            }
        auto dim = [&](const char* key) {
            Dim3 d;
            if (!op.contains(key)) bad(where, std::string("needs \"") + key + "\"");
            const json& j = op[key];
            std::vector<int64_t> v;
            std::string w = where + "." + key;
            if (j.is_array()) {
                if (j.empty() || j.size() > 3) bad(w, "give 1 to 3 dimensions");
                for (size_t i = 0; i < j.size(); ++i) v.push_back(evaluate(exprText(j[i], w), names, w + "[" + std::to_string(i) + "]").asInt());
            } else {
                v.push_back(evaluate(exprText(j, w), names, w).asInt());
            }
            for (auto x : v)
                if (x < 1 || x > 0x7fffffff) bad(w, "dimension " + std::to_string(x) + " is out of range");
            d.x = static_cast<uint32_t>(v[0]);
            if (v.size() > 1) d.y = static_cast<uint32_t>(v[1]);
            if (v.size() > 2) d.z = static_cast<uint32_t>(v[2]);
            return d;
        };
        LaunchConfig cfg;
        cfg.grid = dim("grid");
        cfg.block = dim("block");
        if (op.contains("shared")) {
            int64_t s = evaluate(exprText(op["shared"], where + ".shared"), names, where + ".shared").asInt();
            if (s < 0 || s > 227 * 1024) bad(where + ".shared", "dynamic shared memory must be between 0 and 232448 bytes");
            cfg.dynamicSharedBytes = static_cast<uint32_t>(s);
        }
        if (op.contains("cooperative")) {
            if (!op["cooperative"].is_boolean()) bad(where + ".cooperative", "must be true or false");
            cfg.cooperative = op["cooperative"].get<bool>();
        }
        const json args = op.value("args", json::array());
        if (args.size() != fn->params.size())
            bad(where + ".args", "kernel '" + kernel + "' takes " + std::to_string(fn->params.size()) + " arguments, " + std::to_string(args.size()) + " given");
        std::vector<ParamBytes> pb;
        std::set<std::string> mappedArgs;   // mapped buffers the kernel may write while the host goes on
        for (size_t i = 0; i < args.size(); ++i) {
            const auto& a = args[i];
            const auto& decl = fn->params[i];
            if (a.is_string() && mapped.count(a.get<std::string>())) mappedArgs.insert(a.get<std::string>());
            if (a.is_object() && a.contains("buffer") && a["buffer"].is_string() && mapped.count(a["buffer"].get<std::string>()))
                mappedArgs.insert(a["buffer"].get<std::string>());
            std::string w = where + ".args[" + std::to_string(i) + "]";
            int size = static_cast<int>(decl.sizeInBytes());
            if (a.is_string() && dev.count(a.get<std::string>())) {
                if (size != 8) bad(w, "buffer '" + a.get<std::string>() + "' passed where the kernel expects a " + std::to_string(size) + "-byte value");
                DevPtr p = dev[a.get<std::string>()];
                ParamBytes bytes(8);
                std::memcpy(bytes.data(), &p, 8);
                pb.push_back(bytes);
            } else if (a.is_object() && a.contains("buffer")) {
                // A pointer into a buffer: {"buffer": "data", "offset": elements}.
                checkKeys(a, w, {"buffer", "offset"});
                std::string bn = a["buffer"].is_string() ? a["buffer"].get<std::string>() : "";
                if (!dev.count(bn)) bad(w + ".buffer", "no buffer named '" + bn + "'");
                if (size != 8) bad(w, "buffer '" + bn + "' passed where the kernel expects a " + std::to_string(size) + "-byte value");
                int64_t off = a.contains("offset") ? evaluate(exprText(a["offset"], w + ".offset"), names, w + ".offset").asInt() : 0;
                int64_t count = static_cast<int64_t>(host[bn].count());
                if (off < 0 || off > count) bad(w + ".offset", "offset " + std::to_string(off) + " is outside buffer '" + bn + "' (" + std::to_string(count) + " elements)");
                DevPtr p = dev[bn] + static_cast<DevPtr>(off) * static_cast<DevPtr>(typeSize(host[bn].type));
                ParamBytes bytes(8);
                std::memcpy(bytes.data(), &p, 8);
                pb.push_back(bytes);
            } else if (a.is_object() && a.contains("struct")) {
                ParamBytes bytes(static_cast<size_t>(size), 0);
                size_t off = 0;
                size_t fi = 0;
                for (auto& field : a["struct"]) {
                    std::string fw = w + ".struct[" + std::to_string(fi++) + "]";
                    if (!field.is_array() || field.size() != 2 || !field[0].is_string()) bad(fw, "a field is [\"type\", value]");
                    std::string t = field[0].get<std::string>();
                    int fs = typeSize(t);
                    off = (off + static_cast<size_t>(fs) - 1) / static_cast<size_t>(fs) * static_cast<size_t>(fs);
                    Value v = evaluate(exprText(field[1], fw), names, fw);
                    ParamBytes fb = scalarBytes(t, v, fs, fw);
                    if (off + fb.size() > bytes.size()) bad(fw, "the struct is larger than the kernel's parameter (" + std::to_string(size) + " bytes)");
                    std::memcpy(bytes.data() + off, fb.data(), fb.size());
                    off += fb.size();
                }
                pb.push_back(bytes);
            } else if (a.is_object() && a.contains("bytes")) {
                std::string hex = a["bytes"].get<std::string>();
                if (hex.size() != static_cast<size_t>(size) * 2) bad(w, "needs exactly " + std::to_string(size) + " bytes of hex");
                ParamBytes bytes;
                for (size_t h = 0; h < hex.size(); h += 2) bytes.push_back(static_cast<uint8_t>(std::stoul(hex.substr(h, 2), nullptr, 16)));
                pb.push_back(bytes);
            } else if (a.is_object() && a.contains("value")) {
                std::string t = a.value("type", ptxTypeToBufferType(decl.type));
                pb.push_back(scalarBytes(t, evaluate(exprText(a["value"], w), names, w), size, w));
            } else {
                if (a.is_string() && !a.get<std::string>().empty() && decl.type == ptx::Type::U64 && !names(a.get<std::string>()) &&
                    a.get<std::string>().find_first_of("+-*/()") == std::string::npos)
                    bad(w, "no buffer or parameter named '" + a.get<std::string>() + "'");
                if (decl.arrayCount >= 0) bad(w, "kernel parameter '" + decl.name + "' is a struct: pass {\"struct\": [...]}");
                pb.push_back(scalarBytes(ptxTypeToBufferType(decl.type), evaluate(exprText(a, w), names, w), size, w));
            }
        }
        if (!op.contains("stream") && captureStream < 0) legacySync();   // a launch the host waits for
        // A kernel launch returns at once: until the host synchronises with it, the host may read a
        // mapped buffer the kernel is still writing (the same bookkeeping as an asynchronous copy back).
        if (captureStream < 0)
            for (const std::string& name : mappedArgs) pendingReads[name].push_back({op.contains("stream") ? streamOf(op, where) : 0, ++opSeq, where});
        if (op.contains("stream") || captureStream >= 0) {
            int s = streamOf(op, where);
            plan.push_back([&result, &device, s, kernel, cfg, pb, family] {
                result.launches.push_back(device.launchOn(s, kernel, cfg, pb));
                result.launches.back().family = family;
            });
        } else {
            plan.push_back([&result, &device, kernel, cfg, pb, family] {
                result.launches.push_back(device.launch(kernel, cfg, pb));
                result.launches.back().family = family;
            });
        }
        } else if (op.contains("to_device") || op.contains("to_host")) {
            bool toDevice = op.contains("to_device");
            checkKeys(op, where, hostOpKind(op)->allowed);
            std::string name = op[toDevice ? "to_device" : "to_host"].get<std::string>();
            DevPtr d = bufferPtr(name, where);
            auto [off, bytes] = range(op, name, where);
            size_t es = static_cast<size_t>(typeSize(host.at(name).type));
            bool async = op.value("async", true);
            if (!op.contains("stream") && captureStream < 0 && !op.contains("async")) async = false;   // plain cudaMemcpy
            int s = streamOf(op, where);
            std::string label = name + "[" + std::to_string(off / es) + ":" + std::to_string((off + bytes) / es) + "]";
            uint8_t* h = hostMem[name] + off;
            DevPtr dp = d + off;
            if (captureStream < 0) {
                if (!async) legacySync();
                else if (!toDevice) pendingReads[name].push_back({s, ++opSeq, where});
            }
            if (toDevice) plan.push_back([&device, dp, h, bytes = bytes, s, async, label] { device.copyToDevice(dp, h, bytes, s, !async, label); });
            else plan.push_back([&device, dp, h, bytes = bytes, s, async, label] { device.copyToHost(h, dp, bytes, s, !async, label); });
        } else if (op.contains("record")) {
            checkKeys(op, where, hostOpKind(op)->allowed);
            int e = eventOf(op["record"], where + ".record", true), s = streamOf(op, where);
            if (captureStream < 0) eventAt[e] = {s, ++opSeq};
            plan.push_back([&device, e, s] { device.recordEvent(e, s); });
        } else if (op.contains("wait")) {
            checkKeys(op, where, hostOpKind(op)->allowed);
            int s = streamOf(op, where), e = eventOf(op["wait"], where + ".wait", false);
            plan.push_back([&device, e, s] { device.streamWaitEvent(s, e); });
        } else if (op.contains("sync")) {
            checkKeys(op, where, hostOpKind(op)->allowed);
            std::string what = op["sync"].is_string() ? op["sync"].get<std::string>() : "";
            if (captureStream >= 0) bad(where, "synchronising inside a capture is not allowed");
            if (what == "device") {
                pendingReads.clear();
                plan.push_back([&device] { device.synchronize(); });
            } else if (what == "stream") {
                int s = streamOf(op, where);
                settleReads([&](const PendingRead& r) { return r.stream == s; });
                plan.push_back([&device, s] { device.synchronizeStream(s); });
            } else if (what == "event") {
                int e = eventOf(op.value("event", json()), where + ".event", false);
                settleEvent(e);
                plan.push_back([&device, e] { device.synchronizeEvent(e); });
            }
            else bad(where + ".sync", "is \"device\", \"stream\" (with \"stream\") or \"event\" (with \"event\")");
        } else if (op.contains("elapsed")) {
            checkKeys(op, where, hostOpKind(op)->allowed);
            int from = eventOf(op.value("from", json()), where + ".from", false), to = eventOf(op.value("to", json()), where + ".to", false);
            std::string timer = op["elapsed"].get<std::string>();
            settleEvent(to);
            plan.push_back([&device, &result, from, to, timer] {
                device.synchronizeEvent(to);
                result.timers[timer] = device.eventElapsedMs(from, to);
            });
        } else if (op.contains("for")) {
            checkKeys(op, where, hostOpKind(op)->allowed);
            std::string var = op["for"].get<std::string>();
            if (var.empty() || params.count(var)) bad(where + ".for", "the loop variable '" + var + "' must be a new name");
            int64_t from = op.contains("from") ? integer(op["from"], where + ".from") : 0;
            if (!op.contains("to")) bad(where, "needs \"to\" (the loop runs while the variable is below it)");
            int64_t to = integer(op["to"], where + ".to");
            if (!op.contains("do") || !op["do"].is_array()) bad(where, "needs \"do\": [operations]");
            auto saved = vars.find(var) != vars.end() ? std::optional<int64_t>(vars[var]) : std::nullopt;
            for (int64_t i = from; i < to; ++i) {
                vars[var] = i;
                runOps(op["do"], where + ".do");
            }
            if (saved) vars[var] = *saved;
            else vars.erase(var);
        } else if (op.contains("capture")) {
            checkKeys(op, where, hostOpKind(op)->allowed);
            if (captureStream >= 0) bad(where, "captures cannot be nested");
            if (!op.contains("stream")) bad(where, "needs the \"stream\" to capture (not 0, the legacy default stream)");
            int64_t k = integer(op["stream"], where + ".stream");
            if (k <= 0) bad(where + ".stream", "the legacy default stream (0) cannot be captured; use 1 or more");
            int s = streamOf(op, where);
            if (!op.contains("do") || !op["do"].is_array()) bad(where, "needs \"do\": [operations to capture]");
            std::string gname = op["capture"].get<std::string>();
            plan.push_back([&device, &activeCapture, s] {
                device.beginCapture(s);
                activeCapture = s;
            });
            captureStream = static_cast<int>(k);
            try {
                runOps(op["do"], where + ".do");
            } catch (...) {
                captureStream = -1;
                throw;
            }
            captureStream = -1;
            captured.insert(gname);
            plan.push_back([&device, &activeCapture, &graphs, s, gname] {
                activeCapture = -1;
                graphs[gname] = device.endCapture(s);
            });
        } else if (op.contains("graph")) {
            checkKeys(op, where, hostOpKind(op)->allowed);
            std::string g = op["graph"].get<std::string>();
            if (!captured.count(g)) bad(where + ".graph", "no graph named '" + g + "' has been captured");
            int s = streamOf(op, where);
            plan.push_back([&device, &graphs, g, s] { device.launchGraph(graphs.at(g), s); });
        } else if (op.contains("timeline")) {
            // Everything before this was set-up (like cudaGraphInstantiate, or a warm-up): the
            // timeline restarts here, after the device has finished that work.
            checkKeys(op, where, hostOpKind(op)->allowed);
            if (op["timeline"] != "restart") bad(where + ".timeline", "the only value is \"restart\"");
            if (captureStream >= 0) bad(where, "the timeline cannot restart inside a capture");
            pendingReads.clear();
            plan.push_back([&device] {
                device.synchronize();
                device.resetTimeline();
            });
        } else if (op.contains("memset")) {
            checkKeys(op, where, hostOpKind(op)->allowed);
            std::string name = op["memset"].get<std::string>();
            int64_t v = integer(op.value("value", json(0)), where + ".value");
            if (v < 0 || v > 255) bad(where + ".value", "a memset value is one byte (0..255)");
            DevPtr dp = bufferPtr(name, where + ".memset");
            size_t n = host[name].bytes.size();
            plan.push_back([&device, dp, v, n] { device.memset(dp, static_cast<uint8_t>(v), n); });
        } else if (op.contains("copy")) {
            checkKeys(op, where, hostOpKind(op)->allowed);
            std::string from = op["copy"].get<std::string>(), to = op.value("to", "");
            DevPtr dst = bufferPtr(to, where + ".to"), src = bufferPtr(from, where + ".copy");
            size_t n = std::min(host[from].bytes.size(), host[to].bytes.size());
            plan.push_back([&device, dst, src, n] { device.memcpyDtoD(dst, src, n); });
        } else if (op.contains("free")) {
            checkKeys(op, where, hostOpKind(op)->allowed);
            std::string name = op["free"].get<std::string>();
            DevPtr dp = bufferPtr(name, where + ".free");
            plan.push_back([&device, dp] { device.free(dp); });
            freed.insert(name);   // its pointer stays in `dev`, so a later launch can still (wrongly) use it
        } else if (op.contains("symbol")) {
            checkKeys(op, where, hostOpKind(op)->allowed);
            std::string sym = op["symbol"].get<std::string>(), from = op.value("from", "");
            size_t symBytes = 0;
            DevPtr sp = device.symbolAddress(sym, &symBytes);
            DevPtr bp = bufferPtr(from, where + ".from");
            size_t n = std::min(symBytes, host[from].bytes.size());
            plan.push_back([&device, sp, bp, n] {
                std::vector<uint8_t> tmp(n);
                device.memcpyDtoH(tmp.data(), bp, n);
                device.memcpyHtoD(sp, tmp.data(), n);
            });
        } else if (op.contains("priority")) {
            // cudaStreamCreateWithPriority: the stream's priority for the rest of the program.
            checkKeys(op, where, hostOpKind(op)->allowed);
            if (captureStream >= 0) bad(where, "a stream's priority cannot change inside a capture");
            int64_t pr = integer(op["priority"], where + ".priority");
            if (pr < TimelineModel::kHighestPriority || pr > TimelineModel::kLowestPriority)
                bad(where + ".priority", "stream priorities go from 0 (the default, lowest) to -5 (the highest), as cudaDeviceGetStreamPriorityRange gives them");
            int s = streamOf(op, where);
            if (s == 0) bad(where + ".stream", "the legacy default stream keeps the default priority; give a created stream");
            plan.push_back([&device, s, pr] { device.setStreamPriority(s, static_cast<int>(pr)); });
        } else if (op.contains("host_function")) {
            // cudaLaunchHostFunc: runs on the host after the stream's earlier work, holds its later work.
            checkKeys(op, where, hostOpKind(op)->allowed);
            if (captureStream >= 0) bad(where, "host functions inside a capture are not supported by the simulator yet");
            std::string label = op["host_function"].get<std::string>();
            double us = 0;
            if (op.contains("us")) {
                Value v = evaluate(exprText(op["us"], where + ".us"), names, where + ".us");
                us = v.asDouble();
                if (!(us >= 0 && us <= 1e7)) bad(where + ".us", "a host function's time is 0 to 10000000 microseconds");
            }
            int s = streamOf(op, where);
            // The host function has seen the stream's earlier work: its copies back are done.
            settleReads([&](const PendingRead& r) { return r.stream == s; });
            plan.push_back([&device, s, us, label] { device.launchHostFunction(s, nullptr, us, label); });
        } else if (op.contains("l2_window")) {
            // cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, ...) over a buffer.
            checkKeys(op, where, hostOpKind(op)->allowed);
            std::string name = op["l2_window"].get<std::string>();
            DevPtr d = bufferPtr(name, where + ".l2_window");
            auto [off, bytes] = range(op, name, where);
            auto prop = [&](const char* key, int dflt) {
                if (!op.contains(key)) return dflt;
                const json& v = op[key];
                if (v == "normal") return 0;
                if (v == "streaming") return 1;
                if (v == "persisting") return 2;
                bad(where + "." + key, "is \"normal\", \"streaming\" or \"persisting\" (cudaAccessProperty)");
            };
            Device::AccessPolicyWindow w;
            w.base = d + off;
            w.bytes = bytes;
            w.hitRatio = op.contains("hit_ratio") ? evaluate(exprText(op["hit_ratio"], where + ".hit_ratio"), names, where + ".hit_ratio").asDouble() : 1.0;
            if (!(w.hitRatio >= 0 && w.hitRatio <= 1)) bad(where + ".hit_ratio", "is between 0 and 1 (the share of the window's accesses that get hit_prop)");
            w.hitProp = prop("hit_prop", 2);
            w.missProp = prop("miss_prop", 1);
            int s = streamOf(op, where);
            plan.push_back([&device, s, w] { device.setAccessPolicyWindow(s, w); });
        } else if (op.contains("l2_persisting")) {
            // cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, bytes): the L2 set aside for persisting lines.
            checkKeys(op, where, hostOpKind(op)->allowed);
            int64_t bytes = integer(op["l2_persisting"], where + ".l2_persisting");
            if (bytes < 0) bad(where + ".l2_persisting", "is a number of bytes (0 or more)");
            plan.push_back([&device, bytes] { device.setPersistingL2Bytes(static_cast<uint64_t>(bytes)); });
        } else {
            bad(where, kUnknownHostOp);
        }
    };
    runOps = [&](const json& ops, const std::string& path) {
        if (!ops.is_array()) bad(path, "must be an array of operations");
        size_t k = 0;
        for (auto& op : ops) runOne(op, path + "[" + std::to_string(k++) + "]");
    };

    if (!lesson.streamCountExpr.empty()) {
        int64_t n = evaluate(lesson.streamCountExpr, names, lesson.id + ": streams.count").asInt();
        if (n < 0 || n > kMaxStreams) bad(lesson.id + ": streams.count", "is between 0 and " + std::to_string(kMaxStreams));
        for (int64_t k = 1; k <= n; ++k) streams[k] = device.createStream(lesson.nonBlockingStreams);
    }
    runOps(json::parse(lesson.hostJson), lesson.id + ": host");
    device.resetTimeline();
    try {
        for (auto& step : plan) step();
    } catch (...) {
        if (activeCapture >= 0) {
            try {
                device.endCapture(activeCapture);   // leave the device usable
            } catch (...) {
            }
        }
        throw;
    }
    device.synchronize();
    result.timeline = device.timeline();
    for (auto& [name, hb] : host) {
        if (freed.count(name)) continue;
        if (manual[name]) {
            if (!hb.bytes.empty()) std::memcpy(hb.bytes.data(), hostMem[name], hb.bytes.size());
        } else {
            device.memcpyDtoH(hb.bytes.data(), dev[name], hb.bytes.size());
        }
        result.buffers[name] = hb.bytes;
    }
    for (auto& [name, p] : dev) result.addresses[name] = p;

    // Checks.
    for (auto& c : lesson.checks) {
        if (!c.ifExpr.empty() && evaluate(c.ifExpr, names, lesson.id + ": checks.if").asInt() == 0) continue;
        CheckResult cr;
        cr.buffer = c.buffer;
        // The host reads a buffer whose copy back it never waited for: on a GPU it may read the
        // old contents. The check fails whatever the values (the simulator copied at once).
        if (auto pr = pendingReads.find(c.buffer); pr != pendingReads.end() && (manual[c.buffer] || mapped.count(c.buffer))) {
            cr.detail = "the host reads '" + c.buffer + "' without waiting for " + (mapped.count(c.buffer) ? "the kernel that writes it (mapped memory: " : "its copy back (") + pr->second.front().where +
                        " is asynchronous and nothing after it synchronises: add { \"sync\": \"stream\", \"stream\": s }, "
                        "{ \"sync\": \"device\" } or an event synchronisation, as cudaStreamSynchronize or "
                        "cudaDeviceSynchronize would be in a program); on a GPU the host may read it before the data arrives";
            cr.mismatches = host[c.buffer].count();
            result.checks.push_back(cr);
            continue;
        }
        const HostBuffer& got = host[c.buffer];
        HostBuffer expect;
        expect.type = got.type;
        size_t n = got.count();
        if (!c.reference.empty()) {
            expect.bytes.assign(got.bytes.size(), 0);
            ReferenceInputs in;
            for (auto& name : c.inputs) {
                if (!initial.count(name)) bad(lesson.id + ": checks", "reference input '" + name + "' is not a buffer");
                in.inputs.push_back(&initial[name]);
            }
            in.param = [&](const std::string& p) {
                auto v = names(p);
                if (!v) bad(lesson.id + ": checks", "reference '" + c.reference + "' needs parameter '" + p + "'");
                return *v;
            };
            references().at(c.reference).fn(in, expect);
        } else if (!c.equals.empty()) {
            if (!host.count(c.equals)) bad(lesson.id + ": checks", "no buffer named '" + c.equals + "'");
            expect = host[c.equals];
            if (expect.type != got.type) bad(lesson.id + ": checks", "buffers '" + c.buffer + "' and '" + c.equals + "' have different types");
            n = std::min(n, expect.count());
        } else {
            expect.bytes.assign(c.expect.size() * static_cast<size_t>(typeSize(got.type)), 0);
            for (size_t i = 0; i < c.expect.size(); ++i) expect.set(i, c.expect[i]);
            n = std::min(n, c.expect.size());
        }
        Comparison cmp = compareBuffers(got, expect, n, c.tolerance);
        cr.mismatches = cmp.mismatches;
        cr.firstDiffs = cmp.first;
        std::ostringstream os;
        os.precision(9);
        if (cmp.mismatches == 0) {
            cr.passed = true;
            os << n << " elements match";
            if (!c.reference.empty()) os << " the CPU reference '" << c.reference << "'";
            else if (!c.equals.empty()) os << " buffer '" << c.equals << "'";
            else os << " the expected values";
            if (cmp.worstUlp > 0) os << " (worst " << cmp.worstUlp << " ulp)";
        } else {
            os << cmp.mismatches << " of " << n << " elements differ; first at index " << cmp.firstIndex << ": got " << cmp.firstGot
               << ", expected " << cmp.firstExpected;
        }
        cr.detail = os.str();
        result.checks.push_back(cr);
    }
    return result;
}
} // namespace

// ---------------------------------------------------------------- 7. element comparison
namespace {
double ulpDistance(const std::string& type, double a, double b) {
    if (type == "f32") {
        auto key = [](float f) {
            int32_t i = std::bit_cast<int32_t>(f);
            return i < 0 ? int64_t(INT32_MIN) - i : int64_t(i);
        };
        return std::fabs(static_cast<double>(key(static_cast<float>(a)) - key(static_cast<float>(b))));
    }
    auto key = [](double d) {
        int64_t i = std::bit_cast<int64_t>(d);
        return i < 0 ? static_cast<long double>(INT64_MIN) - i : static_cast<long double>(i);
    };
    return static_cast<double>(std::fabs(key(a) - key(b)));
}
} // namespace

Comparison compareBuffers(const HostBuffer& got, const HostBuffer& expect, size_t n, const Tolerance& tol) {
    Comparison c;
    c.compared = n;
    const int es = typeSize(got.type);
    for (size_t i = 0; i < n; ++i) {
        if (std::memcmp(got.bytes.data() + i * es, expect.bytes.data() + i * es, static_cast<size_t>(es)) == 0) continue;
        double g = got.get(i), e = expect.get(i);
        ++c.differing;
        if (!std::isnan(g) && !std::isnan(e)) c.maxAbs = std::max(c.maxAbs, std::fabs(g - e));
        bool ok = false;
        if (!tol.exact() && isFloatType(got.type)) {
            if (std::isnan(g) && std::isnan(e)) ok = true;
            double ulp = ulpDistance(got.type, g, e);
            if (c.worstUlp < ulp && !std::isnan(g) && !std::isnan(e)) c.worstUlp = ulp;
            if (tol.ulp && ulp <= *tol.ulp) ok = true;
            if (tol.abs && std::fabs(g - e) <= *tol.abs) ok = true;
            if (tol.rel && std::fabs(g - e) <= *tol.rel * std::fabs(e)) ok = true;
        }
        if (!ok) {
            if (c.first.size() < Comparison::kKept) c.first.push_back({i, g, e});
            if (c.mismatches == 0) {
                c.firstIndex = i;
                c.firstGot = g;
                c.firstExpected = e;
            }
            ++c.mismatches;
        }
    }
    return c;
}

} // namespace warpscope::runtime
