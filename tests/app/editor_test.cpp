// The kernel editor's model: text and undo, atomic autosave and recovery, builds with errors
// mapped to lines (clang, always installed), launch specs made from signatures and run on the
// simulator, Save as lesson.
#include "gui/model/editor.hpp"

#include "base/error.hpp"
#include "runtime/lesson.hpp"
#include "runtime/sim_device.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace warpscope;
using namespace warpscope::gui;
namespace fs = std::filesystem;

namespace {
fs::path src(const std::string& rel) { return fs::path(WARPSCOPE_SOURCE_DIR) / rel; }
std::string readAll(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}
// A fresh folder under the temporary directory, removed at the end of the test.
struct TempDir {
    fs::path path;
    explicit TempDir(const std::string& name) : path(fs::temp_directory_path() / ("warpscope-editor-test-" + name + "-" + std::to_string(::getpid()))) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};
compile::Options clangOptions() {
    compile::Options o;
    o.compiler = compile::Compiler::Clang;
    return o;
}
// Builds the editor's text and takes the result, as the app's frame loop does.
void buildAndTake(EditorModel& ed, const compile::Options& o = clangOptions()) {
    ed.build(o);
    REQUIRE(ed.waitBuild(120));
    REQUIRE(ed.poll());
}
} // namespace

TEST_CASE("editor text: quick typing is one undo step, a pause starts another; redo; a new edit drops redo", "[editor]") {
    TextHistory h;
    h.reset("a");
    h.edit("ab", 10.0);
    h.edit("abc", 10.3);   // within a second: the same step
    h.edit("abcd", 12.0);  // after a pause: a new step
    CHECK(h.text() == "abcd");
    REQUIRE(h.undo());
    CHECK(h.text() == "abc");
    REQUIRE(h.undo());
    CHECK(h.text() == "a");
    CHECK_FALSE(h.undo());
    REQUIRE(h.redo());
    CHECK(h.text() == "abc");
    h.edit("abcX", 20.0);
    CHECK_FALSE(h.canRedo());
    REQUIRE(h.undo());
    CHECK(h.text() == "abc");
}

TEST_CASE("editor files: atomic save, autosave, and recovery of unsaved text after a kill", "[editor]") {
    TempDir dir("files");
    fs::path autosave = dir.path / "settings" / "editor-autosave.json";
    fs::path kernel = dir.path / "k.cu";
    REQUIRE(writeFileAtomic(kernel, "// saved\n"));
    CHECK(readAll(kernel) == "// saved\n");
    for (auto& e : fs::directory_iterator(dir.path)) CHECK(e.path().filename().string().find(".tmp") == std::string::npos);
    {
        EditorModel ed(autosave);
        std::string err;
        REQUIRE(ed.open(kernel, &err));
        CHECK_FALSE(ed.dirty());
        ed.edit("// saved\n// typed, never saved\n", 100.0);
        CHECK(ed.dirty());
        ed.tick(100.5);   // the first tick after a change writes (the last autosave was long ago)
        REQUIRE(fs::exists(autosave));
        // The model is dropped without saving, as a killed app would leave it.
    }
    std::optional<Recovery> r = findRecovery(autosave);
    REQUIRE(r);
    CHECK(r->text == "// saved\n// typed, never saved\n");
    CHECK(r->file == fs::absolute(kernel));
    {
        EditorModel ed(autosave);
        ed.recover(*r);
        CHECK(ed.text() == r->text);
        CHECK(ed.dirty());   // restored as an unsaved edit of its file
        CHECK(ed.file() == fs::absolute(kernel));
        REQUIRE(ed.canUndo());   // the file's text is one undo away
        std::string err;
        REQUIRE(ed.save(&err));
        CHECK(readAll(kernel) == r->text);
    }
    CHECK_FALSE(findRecovery(autosave));   // saved: nothing to offer
    // A torn or foreign autosave file is ignored, never a crash.
    REQUIRE(writeFileAtomic(autosave, "{\"text\": 3"));
    CHECK_FALSE(findRecovery(autosave));
    // Without a settings folder there is no autosave.
    EditorModel none{fs::path()};
    none.newFromTemplate("1d");
    CHECK_FALSE(none.autosaveNow());
    // Bad files are messages.
    EditorModel ed(autosave);
    std::string err;
    CHECK_FALSE(ed.open(dir.path / "missing.cu", &err));
    CHECK_THAT(err, Catch::Contains("Cannot read"));
    CHECK_FALSE(ed.open(src("lessons/vector-add/steps.md"), &err));
    CHECK_THAT(err, Catch::Contains("opens a .cu or .ptx"));
}

