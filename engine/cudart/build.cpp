// Building a whole CUDA program without a CUDA toolkit (build.hpp).
//
// Sections: 1. where the libraries and headers are  2. content key  3. compiling  4. buildProgram
//
// Per .cu file: the device pass (compile::compile, wholeProgram: clang --cuda-device-only with the
// system headers and warpscope's cuda_runtime.h force-included) gives PTX; the host pass
//   clang++ -x cuda --cuda-host-only -nocudainc -nocudalib -Xclang -target-sdk-version=11.5
//           -Xclang -fcuda-include-gpubinary -Xclang file.ptx -include cuda_runtime.h ...
// gives an object whose module constructor registers that PTX and its kernels and variables with
// warpscope's runtime (__cudaRegisterFatBinary, __cudaRegisterFunction, __cudaRegisterVar) and
// whose <<<...>>> launches call __cudaPushCallConfiguration and cudaLaunchKernel (the SDK version
// selects that launch sequence; without it clang 14 emits the pre-CUDA-9.2 cudaConfigureCall one).
#include "cudart/build.hpp"

#include "base/data_dir.hpp"
#include "base/files.hpp"
#include "base/web.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;

namespace warpscope::cudart {

namespace {

std::string readText(const fs::path& p) { return base::readFile(p).value_or(""); }

bool writeText(const fs::path& p, std::string_view text) {
    std::ofstream f(p, std::ios::binary);
    f.write(text.data(), static_cast<std::streamsize>(text.size()));
    return static_cast<bool>(f);
}

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// ---------------------------------------------------------------- 1. where the libraries and headers are
fs::path selfExe() {
    std::error_code ec;
    return fs::read_symlink("/proc/self/exe", ec);
}

// The two static libraries a program links with: an install's lib/warpscope beside bin/, else the
// build folder this binary was built in (paths CMake compiled in).
bool findLibraries(fs::path* cudartLib, fs::path* engineLib, std::string* why) {
    std::error_code ec;
    fs::path exe = selfExe();
    if (!exe.empty()) {
        fs::path lib = exe.parent_path().parent_path() / "lib" / "warpscope";
        if (fs::is_regular_file(lib / "libwarpscope_cudart.a", ec) && fs::is_regular_file(lib / "libwarpscope_engine.a", ec)) {
            *cudartLib = lib / "libwarpscope_cudart.a";
            *engineLib = lib / "libwarpscope_engine.a";
            return true;
        }
    }
#if defined(WARPSCOPE_CUDART_LIB) && defined(WARPSCOPE_ENGINE_LIB)
    if (fs::is_regular_file(WARPSCOPE_CUDART_LIB, ec) && fs::is_regular_file(WARPSCOPE_ENGINE_LIB, ec)) {
        *cudartLib = WARPSCOPE_CUDART_LIB;
        *engineLib = WARPSCOPE_ENGINE_LIB;
        return true;
    }
    *why = std::string("warpscope's CUDA runtime library is missing (looked in <prefix>/lib/warpscope and ") + WARPSCOPE_CUDART_LIB +
           "; build the target warpscope_cudart)";
#else
    *why = "warpscope's CUDA runtime library is missing (looked in <prefix>/lib/warpscope)";
#endif
    return false;
}

// The link command: the C++ compiler that built the libraries (their objects may need its
// sanitizer runtimes: scripts/sanitize.sh), else clang as a C++ driver.
// The calls the runtime watches for the sandbox (base/sandbox.hpp): under `warpscope run` and the
// app it stops a program that writes outside its folder, opens a network socket or runs out of
// address space, naming the limit; elsewhere the wrappers only pass the call on.
const char* const kSandboxWraps =
    "-Wl,--wrap=fopen,--wrap=fopen64,--wrap=open,--wrap=open64,--wrap=openat,--wrap=creat,--wrap=socket,--wrap=malloc,--wrap=calloc,"
    "--wrap=realloc";

std::vector<std::string> linker(const std::string& clang) {
    std::vector<std::string> cmd;
#ifdef WARPSCOPE_LINK_CXX
    std::error_code ec;
    if (fs::is_regular_file(WARPSCOPE_LINK_CXX, ec) || fs::is_symlink(WARPSCOPE_LINK_CXX, ec)) {
        cmd.push_back(WARPSCOPE_LINK_CXX);
        std::istringstream flags(WARPSCOPE_LINK_FLAGS);
        for (std::string f; flags >> f;) cmd.push_back(f);
        cmd.push_back(kSandboxWraps);
        return cmd;
    }
#endif
    return {clang, "--driver-mode=g++", kSandboxWraps};
}

std::string headersKey() {
    std::string all(compile::preludeText());
    all += compile::tensorHeaderText();
    for (auto& [name, text] : hostHeaders()) all += name + "\n" + std::string(text);
    return all;
}

// ---------------------------------------------------------------- 2. content key
struct Hasher {
    uint64_t a = 0xcbf29ce484222325ULL, b = 0x84222325cbf29ce4ULL;
    void add(std::string_view s) {
        for (unsigned char c : s) {
            a = (a ^ c) * 0x100000001b3ULL;
            b = (b ^ static_cast<unsigned char>(c + 0x5b)) * 0x100000001b3ULL;
        }
        a = (a ^ 0xff) * 0x100000001b3ULL;
        b = (b ^ 0x1f) * 0x100000001b3ULL;
    }
    std::string hex() const {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(a), static_cast<unsigned long long>(b));
        return buf;
    }
};

bool isHeaderName(const fs::path& p) {
    static const char* exts[] = {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc"};
    std::string e = lower(p.extension().string());
    return std::find_if(std::begin(exts), std::end(exts), [&](const char* x) { return e == x; }) != std::end(exts);
}

// The headers a build may read beside its sources: every header file directly in each source's
// folder and in each -I folder (what a course program includes). Deeper trees are not hashed.
void hashNearbyHeaders(Hasher& h, const std::vector<fs::path>& dirs) {
    for (auto& d : dirs) {
        std::error_code ec;
        std::vector<fs::path> files;
        for (auto it = fs::directory_iterator(d, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
            if (it->is_regular_file(ec) && isHeaderName(it->path())) files.push_back(it->path());
        std::sort(files.begin(), files.end());
        if (files.size() > 500) files.resize(500);
        for (auto& f : files) {
            h.add(f.string());
            h.add(readText(f));
        }
    }
}

std::string fileStamp(const fs::path& p) {
    std::error_code ec;
    auto size = fs::file_size(p, ec);
    auto t = static_cast<long long>(fs::last_write_time(p, ec).time_since_epoch().count());
    return p.string() + ":" + std::to_string(size) + ":" + std::to_string(t);
}

// ---------------------------------------------------------------- 3. compiling
std::string commandText(const std::vector<std::string>& argv) {
    std::string s;
    for (auto& a : argv) s += (s.empty() ? "" : " ") + a;
    return s;
}

// Runs one tool; on failure fills the result's diagnostics or error and returns false.
bool runTool(const std::vector<std::string>& argv, const std::string& what, double timeout, BuildResult& r) {
    r.log += "$ " + commandText(argv) + "\n";
    compile::ProcessResult p = compile::runProcess(argv, fs::current_path().string(), timeout);
    r.log += p.output;
    if (p.exitCode == 0 && !p.timedOut) return true;
    r.diagnostics = compile::parseDiagnostics(p.output);
    bool anyError = std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                                [](auto& d) { return d.severity == compile::Diagnostic::Severity::Error; });
    if (p.timedOut) r.error = what + " did not finish within " + std::to_string(int(timeout)) + " s and was stopped";
    else if (p.startFailed) r.error = "cannot start " + what + ": " + p.output;
    else if (p.signal) r.error = what + " crashed (signal " + std::to_string(p.signal) + ")";
    else if (!anyError) r.error = what + " failed (exit code " + std::to_string(p.exitCode) + "):\n" + p.output;
    return false;
}

// Keeps the program cache bounded: the 100 most recently built programs (about 1.5 MB each), and
// no work folder of a build that ended more than an hour ago.
void pruneCache(const fs::path& programs) {
    std::error_code ec;
    std::vector<std::pair<fs::file_time_type, fs::path>> built;
    const auto now = fs::file_time_type::clock::now();
    for (auto it = fs::directory_iterator(programs, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
        auto t = fs::last_write_time(it->path(), ec);
        if (ec) continue;
        if (it->path().filename().string().find(".work.") != std::string::npos) {
            if (now - t > std::chrono::hours(1)) fs::remove_all(it->path(), ec);
            continue;
        }
        built.emplace_back(t, it->path());
    }
    if (built.size() <= 100) return;
    std::sort(built.begin(), built.end());
    for (size_t i = 0; i + 100 < built.size(); ++i) fs::remove_all(built[i].second, ec);
}

// nvcc accepts `__shared__ alignas(16) float tile[64];` (the SDK's globalToShmemAsyncCopy has it);
// clang does not take a C++11 attribute after the GNU one __shared__ is. The alignas(...) moves in
// front of __shared__, on the same line: `alignas(16) __shared__ float tile[64];`.
std::string moveAlignasBeforeShared(const std::string& text) {
    static const std::regex re(R"(__shared__(\s+)alignas\s*\()");
    std::string out;
    size_t from = 0;
    for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it) {
        const size_t at = static_cast<size_t>(it->position(0));
        size_t p = at + static_cast<size_t>(it->length(0)), depth = 1;
        while (p < text.size() && depth > 0) {
            if (text[p] == '(') ++depth;
            else if (text[p] == ')') --depth;
            else if (text[p] == '\n') break;
            ++p;
        }
        if (depth != 0) continue;   // not on one line: left as it is
        const std::string spec = text.substr(at + 10 + (*it)[1].length(), p - (at + 10 + (*it)[1].length()));
        out += text.substr(from, at - from) + spec + " __shared__";
        from = p;
    }
    return out + text.substr(from);
}

} // namespace

bool isProgramSource(const std::string& path) {
    std::string e = lower(fs::path(path).extension().string());
    return e == ".cu" || e == ".cpp" || e == ".cc" || e == ".cxx" || e == ".c";
}

bool hasHostMain(const std::string& text) {
    // Comments, strings and character literals out, then "main(" after a return type.
    std::string code;
    code.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
            while (i < text.size() && text[i] != '\n') ++i;
            code += '\n';
        } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
            const size_t e = text.find("*/", i + 2);
            i = e == std::string::npos ? text.size() : e + 1;
            code += ' ';
        } else if (c == '"' || c == '\'') {
            for (++i; i < text.size() && text[i] != c; ++i)
                if (text[i] == '\\') ++i;
            code += ' ';
        } else {
            code += c;
        }
    }
    static const std::regex mainFn(R"((^|[^A-Za-z0-9_])(int|auto)\s+main\s*\()");
    return std::regex_search(code, mainFn);
}

