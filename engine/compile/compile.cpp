// CUDA C++ -> PTX: the three compiler drivers, the child-process runner with a time limit, the
// diagnostic parser, the clang PTX post-processing and the content-hash cache.
//
// Sections: 1. names and records  2. child processes with a time limit  3. finding compilers
//           4. diagnostics  5. prelude line mapping  6. clang and nvcc  7. NVRTC
//           8. compile (automatic choice)  9. cache
#include "compile/compile.hpp"
#include "base/files.hpp"
#include "base/web.hpp"
#ifdef __EMSCRIPTEN__
#include "compile/compile_web.hpp"
#endif

#include <dlfcn.h>
#include <cerrno>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;

namespace warpscope::compile {

// ---------------------------------------------------------------- 1. names and records
const char* compilerName(Compiler c) {
    switch (c) {
    case Compiler::Auto: return "auto";
    case Compiler::Nvrtc: return "nvrtc";
    case Compiler::Nvcc: return "nvcc";
    case Compiler::Clang: return "clang";
    }
    return "?";
}

std::optional<Compiler> parseCompiler(std::string_view name) {
    for (Compiler c : {Compiler::Auto, Compiler::Nvrtc, Compiler::Nvcc, Compiler::Clang})
        if (name == compilerName(c)) return c;
    return std::nullopt;
}

std::string Diagnostic::text() const {
    std::string s = file.empty() ? std::string("<input>") : file;
    if (line > 0) s += ":" + std::to_string(line);
    if (line > 0 && column > 0) s += ":" + std::to_string(column);
    s += severity == Severity::Error ? ": error: " : severity == Severity::Warning ? ": warning: " : ": note: ";
    return s + message;
}

bool Result::hasErrors() const {
    if (!error.empty()) return true;
    for (auto& d : diagnostics)
        if (d.severity == Diagnostic::Severity::Error) return true;
    return !ok;
}

// ---------------------------------------------------------------- 2. child processes with a time limit

ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& cwd, double timeout) {
    ProcessResult r;
    if constexpr (base::kInBrowser) {
        r.startFailed = true;
        r.output = base::kNoProcessesInBrowser;
        return r;
    }
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const std::string dir = cwd;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) { r.startFailed = true; r.output = "cannot create a pipe"; return r; }
    pid_t pid = fork();
    if (pid < 0) { close(fds[0]); close(fds[1]); r.startFailed = true; r.output = "cannot fork"; return r; }
    if (pid == 0) {
        // Child: only async-signal-safe calls until exec.
        setpgid(0, 0);
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        if (chdir(dir.c_str()) != 0) _exit(126);
        execv(args[0], args.data());
        _exit(127);
    }
    setpgid(pid, pid);
    close(fds[1]);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout);
    char buf[4096];
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
        if (left <= 0) { r.timedOut = true; break; }
        pollfd p{fds[0], POLLIN, 0};
        int n = poll(&p, 1, static_cast<int>(std::min<long long>(left, 200)));
        if (n < 0 && errno != EINTR) break;
        if (n > 0) {
            ssize_t got = read(fds[0], buf, sizeof buf);
            if (got > 0) { r.output.append(buf, static_cast<size_t>(got)); continue; }
            if (got == 0 || errno != EINTR) break;   // end of output: the process is exiting
        }
    }
    if (r.timedOut) kill(-pid, SIGKILL);
    close(fds[0]);
    int status = 0;
    // After the output closed, the process exits promptly; still bound the wait by the deadline.
    for (;;) {
        pid_t w = waitpid(pid, &status, r.timedOut ? 0 : WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) break;
        if (std::chrono::steady_clock::now() > deadline) { r.timedOut = true; kill(-pid, SIGKILL); waitpid(pid, &status, 0); break; }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (WIFEXITED(status)) r.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    if (r.exitCode == 127 && !r.timedOut) r.startFailed = true;
    return r;
}

namespace {

void writeText(const fs::path& p, std::string_view text) {
    std::ofstream f(p, std::ios::binary);
    f.write(text.data(), static_cast<std::streamsize>(text.size()));
}

std::string readText(const fs::path& p) { return base::readFile(p).value_or(""); }

// ---------------------------------------------------------------- 3. finding compilers
bool isExecutable(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0;
}

// CUDA_PATH / CUDA_HOME, then /usr/local/cuda.
std::vector<fs::path> cudaRoots() {
    std::vector<fs::path> roots;
    for (const char* var : {"CUDA_PATH", "CUDA_HOME"})
        if (const char* v = std::getenv(var); v && *v) roots.emplace_back(v);
    roots.emplace_back("/usr/local/cuda");
    return roots;
}

fs::path findOnPath(const std::string& name) {
    const char* path = std::getenv("PATH");
    if (!path) return {};
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':'))
        if (!dir.empty() && isExecutable(fs::path(dir) / name)) return fs::path(dir) / name;
    return {};
}

fs::path findNvcc() {
    for (auto& root : cudaRoots())
        if (isExecutable(root / "bin" / "nvcc")) return root / "bin" / "nvcc";
    return findOnPath("nvcc");
}

