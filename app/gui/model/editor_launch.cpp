// Kernel signatures and the Launch panel's spec (editor_launch.hpp).
//
// Sections: 1. C++ signatures  2. PTX entries  3. the launch spec
#include "gui/model/editor_launch.hpp"

#include "base/error.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <map>
#include <sstream>

namespace warpscope::gui {

namespace {

bool isIdent(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string trim(const std::string& s) {
    size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
    return s.substr(a, b - a);
}

// The text with comments, string and character literals blanked (newlines kept, so offsets and
// line numbers stay those of the original).
std::string blankCommentsAndStrings(const std::string& s) {
    std::string out = s;
    for (size_t i = 0; i < out.size(); ++i) {
        if (out[i] == '/' && i + 1 < out.size() && out[i + 1] == '/') {
            while (i < out.size() && out[i] != '\n') out[i++] = ' ';
        } else if (out[i] == '/' && i + 1 < out.size() && out[i + 1] == '*') {
            size_t end = out.find("*/", i + 2);
            end = end == std::string::npos ? out.size() : end + 2;
            for (; i < end; ++i)
                if (out[i] != '\n') out[i] = ' ';
            --i;
        } else if (out[i] == '"' || out[i] == '\'') {
            char q = out[i];
            out[i] = ' ';
            for (++i; i < out.size() && out[i] != q && out[i] != '\n'; ++i) {
                if (out[i] == '\\' && i + 1 < out.size()) out[i++] = ' ';
                out[i] = ' ';
            }
            if (i < out.size() && out[i] == q) out[i] = ' ';
        }
    }
    return out;
}

// Splits at commas outside (), <>, [] and {}.
std::vector<std::string> splitTopLevel(const std::string& s) {
    std::vector<std::string> out;
    int depth = 0;
    std::string cur;
    for (char c : s) {
        if (c == '(' || c == '<' || c == '[' || c == '{') ++depth;
        if (c == ')' || c == '>' || c == ']' || c == '}') --depth;
        if (c == ',' && depth == 0) {
            out.push_back(trim(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!trim(cur).empty()) out.push_back(trim(cur));
    return out;
}

// "p0", "p1", ...: a parameter without a name (appended, not operator+: GCC 12 warns falsely on that).
std::string unnamedParam(size_t index) {
    std::string s = "p";
    s += std::to_string(index);
    return s;
}

KernelParam parseCudaParam(std::string p, size_t index) {
    KernelParam kp;
    if (auto eq = p.find('='); eq != std::string::npos) p = trim(p.substr(0, eq));   // default argument
    if (!p.empty() && p.back() == ']') {   // float a[] is a pointer
        p = trim(p.substr(0, p.rfind('[')));
        kp.pointer = true;
    }
    size_t end = p.size(), start = end;
    while (start > 0 && isIdent(p[start - 1])) --start;
    std::string name = p.substr(start, end - start);
    std::string type = trim(p.substr(0, start));
    if (type.empty() || name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) {   // unnamed parameter
        type = p;
        name = unnamedParam(index);
    }
    kp.name = name;
    kp.cppType = type;
    kp.pointer = kp.pointer || type.find('*') != std::string::npos;
    kp.elemType = elementTypeFor(type);
    return kp;
}

int lineAt(const std::string& s, size_t offset) {
    int line = 1;
    for (size_t i = 0; i < offset && i < s.size(); ++i) line += s[i] == '\n';
    return line;
}

} // namespace

// ---------------------------------------------------------------- 1. C++ signatures
std::string elementTypeFor(const std::string& cppType) {
    // Drop qualifiers and declarators; keep the words of the base type.
    std::vector<std::string> words;
    std::string w;
    auto flush = [&] {
        if (!w.empty() && w != "const" && w != "volatile" && w != "__restrict__" && w != "__restrict" && w != "restrict" && w != "struct" &&
            w != "std")
            words.push_back(w);
        w.clear();
    };
    for (char c : cppType) {
        if (isIdent(c)) w += c;
        else flush();
    }
    flush();
    std::string base;
    for (auto& x : words) base += (base.empty() ? "" : " ") + x;
    static const std::map<std::string, std::string> table = {
        {"float", "f32"},         {"double", "f64"},          {"int", "s32"},           {"signed", "s32"},
        {"signed int", "s32"},    {"unsigned", "u32"},        {"unsigned int", "u32"},  {"uint", "u32"},
        {"short", "s16"},         {"short int", "s16"},       {"unsigned short", "u16"}, {"char", "s8"},
        {"signed char", "s8"},    {"unsigned char", "u8"},    {"bool", "u8"},           {"long long", "s64"},
        {"long long int", "s64"}, {"unsigned long long", "u64"}, {"long", "s64"},       {"unsigned long", "u64"},
        {"int8_t", "s8"},         {"uint8_t", "u8"},          {"int16_t", "s16"},       {"uint16_t", "u16"},
        {"int32_t", "s32"},       {"uint32_t", "u32"},        {"int64_t", "s64"},       {"uint64_t", "u64"},
        {"size_t", "u64"},        {"__half", "f16"},          {"half", "f16"},
    };
    auto it = table.find(base);
    return it == table.end() ? std::string() : it->second;
}

std::vector<KernelSignature> parseCudaKernels(const std::string& source) {
    std::vector<KernelSignature> out;
    const std::string s = blankCommentsAndStrings(source);
    const std::string key = "__global__";
    for (size_t at = s.find(key); at != std::string::npos; at = s.find(key, at + key.size())) {
        if ((at > 0 && isIdent(s[at - 1])) || (at + key.size() < s.size() && isIdent(s[at + key.size()]))) continue;
        size_t open = s.find('(', at);
        if (open == std::string::npos) break;
        if (s.find(';', at) < open || s.find('{', at) < open) continue;   // not a function declaration
        size_t nameEnd = open;
        while (nameEnd > at && std::isspace(static_cast<unsigned char>(s[nameEnd - 1]))) --nameEnd;
        size_t nameStart = nameEnd;
        while (nameStart > at && isIdent(s[nameStart - 1])) --nameStart;
        if (nameStart == nameEnd) continue;
        int depth = 0;
        size_t close = open;
        for (; close < s.size(); ++close) {
            if (s[close] == '(') ++depth;
            if (s[close] == ')' && --depth == 0) break;
        }
        if (close >= s.size()) break;
        KernelSignature k;
        k.name = s.substr(nameStart, nameEnd - nameStart);
        k.line = lineAt(s, nameStart);
        // Its body (to the matching brace): a 2D kernel indexes .y.
        size_t body = s.find_first_of("{;", close);
        if (body != std::string::npos && s[body] == '{') {
            int braces = 0;
            size_t end = body;
            for (; end < s.size(); ++end) {
                if (s[end] == '{') ++braces;
                if (s[end] == '}' && --braces == 0) break;
            }
            std::string text = s.substr(body, end - body);
            k.twoD = text.find("threadIdx.y") != std::string::npos || text.find("blockIdx.y") != std::string::npos;
        }
        std::vector<std::string> parts = splitTopLevel(s.substr(open + 1, close - open - 1));
        if (!(parts.size() == 1 && parts[0] == "void"))
            for (size_t i = 0; i < parts.size(); ++i) k.params.push_back(parseCudaParam(parts[i], i));
        out.push_back(std::move(k));
    }
    return out;
}

// ---------------------------------------------------------------- 2. PTX entries
std::vector<KernelSignature> parsePtxEntries(const std::string& ptx) {
    std::vector<KernelSignature> out;
    const std::string key = ".entry";
    for (size_t at = ptx.find(key); at != std::string::npos; at = ptx.find(key, at + key.size())) {
        size_t open = ptx.find('(', at);
        size_t nameStart = at + key.size();
        while (nameStart < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[nameStart]))) ++nameStart;
        size_t nameEnd = nameStart;
        while (nameEnd < ptx.size() && (isIdent(ptx[nameEnd]) || ptx[nameEnd] == '$' || ptx[nameEnd] == '.')) ++nameEnd;
        if (nameEnd == nameStart) continue;
        KernelSignature k;
        k.name = ptx.substr(nameStart, nameEnd - nameStart);
        // Parameters only when the '(' follows the name (an entry may have none).
        size_t after = nameEnd;
        while (after < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[after]))) ++after;
        if (open != std::string::npos && open == after) {
            size_t close = ptx.find(')', open);
            if (close == std::string::npos) break;
            std::vector<std::string> parts = splitTopLevel(ptx.substr(open + 1, close - open - 1));
            for (size_t i = 0; i < parts.size(); ++i) {
                std::istringstream words(parts[i]);
                std::string word, type;
                while (words >> word)
                    if (word.size() > 1 && word[0] == '.' && word != ".param" && word != ".align" && word.rfind(".ptr", 0) != 0 &&
                        word.rfind(".global", 0) != 0)
                        type = word.substr(1);
                KernelParam p;
                p.name = unnamedParam(i);
                p.pointer = type == "u64" || type == "b64";
                p.elemType = p.pointer ? "f32" : type == "b32" ? "u32" : type;
                k.params.push_back(p);
            }
        }
        out.push_back(std::move(k));
    }
    // Dynamic shared memory: the module's `.extern .shared` arrays, and the entries whose bodies
    // name one (an entry's body runs to the next .entry or .func).
    std::vector<std::string> externShared;
    for (size_t at = ptx.find(".extern .shared"); at != std::string::npos; at = ptx.find(".extern .shared", at + 1)) {
        size_t semi = ptx.find(';', at), bracket = ptx.find('[', at);
        if (semi == std::string::npos || bracket == std::string::npos || bracket > semi) continue;
        size_t end = bracket, begin = end;
        while (begin > at && (isIdent(ptx[begin - 1]) || ptx[begin - 1] == '$')) --begin;
        if (begin < end) externShared.push_back(ptx.substr(begin, end - begin));
    }
    for (KernelSignature& k : out) {
        size_t at = ptx.find(".entry " + k.name);
        if (at == std::string::npos) continue;
        size_t next = std::min(ptx.find(".entry", at + 6), ptx.find(".func", at + 6));
        std::string body = ptx.substr(at, next == std::string::npos ? std::string::npos : next - at);
        for (const std::string& v : externShared) k.dynamicShared = k.dynamicShared || body.find(v) != std::string::npos;
    }
    return out;
}

std::vector<KernelSignature> mergeSignatures(const std::vector<KernelSignature>& ptx, const std::vector<KernelSignature>& cuda) {
    std::vector<KernelSignature> out;
    for (const KernelSignature& e : ptx) {
        KernelSignature k = e;
        for (const KernelSignature& c : cuda) {
            bool same = c.name == e.name || e.name.rfind("_Z" + std::to_string(c.name.size()) + c.name, 0) == 0;
            if (!same || c.params.size() != e.params.size()) continue;
            k.line = c.line;
            k.twoD = c.twoD;
            for (size_t i = 0; i < k.params.size(); ++i) {
                KernelParam p = c.params[i];
                if (p.elemType.empty()) p.elemType = p.pointer ? "u8" : e.params[i].elemType;   // a struct: bytes / the PTX type
                k.params[i] = p;
            }
            break;
        }
        out.push_back(std::move(k));
    }
    return out;
}

// ---------------------------------------------------------------- 3. the launch spec
const char* bufferInitName(BufferInit i) {
    switch (i) {
    case BufferInit::Zeros: return "zeros";
    case BufferInit::Iota: return "iota";
    case BufferInit::Random: return "random";
    case BufferInit::Constant: return "constant";
    case BufferInit::File: return "file";
    }
    return "zeros";
}

namespace {
constexpr uint64_t kElements = 1024, kSide = 32;   // 1D: 1024 elements; 2D: a 32 x 32 matrix

std::string lower(std::string t) {
    for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return t;
}
bool oneOf(const std::string& name, std::initializer_list<const char*> names) {
    for (const char* n : names)
        if (name == n) return true;
    return false;
}

// An integer argument's first value, by its name (see defaultLaunchSpec).
double integerDefault(const std::string& rawName, bool twoD) {
    std::string n = lower(rawName);
    if (oneOf(n, {"radius", "r", "halo"})) return 3;
    if (oneOf(n, {"stride", "step"})) return 1;
    if (oneOf(n, {"offset", "shift", "start"})) return 0;
    if (oneOf(n, {"width", "height", "w", "h", "rows", "cols", "nrows", "ncols", "nx", "ny", "pitch", "side", "dim", "m", "k"})) return kSide;
    if (oneOf(n, {"n", "count", "size", "len", "length", "num", "numel", "elements", "total"})) return twoD ? kSide : kElements;
    return 1;
}

LaunchArg defaultArg(const KernelParam& p, bool twoD) {
    LaunchArg a;
    a.name = p.name;
    a.pointer = p.pointer;
    a.type = p.elemType.empty() ? (p.pointer ? "u8" : "s32") : p.elemType;
    a.count = kElements;   // 1D: n elements; 2D: 32 x 32
    // A const pointer is an input: give it values to work on.
    a.init = p.pointer && p.cppType.find("const") != std::string::npos ? BufferInit::Iota : BufferInit::Zeros;
    bool integer = a.type[0] == 's' || a.type[0] == 'u';
    a.value = integer ? integerDefault(p.name, twoD) : 1.0;
    return a;
}
} // namespace

LaunchSpec defaultLaunchSpec(const KernelSignature& kernel) {
    LaunchSpec s;
    s.kernel = kernel.name;
    for (auto& p : kernel.params) s.args.push_back(defaultArg(p, kernel.twoD));
    if (kernel.twoD) {
        const uint32_t grid[3] = {2, 2, 1}, block[3] = {16, 16, 1};
        std::copy(std::begin(grid), std::end(grid), s.grid);
        std::copy(std::begin(block), std::end(block), s.block);
    }
    if (kernel.dynamicShared) s.sharedBytes = 4 * s.block[0] * s.block[1] * s.block[2];
    return s;
}

LaunchSpec refreshLaunchSpec(const LaunchSpec& old, const KernelSignature& kernel) {
    LaunchSpec s = defaultLaunchSpec(kernel);
    if (old.kernel != kernel.name) return s;
    std::copy(std::begin(old.grid), std::end(old.grid), s.grid);
    std::copy(std::begin(old.block), std::end(old.block), s.block);
    s.sharedBytes = old.sharedBytes;
    for (LaunchArg& a : s.args)
        for (const LaunchArg& o : old.args)
            if (o.name == a.name && o.pointer == a.pointer) {
                std::string type = a.type;
                a = o;
                if (a.pointer) a.type = type;   // the element type follows the signature
            }
    return s;
}

std::string launchSpecJson(const LaunchSpec& spec, const std::string& title, const std::string& sourceFile, const std::string& ptxFile) {
    using nlohmann::json;
    if (spec.kernel.empty()) throw Error(Error::Kind::Input, "No kernel to launch: build a kernel with a __global__ function first.");
    for (int d = 0; d < 3; ++d)
        if (spec.grid[d] == 0 || spec.block[d] == 0) throw Error(Error::Kind::Input, "Grid and block dimensions must be at least 1.");
    json j;
    j["id"] = "editor";
    j["title"] = title;
    j["summary"] = "A kernel from the editor, launched with the Launch panel's settings.";
    if (!sourceFile.empty()) j["source"] = sourceFile;
    j["ptx"] = ptxFile;
    json buffers = json::object(), args = json::array(), checks = json::array();
    for (const LaunchArg& a : spec.args) {
        if (!a.pointer) {
            args.push_back(json{{"type", a.type}, {"value", a.value}});
            continue;
        }
        if (a.count == 0) throw Error(Error::Kind::Input, "Buffer '" + a.name + "' needs at least one element.");
        json b{{"type", a.type}, {"count", a.count}};
        switch (a.init) {
        case BufferInit::Zeros: b["init"] = "zeros"; break;
        case BufferInit::Iota: b["init"] = "iota"; break;
        case BufferInit::Random: b["init"] = json{{"random", {{"seed", 1}, {"min", a.randomMin}, {"max", a.randomMax}}}}; break;
        case BufferInit::Constant: b["init"] = json{{"constant", a.constant}}; break;
        case BufferInit::File:
            if (a.file.empty()) throw Error(Error::Kind::Input, "Buffer '" + a.name + "': choose the file its bytes come from.");
            b["init"] = json{{"file", a.file}};
            break;
        }
        buffers[a.name] = b;
        args.push_back(a.name);
        if (!trim(a.expect).empty()) {
            json values = json::array();
            std::istringstream in(a.expect);
            std::string item;
            while (std::getline(in, item, ',')) {
                item = trim(item);
                char* end = nullptr;
                double v = std::strtod(item.c_str(), &end);
                if (item.empty() || *end) throw Error(Error::Kind::Input, "Buffer '" + a.name + "': the expected values are numbers separated by commas, got '" + item + "'.");
                values.push_back(v);
            }
            checks.push_back(json{{"buffer", a.name}, {"expect", values}});
        }
    }
    j["buffers"] = buffers;
    json launch{{"launch", spec.kernel},
                {"grid", {spec.grid[0], spec.grid[1], spec.grid[2]}},
                {"block", {spec.block[0], spec.block[1], spec.block[2]}},
                {"args", args}};
    if (spec.sharedBytes) launch["shared"] = spec.sharedBytes;
    j["host"] = json::array({launch});
    if (!checks.empty()) j["checks"] = checks;
    return j.dump(2) + "\n";
}

} // namespace warpscope::gui
