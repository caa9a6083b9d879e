// The compile drivers: diagnostics at file:line:col, unsupported features reported at the
// student's line, a hanging compiler killed, missing compilers named, prelude lines mapped to the
// student's lines, and lessons with a .cu and no PTX compiled (and cached) when loaded.
#include "support.hpp"

#include "compile/compile.hpp"
#include "ptx/parser.hpp"
#include "base/error.hpp"
#include "runtime/lesson.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace warpscope;
namespace fs = std::filesystem;

namespace {

bool have(compile::Compiler c) {
    for (auto& a : compile::available())
        if (a.compiler == c) return true;
    return false;
}

compile::Result clang(const std::string& src, const std::string& name = "student.cu") {
    compile::Options o;
    o.compiler = compile::Compiler::Clang;
    return compile::compile(src, name, o);
}

const compile::Diagnostic* firstError(const compile::Result& r) {
    for (auto& d : r.diagnostics)
        if (d.severity == compile::Diagnostic::Severity::Error) return &d;
    return nullptr;
}

// Sets an environment variable for one scope.
struct ScopedEnv {
    std::string name;
    std::optional<std::string> old;
    ScopedEnv(const std::string& n, const std::string& v) : name(n) {
        if (const char* o = std::getenv(n.c_str())) old = o;
        setenv(n.c_str(), v.c_str(), 1);
    }
    ~ScopedEnv() {
        if (old) setenv(name.c_str(), old->c_str(), 1);
        else unsetenv(name.c_str());
    }
};

struct TempFolder {
    fs::path path;
    TempFolder() {
        std::string t = (fs::temp_directory_path() / "warpscope-test-XXXXXX").string();
        REQUIRE(mkdtemp(t.data()));
        path = t;
    }
    ~TempFolder() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

void write(const fs::path& p, const std::string& text) {
    std::ofstream f(p, std::ios::binary);
    f << text;
}

} // namespace

TEST_CASE("diagnostics: clang and nvcc formats parse into file:line:col records", "[compile]") {
    auto d = compile::parseDiagnostics("k.cu:12:5: error: use of undeclared identifier 'x'\n"
                                       "some context line\n"
                                       "k.cu(7): warning #177-D: variable \"y\" was declared but never referenced\n"
                                       "k.cu(9): error: identifier \"z\" is undefined\n"
                                       "clang: error: unsupported option '--foo'\n");
    REQUIRE(d.size() == 4);
    CHECK(d[0].text() == "k.cu:12:5: error: use of undeclared identifier 'x'");
    CHECK(d[1].line == 7);
    CHECK(d[1].severity == compile::Diagnostic::Severity::Warning);
    CHECK(d[2].text() == "k.cu:9: error: identifier \"z\" is undefined");
    CHECK(d[3].file.empty());
    CHECK(d[3].message == "unsupported option '--foo'");
}

TEST_CASE("clang: a syntax error is reported at the student's file, line and column", "[compile]") {
    if (!have(compile::Compiler::Clang)) { WARN("clang not installed: skipped"); return; }
    auto r = clang("extern \"C\" __global__ void k(int* p)\n{\n    p[threadIdx.x] = undeclared + 1;\n}\n", "dir/mine.cu");
    CHECK_FALSE(r.ok);
    auto* e = firstError(r);
    REQUIRE(e);
    CHECK(e->file == "dir/mine.cu");
    CHECK(e->line == 3);
    CHECK(e->column == 22);
    CHECK(e->message.find("undeclared") != std::string::npos);
}

TEST_CASE("clang: printf, textures, libdevice-only math and kernel launches are errors at the student's line", "[compile]") {
    if (!have(compile::Compiler::Clang)) { WARN("clang not installed: skipped"); return; }
    struct Case { const char* body; const char* expect; };
    const Case cases[] = {
        {"    printf(\"%d\\n\", 1);", "printf is not supported by the simulator"},
        {"    p[0] = tex1Dfetch<float>(t, 0);", "textures are not supported"},
        {"    p[0] = tanf(p[1]);", "needs CUDA's libdevice"},
        {"    k<<<1, 1>>>(p, t);", "dynamic parallelism"},
        {"    p[0] = __shfl(p[1], 0);", "removed in CUDA 9"},
    };
    for (auto& c : cases) {
        std::string src = std::string("typedef unsigned long long tex_t;\nextern \"C\" __global__ void k(float* p, tex_t t)\n{\n") + c.body + "\n}\n";
        auto r = clang(src);
        INFO(c.body << "\n" << r.log);
        CHECK_FALSE(r.ok);
        auto* e = firstError(r);
        REQUIRE(e);
        CHECK(e->file == "student.cu");
        CHECK(e->line == 4);
        CHECK(e->column > 0);
        CHECK(e->message.find(c.expect) != std::string::npos);
    }
}

TEST_CASE("clang: instructions from the prelude carry the student's line, never a prelude line", "[compile]") {
    if (!have(compile::Compiler::Clang)) { WARN("clang not installed: skipped"); return; }
    const std::string src =
        "extern \"C\" __global__ void k(int* p, const int* q)\n"   // 1
        "{\n"                                                      // 2
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"     // 3
        "    int v = __shfl_down_sync(0xffffffff, q[i], 1);\n"     // 4
        "    atomicAdd(p, v);\n"                                   // 5
        "}\n";
    auto r = clang(src);
    INFO(r.log);
    REQUIRE(r.ok);
    CHECK(r.ptx.find(".file\t2 \"warpscope_cuda.h\"") != std::string::npos);
    ptx::Module m = ptx::parse(r.ptx, "k.ptx");
    auto* f = m.findFunction("k");
    REQUIRE(f);
    std::map<std::string, int> lineOf;
    for (auto& s : f->body) {
        if (s.kind != ptx::Statement::Kind::Instruction) continue;
        INFO(s.instr.text() << " at PTX line " << s.ptxLine);
        CHECK(m.files.at(s.instr.loc.file) == "student.cu");
        CHECK(s.instr.loc.line >= 1);
        CHECK(s.instr.loc.line <= 6);
        lineOf[s.instr.opcode] = s.instr.loc.line;
    }
    CHECK(lineOf["shfl"] == 4);
    CHECK(lineOf["atom"] == 5);
    CHECK(lineOf["mad"] == 3);
}

TEST_CASE("mapPreludeLines: a prelude .loc takes the previous student line; after the prologue, the next one", "[compile]") {
    const std::string in = ".entry k()\n{\n\t.loc\t1 2 0\n\tmov.u32 %r1, 1;\n\t.loc\t2 50 3\n\tmov.u32 %r2, %tid.x;\n"
                           "\t.loc\t1 7 9\n\tadd.s32 %r3, %r1, %r2;\n\t.loc\t2 60 1\n\tshfl.sync.down.b32 %r4, %r3, 1, 31, -1;\n"
                           "\t.loc\t1 0 5\n\tret;\n}\n\t.file\t1 \"/tmp/x/a.cu\"\n\t.file\t2 \"/tmp/x/warpscope_cuda.h\"\n";
    std::string out = compile::mapPreludeLines(in);
    CHECK(out.find(".file\t1 \"a.cu\"") != std::string::npos);
    CHECK(out.find(".file\t2 \"warpscope_cuda.h\"") != std::string::npos);
    CHECK(out.find("\t.loc\t1 7 9   // warpscope_cuda.h:50\n\tmov.u32 %r2, %tid.x;") != std::string::npos);
    CHECK(out.find("\t.loc\t1 7 9   // warpscope_cuda.h:60\n\tshfl") != std::string::npos);
    CHECK(out.find(".loc\t2 ") == std::string::npos);
}

TEST_CASE("a compiler that hangs is killed after the time limit, with a clear message", "[compile]") {
    TempFolder tmp;
    const fs::path fake = tmp.path / "clang-hangs";
    write(fake, "#!/bin/sh\nsleep 30\n");
    fs::permissions(fake, fs::perms::owner_all);
    ScopedEnv env("WARPSCOPE_CLANG", fake.string());
    compile::Options o;
    o.compiler = compile::Compiler::Clang;
    o.timeoutSeconds = 1;
    auto t0 = std::chrono::steady_clock::now();
    auto r = compile::compile("extern \"C\" __global__ void k() {}\n", "k.cu", o);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(s < 5);
    CHECK_FALSE(r.ok);
    CHECK(r.timedOut);
    CHECK(r.error.find("did not finish within 1 s") != std::string::npos);
}

TEST_CASE("a missing compiler is a message, never an exception", "[compile]") {
    ScopedEnv env("WARPSCOPE_CLANG", "/nonexistent/clang");
    auto r = clang("extern \"C\" __global__ void k() {}\n");
    CHECK_FALSE(r.ok);
    CHECK(r.error.find("clang is not installed") != std::string::npos);
    compile::Options o;
    o.compiler = compile::Compiler::Clang;
    o.arch = "sm_100";
    ScopedEnv env2("WARPSCOPE_CLANG", "/usr/bin/clang");
    if (have(compile::Compiler::Clang)) CHECK(compile::compile("", "k.cu", o).error.find("sm_70 to sm_86") != std::string::npos);
}

TEST_CASE("a lesson with a .cu source and no PTX is compiled when loaded, and cached", "[compile]") {
    if (!have(compile::Compiler::Clang)) { WARN("clang not installed: skipped"); return; }
    TempFolder tmp;
    ScopedEnv cache("XDG_CACHE_HOME", (tmp.path / "cache").string());
    ScopedEnv compiler("WARPSCOPE_COMPILER", "clang");
    fs::create_directories(tmp.path / "lesson");
    fs::copy_file(wst::sourcePath("lessons/vector-add/kernel.cu"), tmp.path / "lesson" / "kernel.cu");
    std::string json = wst::readFile(wst::sourcePath("lessons/vector-add/lesson.json"));
    auto at = json.find("\"ptx\"");
    REQUIRE(at != std::string::npos);
    json.replace(at, json.find('\n', at) - at, "\"golden\": null,");   // drop the "ptx" line
    json.replace(json.find("\"golden\": null,"), 15, "");
    write(tmp.path / "lesson" / "lesson.json", json);

    runtime::Lesson l = runtime::loadLesson(tmp.path / "lesson");
    CHECK(l.ptxText.find(".entry vadd") != std::string::npos);
    CHECK(l.ptxPath.string().find((tmp.path / "cache" / "warpscope" / "ptx").string()) == 0);
    CHECK(fs::exists(l.ptxPath));
    runtime::SimDevice dev;
    CHECK(runtime::runLesson(l, runtime::resolveParams(l, {}), dev).allChecksPassed());
    // The second load comes from the cache (same file), even with no compiler at all.
    ScopedEnv noClang("WARPSCOPE_CLANG", "/nonexistent/clang");
    runtime::Lesson again = runtime::loadLesson(tmp.path / "lesson");
    CHECK(again.ptxPath == l.ptxPath);
    CHECK(again.ptxText == l.ptxText);

    // A compile error names the line.
    write(tmp.path / "lesson" / "kernel.cu", "extern \"C\" __global__ void vadd(const float* a, const float* b, float* c, int n)\n{\n    c[0] = a[0] +;\n}\n");
    ScopedEnv withClang("WARPSCOPE_CLANG", "");
    try {
        runtime::loadLesson(tmp.path / "lesson");
        FAIL("a kernel that does not compile loaded");
    } catch (const Error& e) {
        CHECK(std::string(e.what()).find("kernel.cu:3:") != std::string::npos);
        CHECK(std::string(e.what()).find("does not compile") != std::string::npos);
    }
}

TEST_CASE("clang: the usual CUDA includes work; a host-only header is 'file not found' at its line", "[compile]") {
    if (!have(compile::Compiler::Clang)) { WARN("clang not installed: skipped"); return; }
    auto ok = clang("#include <cuda_runtime.h>\n#include <stdint.h>\n#include <cmath>\n#include <cstdio>\n"
                    "extern \"C\" __global__ void k(uint32_t* p, float* f)\n{\n    p[threadIdx.x] = (uint32_t)sqrtf(f[threadIdx.x]);\n}\n");
    INFO(ok.log);
    CHECK(ok.ok);
    auto bad = clang("#include <stdint.h>\n#include <vector>\nextern \"C\" __global__ void k(int* p) { p[0] = 1; }\n");
    CHECK_FALSE(bad.ok);
    auto* e = firstError(bad);
    REQUIRE(e);
    CHECK(e->line == 2);
    CHECK(e->message.find("'vector' file not found") != std::string::npos);
}

TEST_CASE("NVRTC: a syntax error is reported at the student's file and line", "[gpu][nvrtc]") {
    if (!have(compile::Compiler::Nvrtc)) { WARN("NVRTC tests skipped: no libnvrtc.so"); return; }
    compile::Options o;
    o.compiler = compile::Compiler::Nvrtc;
    auto r = compile::compile("extern \"C\" __global__ void k(int* p)\n{\n    p[0] = undeclared;\n}\n", "dir/mine.cu", o);
    CHECK_FALSE(r.ok);
    auto* e = firstError(r);
    REQUIRE(e);
    CHECK(e->file == "dir/mine.cu");
    CHECK(e->line == 3);
    CHECK(e->message.find("undeclared") != std::string::npos);
}

TEST_CASE("a file name without .cu (an unsaved editor buffer) still compiles, and errors carry that name", "[compile]") {
    for (auto c : {compile::Compiler::Clang, compile::Compiler::Nvcc}) {
        if (!have(c)) continue;
        compile::Options o;
        o.compiler = c;
        INFO(compile::compilerName(c));
        auto good = compile::compile("extern \"C\" __global__ void k(int* p) { p[threadIdx.x] = 1; }\n", "untitled", o);
        INFO(good.log << good.error);
        CHECK(good.ok);
        auto bad = compile::compile("extern \"C\" __global__ void k(int* p)\n{\n    p[0] = nope;\n}\n", "untitled", o);
        auto* e = firstError(bad);
        REQUIRE(e);
        CHECK(e->file == "untitled");
        CHECK(e->line == 3);
    }
}