// $WARPSCOPE_CLANG, else the newest versioned clang on PATH, else plain clang.
fs::path findClang() {
    if (const char* v = std::getenv("WARPSCOPE_CLANG"); v && *v) return isExecutable(v) ? fs::path(v) : fs::path();
    for (int ver = 19; ver >= 14; --ver)
        if (auto p = findOnPath("clang-" + std::to_string(ver)); !p.empty()) return p;
    return findOnPath("clang");
}

// ---------------------------------------------------------------- 4. diagnostics
Diagnostic::Severity severityOf(const std::string& s) {
    if (s == "warning" || s == "remark") return Diagnostic::Severity::Warning;
    if (s == "note") return Diagnostic::Severity::Note;
    return Diagnostic::Severity::Error;
}

std::string safeBaseName(const std::string& fileName);

// The compilers name the file as they saw it (in the temporary folder): give back the caller's name.
std::string displayFile(const std::string& seen, const std::string& fileName) {
    const std::string base = fs::path(seen).filename().string();
    if (base == safeBaseName(fileName)) return fileName;
    return base;
}

} // namespace

std::vector<Diagnostic> parseDiagnostics(const std::string& output) {
    static const std::regex clangStyle(R"(^(.+?):(\d+):(\d+): (fatal error|error|warning|note|remark): (.*)$)");
    static const std::regex edgStyle(R"(^(.+?)\((\d+)\): (catastrophic error|error|warning|remark|note)(?: #[0-9A-Za-z-]+)?: (.*)$)");
    static const std::regex bare(R"(^(?:clang(?:-\d+)?|nvcc|nvrtc): (fatal error|error|warning): (.*)$)");
    std::vector<Diagnostic> out;
    std::stringstream ss(output);
    std::string line;
    std::smatch m;
    while (std::getline(ss, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        Diagnostic d;
        if (std::regex_match(line, m, clangStyle)) {
            d.file = m[1];
            d.line = std::stoi(m[2]);
            d.column = std::stoi(m[3]);
            d.severity = severityOf(m[4]);
            d.message = m[5];
        } else if (std::regex_match(line, m, edgStyle)) {
            d.file = m[1];
            d.line = std::stoi(m[2]);
            d.severity = severityOf(m[3]);
            d.message = m[4];
        } else if (std::regex_match(line, m, bare)) {
            d.severity = severityOf(m[1]);
            d.message = m[2];
        } else {
            continue;
        }
        out.push_back(std::move(d));
    }
    return out;
}

// ---------------------------------------------------------------- 5. prelude line mapping
namespace {
// For each line of the prelude (0-based), the prelude function it belongs to ("" outside one):
// a `__WS_FN ret name(` definition (to its closing brace) or a one-line `__WS_AT(name, ...)` /
// `__WS_SHFL(name, ...)` macro use. The index variables' `__ws_threadIdx` is called `threadIdx`.
const std::vector<std::string>& preludeFunctionAtLine() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        static const std::regex fnRe(R"(^__WS_FN\s+[^(]*?\b(\w+)\s*\()");
        static const std::regex macroRe(R"(^__WS_(?:AT|SHFL)\((\w+),)");
        std::stringstream ss{std::string(preludeText())};
        std::string line, current;
        int depth = 0;
        std::smatch m;
        while (std::getline(ss, line)) {
            if (depth == 0) current.clear();
            if (depth == 0 && std::regex_search(line, m, fnRe)) current = m[1];
            std::string here = current;
            if (depth == 0 && std::regex_search(line, m, macroRe)) here = m[1];
            if (here.rfind("__ws_", 0) == 0 && here.find("Idx") != std::string::npos) here = here.substr(5);
            if (here.rfind("__ws_", 0) == 0 && here.find("Dim") != std::string::npos) here = here.substr(5);
            for (char c : line) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            if (depth < 0) depth = 0;
            out.push_back(here);
        }
        return out;
    }();
    return names;
}

// The same for warpscope's tensor header (warpscope_tensor.h): the function a line belongs to,
// `__WS_FN` or `__device__ inline` definitions (those inside a macro too: clang's .loc points into
// the macro's body).
const std::vector<std::string>& tensorFunctionAtLine() {
    static const std::vector<std::string> names = [] {
        static const std::regex fnRe(R"(^\s*(?:__WS_FN|__device__\s+inline)\s+[^(]*?\b(\w+)\s*\()");
        static const std::regex defineRe(R"(^#define\s+(\w+)\()");
        static const std::regex useRe(R"(^\s*(\w+)\()");
        std::vector<std::string> lines;
        {
            std::stringstream ss{std::string(tensorHeaderText())};
            for (std::string l; std::getline(ss, l);) lines.push_back(l);
        }
        // Macros that define a function (`__WS_LOAD_AB(...)` defines load_matrix_sync overloads):
        // clang's .loc points at the line that uses the macro.
        std::map<std::string, std::string> macroFn;
        std::smatch m;
        std::string define;
        for (auto& l : lines) {
            if (std::regex_search(l, m, defineRe)) define = m[1];
            if (!define.empty() && std::regex_search(l, m, fnRe)) macroFn.emplace(define, m[1]);
            if (l.empty() || l.back() != '\\') define.clear();
        }
        // Functions defined in place, inside namespaces: from the definition to its closing brace.
        std::vector<std::string> out;
        std::string current;
        int depth = 0, fnDepth = -1;
        bool inDefine = false;
        for (auto& l : lines) {
            std::string here = current;
            if (std::regex_search(l, m, defineRe)) inDefine = true;
            if (!inDefine) {
                if (current.empty() && std::regex_search(l, m, fnRe)) {
                    current = here = m[1];
                    fnDepth = depth;
                } else if (current.empty() && std::regex_search(l, m, useRe) && macroFn.count(m[1])) {
                    here = macroFn[m[1]];
                }
                for (char c : l) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
                if (!current.empty() && depth <= fnDepth && l.find('}') != std::string::npos) current.clear();
            }
            if (l.empty() || l.back() != '\\') inDefine = false;
            out.push_back(here);
        }
        return out;
    }();
    return names;
}