bool readProgramSource(const std::string& path, std::string& text, std::string& error) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
        error = "cannot read '" + path + "': no such file";
        return false;
    }
    if (!isProgramSource(path)) {
        error = "'" + path + "' is not a source file warpscope builds (.cu, .cpp, .cc, .cxx, .c)";
        return false;
    }
    std::optional<std::string> read = base::readFile(path);
    if (!read) {
        error = "cannot read '" + path + "'";
        return false;
    }
    text = std::move(*read);
    return true;
}

// ---------------------------------------------------------------- 4. buildProgram
BuildResult buildProgram(const BuildOptions& o) {
    BuildResult r;
    if constexpr (base::kInBrowser) {
        r.error = base::kNoHostCodeInBrowser;
        return r;
    }
    if (o.sources.empty()) {
        r.error = "no source files";
        return r;
    }
    const std::string clang = compile::findClangPath();
    if (clang.empty()) {
        r.error = "clang is not installed (Debian: apt-get install clang; or set WARPSCOPE_CLANG to a clang binary)";
        return r;
    }
    fs::path cudartLib, engineLib;
    if (!findLibraries(&cudartLib, &engineLib, &r.error)) return r;

    // Read the sources; hash everything the result depends on.
    Hasher h;
    h.add("warpscope-program-1");
    h.add(clang);
    h.add(headersKey());
    h.add(fileStamp(cudartLib));
    h.add(fileStamp(engineLib));
    for (auto& part : linker(clang)) h.add(part);
    std::vector<std::string> texts;
    std::vector<fs::path> dirs;
    for (auto& s : o.sources) {
        std::string text;
        if (!readProgramSource(s, text, r.error)) return r;
        texts.push_back(moveAlignasBeforeShared(text));
        h.add(fs::absolute(s).string());
        h.add(texts.back());
        dirs.push_back(fs::absolute(s).parent_path());
    }
    // -I folders as absolute paths: the device pass compiles a copy of each source elsewhere.
    BuildOptions opts = o;
    for (auto& d : opts.includeDirs) d = fs::absolute(d).lexically_normal().string();
    for (auto& d : opts.includeDirs) {
        h.add("-I" + d);
        dirs.push_back(d);
    }
    for (auto& d : o.defines) h.add("-D" + d);
    // cuBLAS (docs/whole-programs.md, "cuBLAS"): a source that includes its header, or -lcublas,
    // gets warpscope's subset compiled in as one more .cu file, its kernels in the program's module.
    static const std::regex cublasRe(R"((^|\n)[ \t]*#[ \t]*include[ \t]*[<"]cublas_(v2|api)\.h[>"])");
    const bool cublas = o.cublas || std::any_of(texts.begin(), texts.end(), [](const std::string& t) { return std::regex_search(t, cublasRe); });
    if (cublas) h.add(cublasSourceText());
    const fs::path dataDir = base::findDataDir();
    h.add(dataDir.string());
    hashNearbyHeaders(h, dirs);
    const std::string key = h.hex();

    const fs::path cache = fs::path(compile::cacheDir());
    const fs::path done = cache / "programs" / key;
    const fs::path exe = done / "program";
    std::error_code ec;
    auto publish = [&](const fs::path& built) {
        r.ok = true;
        r.executable = built.string();
        if (!o.output.empty()) {
            fs::path tmp = fs::path(o.output).string() + ".tmp-warpscope";
            fs::copy_file(built, tmp, fs::copy_options::overwrite_existing, ec);
            if (!ec) fs::rename(tmp, o.output, ec);
            if (ec) {
                r.ok = false;
                r.error = "cannot write '" + o.output + "': " + ec.message();
                return;
            }
            fs::permissions(o.output, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec, fs::perm_options::add, ec);
            r.executable = o.output;
        }
    };
    if (o.useCache && fs::is_regular_file(exe, ec)) {
        r.cached = true;
        publish(exe);
        return r;
    }

    // warpscope's headers (and the prelude they include), written once per content.
    Hasher hh;
    hh.add(headersKey());
    const fs::path inc = cache / "cudart-include" / hh.hex();
    if (!fs::is_regular_file(inc / "cuda_runtime.h", ec)) {
        fs::path tmp = inc.string() + ".tmp." + std::to_string(getpid());
        fs::create_directories(tmp, ec);
        bool ok = writeText(tmp / compile::kPreludeName, compile::preludeText());
        ok = ok && writeText(tmp / "warpscope_tensor.h", compile::tensorHeaderText());   // behind cuda_fp16.h, mma.h
        for (auto& [name, text] : hostHeaders()) {
            fs::create_directories((tmp / name).parent_path(), ec);   // cooperative_groups/reduce.h
            ok = ok && writeText(tmp / name, text);
        }
        if (!ok) {
            r.error = "cannot write warpscope's CUDA headers to " + tmp.string();
            return r;
        }
        fs::rename(tmp, inc, ec);
        if (ec) fs::remove_all(tmp, ec);   // another build put them there first
    }

    const fs::path work = cache / "programs" / (key + ".work." + std::to_string(getpid()));
    fs::remove_all(work, ec);
    fs::create_directories(work, ec);
    struct Cleanup {
        fs::path p;
        ~Cleanup() {
            std::error_code e;
            fs::remove_all(p, e);
        }
    } cleanup{work};

    // OpenMP on the host side (the samples' cudaOpenMP, a course's multi-threaded host code): a
    // source that includes <omp.h> gets -fopenmp in its host pass and LLVM's libomp at the link,
    // as nvcc -Xcompiler -fopenmp would (the device pass ignores the pragmas).
    static const std::regex ompRe(R"((^|\n)[ \t]*#[ \t]*include[ \t]*<omp\.h>)");
    std::string libomp;
    if (std::any_of(texts.begin(), texts.end(), [](const std::string& t) { return std::regex_search(t, ompRe); })) {
        std::string found;
        for (const char* name : {"libomp.so", "libomp.so.5"}) {   // Debian's clang finds the versioned one
            compile::ProcessResult p = compile::runProcess({clang, std::string("-print-file-name=") + name}, work.string(), 30);
            std::string f = p.output.substr(0, p.output.find_first_of("\r\n"));
            if (p.exitCode == 0 && fs::path(f).is_absolute() && fs::exists(f, ec)) {
                found = f;
                break;
            }
        }
        if (found.empty()) {
            r.error = "this program includes <omp.h>, but " + clang + " has no OpenMP runtime (Debian: apt-get install libomp-dev)";
            return r;
        }
        libomp = found;
    }

    std::vector<std::string> common = {"-std=c++17", "-I" + inc.string(), "-include", "cuda_runtime.h"};
    for (auto& d : opts.includeDirs) common.push_back("-I" + d);
    for (auto& d : o.defines) common.push_back("-D" + d);

    std::vector<std::string> sources = o.sources;
    if (cublas) {
        const fs::path lib = work / "warpscope_cublas.cu";
        if (!writeText(lib, std::string(cublasSourceText()))) {
            r.error = "cannot write " + lib.string();
            return r;
        }
        sources.push_back(lib.string());
        texts.emplace_back(cublasSourceText());
    }
    std::vector<std::string> objects;
    for (size_t i = 0; i < sources.size(); ++i) {
        const std::string& src = sources[i];
        const bool cu = lower(fs::path(src).extension().string()) == ".cu";
        const bool c = lower(fs::path(src).extension().string()) == ".c";
        const fs::path obj = work / (std::to_string(i) + ".o");
        std::vector<std::string> argv = {clang};
        if (c) {
            argv.insert(argv.end(), {"-x", "c", "-O2", "-g", "-c", src, "-o", obj.string()});
            for (auto& d : opts.includeDirs) argv.push_back("-I" + d);
            for (auto& d : o.defines) argv.push_back("-D" + d);
        } else {
            argv.insert(argv.end(), {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "--cuda-path=/nonexistent-warpscope",
                                     "-Wno-unknown-cuda-version", "-Xclang", "-target-sdk-version=11.5", "-fno-color-diagnostics",
                                     "-O2", "-g", "-I" + fs::absolute(src).parent_path().string()});
            argv.insert(argv.end(), common.begin(), common.end());
            if (!libomp.empty()) argv.push_back("-fopenmp");
        }
        if (cu) {
            // The kernels first: this pass parses the whole file, host code included, so its
            // diagnostics are the file's.
            compile::Options co;
            co.compiler = compile::Compiler::Clang;
            co.wholeProgram = true;
            co.timeoutSeconds = o.timeoutSeconds;
            // The file's own folder first, as `#include "x.h"` searches it before any -I (this pass
            // compiles a copy of the text elsewhere): the SDK samples have a header of the same
            // name in their folder and in Common/.
            co.extraArgs = {"-I" + fs::absolute(src).parent_path().string()};
            co.extraArgs.insert(co.extraArgs.end(), common.begin(), common.end());
            compile::Result dr = compile::compile(texts[i], src, co);
            r.log += "$ " + dr.command + "\n" + dr.log;
            if (!dr.ok) {
                r.diagnostics = dr.diagnostics;
                r.error = dr.error;
                if (r.error.empty() && r.diagnostics.empty()) r.error = "compiling the kernels of " + src + " failed";
                return r;
            }
            const fs::path ptx = work / (std::to_string(i) + ".ptx");
            if (!writeText(ptx, dr.ptx)) {
                r.error = "cannot write " + ptx.string();
                return r;
            }
            argv.insert(argv.end(), {"-Xclang", "-fcuda-include-gpubinary", "-Xclang", ptx.string()});
        }
        // The host pass compiles the file itself, or a copy with its alignas moved (at the file's
        // own name and lines: #line), so its diagnostics are the file's either way.
        std::string hostSrc = src;
        if (cu && texts[i] != readText(src)) {
            const fs::path copy = work / (std::to_string(i) + ".host.cu");
            std::string name;
            for (char ch : fs::absolute(src).string()) {
                if (ch == '\\' || ch == '"') name += '\\';
                name += ch;
            }
            if (!writeText(copy, "#line 1 \"" + name + "\"\n" + texts[i])) {
                r.error = "cannot write " + copy.string();
                return r;
            }
            hostSrc = copy.string();
        }
        if (!c) argv.insert(argv.end(), {"-c", hostSrc, "-o", obj.string()});
        if (!runTool(argv, "clang (host code of " + src + ")", o.timeoutSeconds, r)) return r;
        objects.push_back(obj.string());
    }

    // Where the built program finds the GPU presets when it runs outside warpscope.
    const fs::path cfg = work / "warpscope_data_dir.cpp";
    std::string lit;
    for (char ch : dataDir.string()) {
        if (ch == '\\' || ch == '"') lit += '\\';
        lit += ch;
    }
    writeText(cfg, "extern \"C\" const char* __warpscope_data_dir = \"" + lit + "\";\n");
    if (!runTool({clang, "-x", "c++", "-c", cfg.string(), "-o", (work / "data_dir.o").string()}, "clang", o.timeoutSeconds, r)) return r;
    objects.push_back((work / "data_dir.o").string());

    std::vector<std::string> link = linker(clang);
    link.insert(link.end(), {"-o", (work / "program").string()});
    link.insert(link.end(), objects.begin(), objects.end());
    link.insert(link.end(), {cudartLib.string(), engineLib.string(), "-lpthread", "-ldl"});
    if (!libomp.empty()) link.insert(link.end(), {libomp, "-Wl,-rpath," + fs::path(libomp).parent_path().string()});
    if (!runTool(link, "the linker", o.timeoutSeconds, r)) return r;

    fs::create_directories(done.parent_path(), ec);
    fs::remove_all(done, ec);
    fs::create_directories(done, ec);
    fs::rename(work / "program", exe, ec);
    if (ec) {
        r.error = "cannot store the built program in " + done.string() + ": " + ec.message();
        return r;
    }
    publish(exe);
    pruneCache(done.parent_path());
    return r;
}

} // namespace warpscope::cudart