TEST_CASE("kernel signatures: C++ element types, PTX entries, mangled names", "[editor]") {
    CHECK(elementTypeFor("const float* __restrict__") == "f32");
    CHECK(elementTypeFor("unsigned int*") == "u32");
    CHECK(elementTypeFor("unsigned long long") == "u64");
    CHECK(elementTypeFor("const int8_t*") == "s8");
    CHECK(elementTypeFor("MyStruct*").empty());

    std::string cu = readAll(src("lessons/vector-add/kernel.cu"));
    auto k = parseCudaKernels(cu);
    REQUIRE(k.size() == 1);
    CHECK(k[0].name == "vadd");
    CHECK(k[0].line == 2);
    REQUIRE(k[0].params.size() == 4);
    CHECK(k[0].params[0].name == "a");
    CHECK(k[0].params[0].pointer);
    CHECK(k[0].params[0].elemType == "f32");
    CHECK(k[0].params[3].name == "n");
    CHECK_FALSE(k[0].params[3].pointer);
    CHECK(k[0].params[3].elemType == "s32");

    auto e = parsePtxEntries(readAll(src("lessons/vector-add/kernel.ptx")));
    REQUIRE(e.size() == 1);
    CHECK(e[0].name == "vadd");
    REQUIRE(e[0].params.size() == 4);
    CHECK(e[0].params[0].pointer);
    CHECK(e[0].params[3].elemType == "u32");   // nvcc declares an int parameter .u32: the .cu says it is signed

    // Comments and strings do not fool the parser; a C++ (mangled) kernel matches its .cu name.
    std::string text = "// __global__ void fake(int x)\n__global__ void scale(double* d, unsigned n = 4) { const char* s = \"__global__ void no(\"; }\n";
    auto c = parseCudaKernels(text);
    REQUIRE(c.size() == 1);
    CHECK(c[0].name == "scale");
    CHECK(c[0].line == 2);
    KernelSignature mangled;
    mangled.name = "_Z5scalePdj";
    mangled.params.resize(2);
    auto merged = mergeSignatures({mangled}, c);
    REQUIRE(merged.size() == 1);
    CHECK(merged[0].name == "_Z5scalePdj");
    CHECK(merged[0].params[0].name == "d");
    CHECK(merged[0].params[0].elemType == "f64");
    CHECK(merged[0].params[1].elemType == "u32");
}