// The 1-based column of identifier `name` in `line` (as a whole word), or 0.
int findIdentifier(const std::string& line, const std::string& name) {
    for (size_t at = line.find(name); at != std::string::npos; at = line.find(name, at + 1)) {
        auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
        bool left = at == 0 || !word(line[at - 1]);
        bool right = at + name.size() >= line.size() || !word(line[at + name.size()]);
        if (left && right) return static_cast<int>(at) + 1;
    }
    return 0;
}
} // namespace

std::string mapPreludeLines(const std::string& ptx, const std::string& studentSource) {
    std::vector<std::string> source;
    {
        std::stringstream ss(studentSource);
        std::string l;
        while (std::getline(ss, l)) source.push_back(l);
    }
    std::vector<std::string> lines;
    {
        std::stringstream ss(ptx);
        std::string l;
        while (std::getline(ss, l)) lines.push_back(l);
    }
    static const std::regex fileRe(R"(^(\s*\.file\s+)(\d+)(\s+")([^"]*)(".*)$)");
    static const std::regex locRe(R"(^(\s*\.loc\s+)(\d+)\s+(\d+)\s+(\d+)(.*)$)");
    // Pass 1: the file table (clang puts it after the functions); paths become bare file names.
    std::map<int, bool> isPrelude;
    std::set<int> isTensorHeader;
    std::smatch m;
    for (auto& l : lines) {
        if (!std::regex_match(l, m, fileRe)) continue;
        std::string base = fs::path(m[4].str()).filename().string();
        // warpscope's own headers are prelude too: the tensor header and the names that include it.
        static const std::set<std::string> ours = {kPreludeName, "warpscope_tensor.h", "cuda_fp16.h", "cuda_bf16.h", "mma.h",
                                                   "cuda_fp16.hpp", "cuda_bf16.hpp"};
        // So are the stand-in headers compiled from include/ (<cooperative_groups.h> and its
        // <cooperative_groups/reduce.h>): their inlined code belongs to the student's line.
        const std::string raw = m[4].str();
        isPrelude[std::stoi(m[2])] = ours.count(base) > 0 || raw.rfind("include/", 0) == 0 || raw.find("/include/cooperative_groups") != std::string::npos;
        if (base == "warpscope_tensor.h") isTensorHeader.insert(std::stoi(m[2]));
        l = m[1].str() + m[2].str() + m[3].str() + base + m[5].str();
    }
    // Pass 2: per function, a .loc into the prelude without inlined_at takes the student's line.
    struct Loc { int file = 0, line = 0, col = 0; };
    auto isStudent = [&](int f) { auto it = isPrelude.find(f); return it != isPrelude.end() && !it->second; };
    size_t i = 0;
    while (i < lines.size()) {
        // A function body: from a line that opens with '{' at column 0 to the '}' at column 0.
        if (lines[i].rfind("{", 0) != 0) { ++i; continue; }
        size_t end = i + 1;
        while (end < lines.size() && lines[end].rfind("}", 0) != 0) ++end;
        std::vector<std::pair<size_t, Loc>> locs;   // every .loc in the body
        for (size_t k = i + 1; k < end; ++k)
            if (std::regex_match(lines[k], m, locRe) && m[5].str().find("inlined_at") == std::string::npos)
                locs.push_back({k, Loc{std::stoi(m[2]), std::stoi(m[3]), std::stoi(m[4])}});
        // The function's own first line (its prologue .loc) is not where an index variable is used:
        // a prelude line right after it takes the next student line instead.
        std::optional<Loc> entry;
        for (auto& [k, loc] : locs)
            if (isStudent(loc.file) && loc.line > 0) { entry = loc; break; }
        std::optional<Loc> prev;
        for (size_t n = 0; n < locs.size(); ++n) {
            auto& [k, loc] = locs[n];
            if (isStudent(loc.file)) {
                if (loc.line > 0) prev = loc;
                continue;
            }
            if (!isPrelude.count(loc.file) || !isPrelude[loc.file]) continue;
            std::optional<Loc> use = prev;
            if (!use || (entry && use->line == entry->line && use->col == entry->col)) {
                for (size_t q = n + 1; q < locs.size(); ++q)
                    if (isStudent(locs[q].second.file) && locs[q].second.line > 0) { use = locs[q].second; break; }
                if (!use) use = prev;
            }
            // Without inlined_at, clang's PTX does not say which student line called the prelude
            // function; when the student's source is known, the line between the neighbouring student
            // lines that names that function is the call.
            const int preludeLine = loc.line;
            const bool tensor = isTensorHeader.count(loc.file) > 0;
            const auto& fnAt = tensor ? tensorFunctionAtLine() : preludeFunctionAtLine();
            const std::string fn = preludeLine >= 1 && preludeLine <= static_cast<int>(fnAt.size()) ? fnAt[preludeLine - 1] : "";
            if (!fn.empty() && !source.empty()) {
                int lo = prev ? prev->line : 1, hi = static_cast<int>(source.size());
                for (size_t q = n + 1; q < locs.size(); ++q)
                    if (isStudent(locs[q].second.file) && locs[q].second.line > 0) { hi = locs[q].second.line; break; }
                if (hi < lo) std::swap(lo, hi);
                // A wmma call's address arithmetic comes first, and an unrolled loop's next student
                // line may be the loop's own: look forward from the previous student line.
                if (tensor) lo = prev ? prev->line : 1, hi = static_cast<int>(source.size());
                for (int ln = lo; ln <= hi && ln <= static_cast<int>(source.size()); ++ln)
                    if (int col = findIdentifier(source[ln - 1], fn)) {
                        int file = use ? use->file : (prev ? prev->file : 0);
                        if (file == 0)
                            for (auto& [f, pre] : isPrelude)
                                if (!pre) { file = f; break; }
                        use = Loc{file, ln, col};
                        break;
                    }
            }
            Loc to = use ? *use : Loc{0, 0, 0};
            if (!use) {
                for (auto& [f, pre] : isPrelude)
                    if (!pre) { to.file = f; break; }
            }
            std::regex_match(lines[k], m, locRe);
            lines[k] = m[1].str() + std::to_string(to.file) + " " + std::to_string(to.line) + " " + std::to_string(to.col) +
                       "   // " + (tensor ? "warpscope_tensor.h" : kPreludeName) + ":" + m[3].str();
        }
        i = end;
    }
    std::string out;
    out.reserve(ptx.size() + 1024);
    for (auto& l : lines) out += l + "\n";
    return out;
}

namespace {

// ---------------------------------------------------------------- 6. clang and nvcc
std::string safeBaseName(const std::string& fileName) {
    std::string base = fs::path(fileName).filename().string();
    if (base.empty() || base == "." || base == "..") base = "kernel.cu";
    for (char& c : base)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-')) c = '_';
    if (base == kPreludeName) base = "student_" + base;
    if (fs::path(base).extension() != ".cu") base += ".cu";   // nvcc compiles device code only from .cu
    return base;
}

int archNumber(const std::string& arch) {
    auto us = arch.find('_');
    if (us == std::string::npos) return 0;
    try { return std::stoi(arch.substr(us + 1)); } catch (...) { return 0; }
}

void finishFromProcess(Result& r, const ProcessResult& p, const std::string& fileName, const std::string& what, double timeout) {
    r.log = p.output;
    r.diagnostics = parseDiagnostics(p.output);
    for (auto& d : r.diagnostics)
        if (!d.file.empty()) d.file = displayFile(d.file, fileName);
    if (p.timedOut) {
        r.timedOut = true;
        std::ostringstream s;
        s << what << " did not finish within " << timeout << " s and was stopped (a very large or endlessly recursive template?)";
        r.error = s.str();
    } else if (p.startFailed) {
        r.error = "cannot start " + what + ": " + (p.output.empty() ? std::string("exec failed") : p.output);
    } else if (p.signal != 0) {
        r.error = what + " crashed (signal " + std::to_string(p.signal) + ")";
    } else if (p.exitCode != 0 && r.diagnostics.empty()) {
        r.error = what + " failed (exit code " + std::to_string(p.exitCode) + ")" + (p.output.empty() ? "" : ": " + p.output);
    }
}

// The headers a course kernel habitually includes. The clang path compiles with -nostdinc (host
// headers declare host functions that clash with the prelude's device ones), so these stand in:
// empty, since the prelude already gives their device content, except the fixed-width integers.
void writeStandInHeaders(const fs::path& dir) {
    const char* empty = "// warpscope: the device functions of this header come from warpscope_cuda.h\n#pragma once\n";
    for (const char* h : {"cuda_runtime.h", "cuda_runtime_api.h", "cuda.h", "device_launch_parameters.h", "device_functions.h",
                          "cuda_device_runtime_api.h", "math.h", "cmath", "math_constants.h", "stdio.h", "cstdio", "assert.h",
                          "cassert", "stdlib.h", "cstdlib", "cfloat", "float.h", "climits", "limits.h"})
        writeText(dir / h, empty);
    const char* ints =
        "// warpscope: fixed-width integers for device code\n#pragma once\n"
        "typedef __INT8_TYPE__ int8_t; typedef __INT16_TYPE__ int16_t; typedef __INT32_TYPE__ int32_t; typedef __INT64_TYPE__ int64_t;\n"
        "typedef __UINT8_TYPE__ uint8_t; typedef __UINT16_TYPE__ uint16_t; typedef __UINT32_TYPE__ uint32_t; typedef __UINT64_TYPE__ uint64_t;\n"
        "typedef __INTPTR_TYPE__ intptr_t; typedef __UINTPTR_TYPE__ uintptr_t;\n"
        "namespace std { using ::int8_t; using ::int16_t; using ::int32_t; using ::int64_t; using ::uint8_t; using ::uint16_t;\n"
        "                using ::uint32_t; using ::uint64_t; using ::intptr_t; using ::uintptr_t; using ::size_t; }\n";
    // Placement new (`new (at) T(...)`, objects built in memory the kernel already has).
    writeText(dir / "new",
              "// warpscope: placement new for device code\n#pragma once\n"
              "inline __device__ void* operator new(__SIZE_TYPE__, void* p) noexcept { return p; }\n"
              "inline __device__ void* operator new[](__SIZE_TYPE__, void* p) noexcept { return p; }\n"
              "inline __device__ void operator delete(void*, void*) noexcept {}\n"
              "inline __device__ void operator delete[](void*, void*) noexcept {}\n");
    writeText(dir / "stdint.h", ints);
    writeText(dir / "cstdint", ints);
    // Half precision, bfloat16 and tensor cores: warpscope's own header behind the usual names.
    writeText(dir / "warpscope_tensor.h", tensorHeaderText());
    for (const char* h : {"cuda_fp16.h", "cuda_bf16.h", "mma.h", "cuda_fp16.hpp", "cuda_bf16.hpp"})
        writeText(dir / h, "// warpscope: half, bfloat16 and nvcuda::wmma for the clang path\n#pragma once\n#include \"warpscope_tensor.h\"\n");
    // Cooperative groups (warpscope's, over the prelude's warp functions); the __pipeline_*
    // primitives are in the prelude. libcu++'s cuda::pipeline and cuda::barrier are not.
    for (auto& [name, text] : groupHeaders()) {
        std::error_code ec;
        fs::create_directories((dir / name).parent_path(), ec);
        writeText(dir / name, std::string(text));
    }
    writeText(dir / "cuda_pipeline.h", "// warpscope: the __pipeline_* primitives come from warpscope_cuda.h\n#pragma once\n");
    fs::create_directories(dir / "cuda");
    for (const char* h : {"cuda/pipeline", "cuda/barrier", "cuda/annotated_ptr"})
        writeText(dir / h, std::string("#pragma once\n#error \"<") + h + "> is libcu++ (cuda::pipeline, cuda::barrier, cuda::memcpy_async), which warpscope's "
                            "clang path does not have: compile with --compiler nvcc or nvrtc where a CUDA toolkit is installed, or use the "
                            "__pipeline_memcpy_async / __pipeline_commit / __pipeline_wait_prior primitives of <cuda_pipeline.h>\"\n");
}

// A run of `compiler` that could not start, and why.
Result notRun(Compiler compiler, std::string why) {
    Result r;
    r.used = compiler;
    r.error = std::move(why);
    return r;
}
constexpr const char* kNoTempDir = "cannot create a temporary folder to compile in";

// Where a compiler runs: a private temporary folder (empty path when it could not be made) with
// the source written in it under its safe base name, `file`.
struct Workspace {
    base::TempDir dir{"warpscope-compile"};
    std::string file;
    Workspace(const std::string& source, const std::string& fileName) : file(safeBaseName(fileName)) {
        if (!dir.path.empty()) writeText(dir.path / file, source);
    }
};

Result runClang(const std::string& source, const std::string& fileName, const Options& o) {
    const fs::path clang = findClang();
    if (clang.empty()) return notRun(Compiler::Clang, "clang is not installed (Debian: apt-get install clang; or set WARPSCOPE_CLANG to a clang binary)");
    const int sm = archNumber(o.arch);
    if (sm < 70 || sm > 86) return notRun(Compiler::Clang, "the clang path compiles for sm_70 to sm_86 (got '" + o.arch + "'); the lessons use compute_75");
    // The PTX ISA version the sync-warp intrinsics (shfl.sync, vote.sync, match) and the target need.
    const char* feature = sm >= 86 ? "+ptx71" : "+ptx70";
    const Workspace ws(source, fileName);
    if (ws.dir.path.empty()) return notRun(Compiler::Clang, kNoTempDir);
    Result r;
    r.used = Compiler::Clang;
    writeText(ws.dir.path / kPreludeName, preludeText());
    std::vector<std::string> argv = {clang.string(), "-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
                                     "--cuda-path=/nonexistent-warpscope", "--cuda-gpu-arch=sm_" + std::to_string(sm),
                                     "-Xclang", "-target-feature", "-Xclang", feature,
                                     "-S", "-gline-tables-only", "-O3", "-fno-builtin", "-Wno-unknown-cuda-version",
                                     "-fno-color-diagnostics", "-fno-caret-diagnostics"};
    if (o.wholeProgram) {
        // A whole program: its host code includes the system's C++ headers, so they stay on the
        // include path; the launch syntax needs CUDA >= 9.2's __cudaPushCallConfiguration.
        argv.insert(argv.end(), {"-Xclang", "-target-sdk-version=11.5"});
    } else {
        fs::create_directory(ws.dir.path / "include");
        writeStandInHeaders(ws.dir.path / "include");
        argv.insert(argv.end(), {"-nostdinc", "-Iinclude", "-include", kPreludeName});
    }
    argv.insert(argv.end(), o.extraArgs.begin(), o.extraArgs.end());
    argv.insert(argv.end(), {ws.file, "-o", "out.ptx"});
    for (auto& a : argv) r.command += (r.command.empty() ? "" : " ") + a;
    ProcessResult p = runProcess(argv, ws.dir.path.string(), o.timeoutSeconds);
    finishFromProcess(r, p, fileName, "clang", o.timeoutSeconds);
    // clang stops a kernel launch inside a kernel before the prelude's declarations can speak.
    for (auto& d : r.diagnostics)
        if (d.message.find("reference to __global__ function") != std::string::npos && d.message.find("in __global__ function") != std::string::npos)
            d.message += " (launching a kernel from a kernel, dynamic parallelism, is not supported by the simulator: launch it from the host script in lesson.json)";
    if (p.exitCode == 0 && !p.timedOut && fs::exists(ws.dir.path / "out.ptx")) {
        r.ptx = mapPreludeLines(readText(ws.dir.path / "out.ptx"), source);
        // An external function left in the PTX would be a link error later: name it now. (Not
        // __warpscope_grid_sync, the grid barrier of warpscope's <cooperative_groups.h>, which the
        // simulator's compile step turns into one instruction.)
        static const std::regex externRe(R"(\.extern\s+\.func\s+(?:\([^)]*\)\s*)?([A-Za-z_$][A-Za-z0-9_$]*))");
        std::string missing;
        for (auto it = std::sregex_iterator(r.ptx.begin(), r.ptx.end(), externRe); it != std::sregex_iterator() && missing.empty(); ++it)
            if ((*it)[1].str() != "__warpscope_grid_sync") missing = (*it)[1].str();
        if (!missing.empty()) {
            r.error = "the kernel calls '" + missing + "', which warpscope's clang prelude does not provide (see docs/compile.md); compile with --compiler nvcc or nvrtc where a CUDA toolkit is installed";
            r.ptx.clear();
        } else {
            r.ok = true;
        }
    }
    return r;
}

Result runNvcc(const std::string& source, const std::string& fileName, const Options& o) {
    const fs::path nvcc = findNvcc();
    if (nvcc.empty()) return notRun(Compiler::Nvcc, "nvcc is not installed (no CUDA toolkit in CUDA_PATH, /usr/local/cuda or on PATH)");
    const Workspace ws(source, fileName);
    if (ws.dir.path.empty()) return notRun(Compiler::Nvcc, kNoTempDir);
    Result r;
    r.used = Compiler::Nvcc;
    std::string arch = o.arch;
    if (arch.rfind("sm_", 0) == 0) arch = "compute_" + arch.substr(3);
    std::vector<std::string> argv = {nvcc.string(), "-ptx", "-lineinfo", "-arch=" + arch, ws.file, "-o", "out.ptx"};
    for (auto& a : argv) r.command += (r.command.empty() ? "" : " ") + a;
    ProcessResult p = runProcess(argv, ws.dir.path.string(), o.timeoutSeconds);
    finishFromProcess(r, p, fileName, "nvcc", o.timeoutSeconds);
    if (p.exitCode == 0 && !p.timedOut && fs::exists(ws.dir.path / "out.ptx")) {
        r.ptx = mapPreludeLines(readText(ws.dir.path / "out.ptx"));   // only the .file names change
        r.ok = true;
    }
    return r;
}

// ---------------------------------------------------------------- 7. NVRTC
// The few NVRTC entry points, looked up with dlsym (no link-time dependency, no headers).
struct NvrtcApi {
    using Prog = void*;
    int (*create)(Prog*, const char*, const char*, int, const char* const*, const char* const*) = nullptr;
    int (*compileProgram)(Prog, int, const char* const*) = nullptr;
    int (*logSize)(Prog, size_t*) = nullptr;
    int (*getLog)(Prog, char*) = nullptr;
    int (*ptxSize)(Prog, size_t*) = nullptr;
    int (*getPtx)(Prog, char*) = nullptr;
    int (*destroy)(Prog*) = nullptr;
    const char* (*errorString)(int) = nullptr;
    std::string path;
    std::string includeDir;   // the toolkit's include folder, when there is one
    bool ok() const { return create && compileProgram && logSize && getLog && ptxSize && getPtx && destroy && errorString; }
};

const NvrtcApi& nvrtc() {
    static NvrtcApi api = [] {
        NvrtcApi a;
        std::vector<std::string> candidates;
        if (const char* v = std::getenv("WARPSCOPE_NVRTC"); v && *v) candidates.push_back(v);
        for (auto& root : cudaRoots())
            for (const char* lib : {"lib64/libnvrtc.so", "lib/libnvrtc.so", "lib64/libnvrtc.so.13", "lib64/libnvrtc.so.12"})
                candidates.push_back((root / lib).string());
        for (const char* lib : {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"}) candidates.push_back(lib);
        for (auto& c : candidates) {
            if (c.find('/') != std::string::npos && !fs::exists(c)) continue;
            void* h = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (!h) continue;
            auto sym = [&](auto& fn, const char* name) { fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(h, name)); };
            sym(a.create, "nvrtcCreateProgram");
            sym(a.compileProgram, "nvrtcCompileProgram");
            sym(a.logSize, "nvrtcGetProgramLogSize");
            sym(a.getLog, "nvrtcGetProgramLog");
            sym(a.ptxSize, "nvrtcGetPTXSize");
            sym(a.getPtx, "nvrtcGetPTX");
            sym(a.destroy, "nvrtcDestroyProgram");
            sym(a.errorString, "nvrtcGetErrorString");
            if (a.ok()) {
                a.path = c;
                // <root>/lib64/libnvrtc.so -> <root>/include (else the first CUDA root that has one)
                std::vector<fs::path> incs;
                if (c.find('/') != std::string::npos) incs.push_back(fs::path(c).parent_path().parent_path() / "include");
                for (auto& root : cudaRoots()) incs.push_back(root / "include");
                for (auto& inc : incs)
                    if (fs::exists(inc / "mma.h")) {
                        a.includeDir = inc.string();
                        break;
                    }
                break;
            }
            a = NvrtcApi{};
            dlclose(h);
        }
        return a;
    }();
    return api;
}

Result runNvrtc(const std::string& source, const std::string& fileName, const Options& o) {
    const NvrtcApi& api = nvrtc();
    if (!api.ok()) return notRun(Compiler::Nvrtc, "NVRTC is not installed (no libnvrtc.so in CUDA_PATH, /usr/local/cuda or the library path)");
    Result r;
    r.used = Compiler::Nvrtc;
    std::string arch = o.arch;
    if (arch.rfind("sm_", 0) == 0) arch = "compute_" + arch.substr(3);
    const std::string base = safeBaseName(fileName);
    r.command = api.path + ": nvrtcCompileProgram(" + base + ", --gpu-architecture=" + arch + " -lineinfo)";
    // NVRTC runs in this process, so it cannot be killed: it runs on its own thread, and after the
    // time limit the caller gets a message while the thread finishes (and is discarded) alone.
    struct Out { std::string ptx, log; std::string failure; };
    auto task = std::make_shared<std::packaged_task<Out()>>([&api, source, base, arch] {
        Out out;
        NvrtcApi::Prog prog = nullptr;
        int rc = api.create(&prog, source.c_str(), base.c_str(), 0, nullptr, nullptr);
        if (rc != 0) { out.failure = std::string("nvrtcCreateProgram: ") + api.errorString(rc); return out; }
        const std::string archOpt = "--gpu-architecture=" + arch;
        // The toolkit's headers (<mma.h>, <cuda_fp16.h>): NVRTC has no include path of its own.
        // CUDA 13 keeps libcu++ (<cuda/std/...>, which <cooperative_groups.h> includes) in include/cccl.
        const std::string incOpt = "--include-path=" + api.includeDir;
        const std::string cccl = api.includeDir.empty() ? std::string() : api.includeDir + "/cccl";
        const std::string cccOpt = "--include-path=" + cccl;
        const char* opts[] = {archOpt.c_str(), "-lineinfo", incOpt.c_str(), cccOpt.c_str()};
        const int nopts = api.includeDir.empty() ? 2 : fs::is_directory(cccl + "/cuda/std") ? 4 : 3;
        rc = api.compileProgram(prog, nopts, opts);
        size_t n = 0;
        if (api.logSize(prog, &n) == 0 && n > 1) {
            out.log.resize(n);
            api.getLog(prog, out.log.data());
            out.log.resize(n - 1);
        }
        if (rc == 0 && api.ptxSize(prog, &n) == 0 && n > 1) {
            out.ptx.resize(n);
            api.getPtx(prog, out.ptx.data());
            out.ptx.resize(n - 1);
        } else if (rc != 0 && out.log.empty()) {
            out.failure = std::string("nvrtcCompileProgram: ") + api.errorString(rc);
        }
        api.destroy(&prog);
        return out;
    });
    auto fut = task->get_future();
    std::thread([task] { (*task)(); }).detach();
    if (fut.wait_for(std::chrono::duration<double>(o.timeoutSeconds)) != std::future_status::ready) {
        r.timedOut = true;
        std::ostringstream s;
        s << "NVRTC did not finish within " << o.timeoutSeconds << " s; its result will be discarded";
        r.error = s.str();
        return r;
    }
    Out out = fut.get();
    r.log = out.log;
    r.diagnostics = parseDiagnostics(out.log);
    for (auto& d : r.diagnostics)
        if (!d.file.empty()) d.file = displayFile(d.file, fileName);
    if (!out.failure.empty() && r.diagnostics.empty()) r.error = out.failure;
    if (!out.ptx.empty()) {
        r.ptx = mapPreludeLines(out.ptx);
        r.ok = true;
    }
    return r;
}

} // namespace

// ---------------------------------------------------------------- 8. compile (automatic choice)
std::vector<CompilerInfo> available() {
#ifdef __EMSCRIPTEN__
    return webCompilers();   // the page's server (compile_web.cpp)
#endif
    std::vector<CompilerInfo> out;
    if (nvrtc().ok()) out.push_back({Compiler::Nvrtc, nvrtc().path});
    if (auto p = findNvcc(); !p.empty()) out.push_back({Compiler::Nvcc, p.string()});
    if (auto p = findClang(); !p.empty()) out.push_back({Compiler::Clang, p.string()});
    return out;
}

namespace {
Compiler resolve(Compiler c) {
    if (c != Compiler::Auto) return c;
    auto list = available();
    return list.empty() ? Compiler::Auto : list.front().compiler;
}
} // namespace

std::string findClangPath() { return findClang().string(); }

// A source that needs a newer target than the default names it on a line of its own, as
// scripts/gen-ptx.cmake reads it for the committed PTX ("// warpscope-ptx-arch: sm_80": cp.async,
// whose <cuda_pipeline.h> form is an ordinary load and store below sm_80).
static std::optional<std::string> sourceArch(const std::string& source) {
    static const std::string tag = "// warpscope-ptx-arch: ";
    size_t at = 0;
    while ((at = source.find(tag, at)) != std::string::npos) {
        const bool lineStart = at == 0 || source[at - 1] == '\n';
        size_t end = source.find('\n', at);
        std::string arch = source.substr(at + tag.size(), end == std::string::npos ? std::string::npos : end - at - tag.size());
        if (!arch.empty() && arch.back() == '\r') arch.pop_back();
        const bool word = !arch.empty() && std::all_of(arch.begin(), arch.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_'; });
        if (lineStart && word) return arch;
        at += tag.size();
    }
    return std::nullopt;
}

Result compile(const std::string& source, const std::string& fileName, const Options& callerOptions) {
    Options options = callerOptions;
    if (options.arch == Options{}.arch)
        if (auto arch = sourceArch(source)) options.arch = *arch;
#ifdef __EMSCRIPTEN__
    // In the browser the server compiles (POST api/compile; compile_web.cpp).
    if (!options.wholeProgram) return webCompile(source, fileName, options);
#endif
    if (options.wholeProgram && options.compiler != Compiler::Auto && options.compiler != Compiler::Clang) {
        Result r;
        r.error = "a whole program's kernels are compiled by clang (the other compilers need CUDA's own headers)";
        return r;
    }
    if (options.wholeProgram) return runClang(source, fileName, options);
    switch (resolve(options.compiler)) {
    case Compiler::Nvrtc: return runNvrtc(source, fileName, options);
    case Compiler::Nvcc: return runNvcc(source, fileName, options);
    case Compiler::Clang: return runClang(source, fileName, options);
    case Compiler::Auto: break;
    }
    Result r;
    r.error = "no CUDA compiler found: install clang (Debian: apt-get install clang) or a CUDA toolkit (NVRTC or nvcc)";
    return r;
}

// ---------------------------------------------------------------- 9. cache
std::string cacheDir() {
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return (fs::path(x) / "warpscope").string();
    if (const char* h = std::getenv("HOME"); h && *h) return (fs::path(h) / ".cache" / "warpscope").string();
    return (fs::temp_directory_path() / "warpscope-cache").string();
}

namespace {
// Two independent 64-bit FNV-1a hashes: a 128-bit content key.
std::string contentKey(const std::vector<std::string_view>& parts) {
    uint64_t a = 0xcbf29ce484222325ULL, b = 0x84222325cbf29ce4ULL;
    for (auto part : parts) {
        for (unsigned char c : part) {
            a = (a ^ c) * 0x100000001b3ULL;
            b = (b ^ static_cast<unsigned char>(c + 0x5b)) * 0x100000001b3ULL;
        }
        a = (a ^ 0xff) * 0x100000001b3ULL;   // part separator
        b = (b ^ 0x1f) * 0x100000001b3ULL;
    }
    char buf[40];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(a), static_cast<unsigned long long>(b));
    return buf;
}
} // namespace

Result compileCached(const std::string& source, const std::string& fileName, const Options& options) {
    const Compiler c = resolve(options.compiler);
    std::string whole;   // a whole program's device pass: its command-line additions are part of the key
    if (options.wholeProgram) {
        whole = "whole-program";
        for (auto& a : options.extraArgs) whole += "\n" + a;
    }
    const std::string baseName = fs::path(fileName).filename().string();
    std::vector<std::string_view> parts = {source, baseName, compilerName(c), options.arch,
                                           c == Compiler::Clang ? preludeText() : std::string_view(), "warpscope-ptx-cache-1"};
    if (!whole.empty()) parts.push_back(whole);
    const std::string key = contentKey(parts);
    const fs::path dir = fs::path(cacheDir()) / "ptx";
    const fs::path file = dir / (key + ".ptx");
    std::error_code ec;
    if (fs::is_regular_file(file, ec)) {
        Result r;
        r.ptx = readText(file);
        if (!r.ptx.empty()) {
            r.ok = true;
            r.cached = true;
            r.used = c;
            r.command = "(cached " + file.string() + ")";
            r.cacheFile = file.string();
            return r;
        }
    }
    Options o = options;
    o.compiler = c == Compiler::Auto ? options.compiler : c;
    Result r = compile(source, fileName, o);
    if (r.ok) {
        // Temp file + rename: a reader never sees half a file, two writers never mix.
        fs::create_directories(dir, ec);
        const fs::path tmp = dir / (key + ".tmp." + std::to_string(getpid()) + "." +
                                    std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id())));
        {
            std::ofstream f(tmp, std::ios::binary);
            f.write(r.ptx.data(), static_cast<std::streamsize>(r.ptx.size()));
            if (!f) { fs::remove(tmp, ec); return r; }
        }
        fs::rename(tmp, file, ec);
        if (ec) fs::remove(tmp, ec);
        else r.cacheFile = file.string();
    }
    return r;
}

} // namespace warpscope::compile