TEST_CASE("a launch spec from a signature is lesson.json the engine runs, with its checks", "[editor]") {
    auto sigs = mergeSignatures(parsePtxEntries(readAll(src("lessons/vector-add/kernel.ptx"))), parseCudaKernels(readAll(src("lessons/vector-add/kernel.cu"))));
    REQUIRE(sigs.size() == 1);
    LaunchSpec spec = defaultLaunchSpec(sigs[0]);
    CHECK(spec.args[0].init == BufferInit::Iota);    // const input
    CHECK(spec.args[2].init == BufferInit::Zeros);   // output
    CHECK(spec.args[3].value == 1024);               // n = the element count
    spec.args[0].count = spec.args[1].count = spec.args[2].count = 100;
    spec.args[3].value = 100;
    spec.grid[0] = 1;
    spec.block[0] = 128;
    spec.args[1].init = BufferInit::Constant;
    spec.args[1].constant = 0.5;
    spec.args[2].expect = "0.5, 1.5, 2.5";
    std::string json = launchSpecJson(spec, "test", src("lessons/vector-add/kernel.cu").string(), src("lessons/vector-add/kernel.ptx").string());
    runtime::Lesson L = runtime::loadLessonText(json, src("lessons/vector-add"), "spec");
    runtime::SimDevice dev;
    runtime::RunResult r = runtime::runLesson(L, {}, dev);
    REQUIRE(r.checks.size() == 1);
    CHECK(r.checks[0].passed);
    // A wrong expectation fails the check (the check is real).
    spec.args[2].expect = "0.5, 1.5, 9";
    runtime::Lesson bad = runtime::loadLessonText(launchSpecJson(spec, "t", "", src("lessons/vector-add/kernel.ptx").string()), src("."), "spec");
    runtime::SimDevice dev2;
    CHECK_FALSE(runtime::runLesson(bad, {}, dev2).checks[0].passed);
    // Keeping the user's settings across a rebuild.
    LaunchSpec kept = refreshLaunchSpec(spec, sigs[0]);
    CHECK(kept.block[0] == 128);
    CHECK(kept.args[1].constant == 0.5);
    // Bad specs are messages.
    spec.args[2].expect = "1, two";
    CHECK_THROWS_WITH(launchSpecJson(spec, "t", "", "k.ptx"), Catch::Contains("numbers separated by commas"));
    spec.args[2].expect.clear();
    spec.block[1] = 0;
    CHECK_THROWS_WITH(launchSpecJson(spec, "t", "", "k.ptx"), Catch::Contains("at least 1"));
}

TEST_CASE("editor builds: errors at their lines, the last good build stays, a good build runs and saves as a lesson", "[editor]") {
    TempDir dir("build");
    EditorModel ed{fs::path()};
    ed.newFromTemplate("tile");
    buildAndTake(ed);
    INFO(ed.lastBuild()->result.log << ed.lastBuild()->result.error);
    REQUIRE(ed.lastGood());
    REQUIRE(ed.kernels().size() == 1);
    CHECK(ed.kernels()[0].name == "reverse_tiles");
    CHECK(ed.launch().args[0].type == "s32");
    const std::string goodPtx = ed.lastGood()->result.ptx;

    // Line 9 gets an undeclared name: the error is at line 9; the good build is kept.
    std::string broken = ed.text();
    size_t at = broken.find("tile[threadIdx.x] = in[i];");
    REQUIRE(at != std::string::npos);
    broken.replace(at, 26, "tile[threadIdx.x] = nope[i];");
    ed.edit(broken, 50);
    buildAndTake(ed);
    CHECK(ed.lastBuildFailed());
    auto d = ed.diagnostics();
    REQUIRE_FALSE(d.empty());
    CHECK(d[0].severity == compile::Diagnostic::Severity::Error);
    CHECK(d[0].line == 9);
    CHECK_THAT(d[0].message, Catch::Contains("nope"));
    REQUIRE(ed.lastGood());
    CHECK(ed.lastGood()->result.ptx == goodPtx);
    CHECK(ed.kernels().size() == 1);
    CHECK(ed.text() == broken);   // the text is never touched by a build

    // Back to the good text; the spec runs on the simulator: every element reversed per tile.
    REQUIRE(ed.undo());
    buildAndTake(ed);
    REQUIRE_FALSE(ed.lastBuildFailed());
    ed.launch().args[0].init = BufferInit::Iota;
    ed.launch().args[1].expect = "255, 254, 253";
    runtime::Lesson L = ed.runnableLesson();
    runtime::SimDevice dev;
    runtime::RunResult r = runtime::runLesson(L, {}, dev);
    REQUIRE(r.checks.size() == 1);
    CHECK(r.checks[0].passed);

    // Save as lesson: the folder loads and runs as any lesson does.
    std::string err;
    REQUIRE(ed.saveAsLesson(dir.path / "mine", &err));
    for (const char* f : {"kernel.cu", "kernel.ptx", "lesson.json", "steps.md"}) CHECK(fs::exists(dir.path / "mine" / f));
    runtime::Lesson saved = runtime::loadLesson(dir.path / "mine");
    CHECK(saved.id == "mine");
    runtime::SimDevice dev2;
    CHECK(runtime::runLesson(saved, {}, dev2).allChecksPassed());
}

TEST_CASE("editor builds: a missing compiler and a PTX file are clear outcomes, never a crash", "[editor]") {
    EditorModel ed{fs::path()};
    // A compiler this machine lacks (NVRTC needs a CUDA toolkit's library) is a message.
    bool haveNvrtc = false;
    for (auto& c : compile::available()) haveNvrtc = haveNvrtc || c.compiler == compile::Compiler::Nvrtc;
    ed.newFromTemplate("1d");
    if (!haveNvrtc) {
        compile::Options o;
        o.compiler = compile::Compiler::Nvrtc;
        buildAndTake(ed, o);
        CHECK(ed.lastBuildFailed());
        CHECK_FALSE(ed.buildError().empty());
        CHECK_FALSE(ed.lastGood());
    }
    // A .ptx opens as PTX and runs as written.
    std::string err;
    REQUIRE(ed.open(src("lessons/vector-add/kernel.ptx"), &err));
    CHECK(ed.isPtx());
    buildAndTake(ed, compile::Options{});
    REQUIRE(ed.lastGood());
    REQUIRE(ed.kernels().size() == 1);
    CHECK(ed.kernels()[0].params[0].pointer);
    // PTX with a mistake is a failed build with the mistake at its line; the good build stays.
    TempDir dir("ptx");
    std::string text = readAll(src("lessons/vector-add/kernel.ptx"));
    size_t ret = text.find("\tret;");
    REQUIRE(ret != std::string::npos);
    text.replace(ret, 5, "\tadd.s32 %r1, , 1;");
    int line = 1;
    for (size_t i = 0; i < ret; ++i) line += text[i] == '\n';
    REQUIRE(writeFileAtomic(dir.path / "bad.ptx", text));
    REQUIRE(ed.open(dir.path / "bad.ptx", &err));
    buildAndTake(ed, compile::Options{});
    CHECK(ed.lastBuildFailed());
    REQUIRE(ed.diagnostics().size() == 1);
    CHECK(ed.diagnostics()[0].line == line);
    CHECK(ed.lastGood());
    // The lesson's own kernel.cu, opened alone, launches as its lesson.json says.
    REQUIRE(ed.open(src("lessons/vector-add/kernel.cu"), &err));
    CHECK(ed.besideLesson() == src("lessons/vector-add/lesson.json"));
}

TEST_CASE("editor builds: an unsupported feature is an error at the student's line, and the text stays", "[editor]") {
    EditorModel ed{fs::path()};
    ed.newFromTemplate("1d");
    std::string text = ed.text();
    size_t at = text.find("        y[i] = a * x[i] + y[i];");
    REQUIRE(at != std::string::npos);
    text.insert(at, "        printf(\"%f\\n\", x[i]);\n");   // line 6 of the template
    ed.edit(text, 0);
    buildAndTake(ed);
    CHECK(ed.lastBuildFailed());
    auto d = ed.diagnostics();
    REQUIRE_FALSE(d.empty());
    CHECK(d[0].severity == compile::Diagnostic::Severity::Error);
    CHECK(d[0].file != compile::kPreludeName);
    CHECK(d[0].line == 6);
    CHECK_THAT(d[0].message, Catch::Contains("printf is not supported by the simulator"));
    CHECK(ed.text() == text);
}
