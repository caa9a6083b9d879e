// The kernel editor's model: text and undo, atomic autosave and recovery, builds with errors
// mapped to lines (clang, always installed), launch specs made from signatures and run on the
// simulator, Save as lesson.
#include "gui/model/editor.hpp"

#include "base/error.hpp"
#include "runtime/lesson.hpp"
#include "runtime/sim_device.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <functional>
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

TEST_CASE("the Launch panel's spec: dynamic shared memory for a kernel with an extern __shared__ array", "[editor]") {
    std::string ptx = readAll(src("lessons/stencil-1d/kernel.ptx"));
    auto sigs = parsePtxEntries(ptx);
    REQUIRE(sigs.size() == 2);
    CHECK(sigs[0].dynamicShared);   // stencil and stencil_no_sync both index temp[]
    CHECK(sigs[1].dynamicShared);
    CHECK_FALSE(parsePtxEntries(readAll(src("lessons/vector-add/kernel.ptx")))[0].dynamicShared);
    LaunchSpec spec = defaultLaunchSpec(sigs[0]);
    CHECK(spec.sharedBytes == 4 * 256);
    // The launch gets the bytes (the third <<< >>> value); without them the kernel's shared
    // accesses are out of bounds.
    spec.block[0] = 64;
    spec.sharedBytes = (64 + 2 * 3) * 4;
    std::string json = launchSpecJson(spec, "t", "", src("lessons/stencil-1d/kernel.ptx").string());
    CHECK(json.find("\"shared\": 280") != std::string::npos);
    runtime::Lesson L = runtime::loadLessonText(json, src("."), "spec");
    runtime::SimDevice dev;
    CHECK_NOTHROW(runtime::runLesson(L, {}, dev));
    spec.sharedBytes = 0;
    runtime::Lesson none = runtime::loadLessonText(launchSpecJson(spec, "t", "", src("lessons/stencil-1d/kernel.ptx").string()), src("."), "spec");
    runtime::SimDevice dev2;
    CHECK_THROWS_AS(runtime::runLesson(none, {}, dev2), Error);
    CHECK(refreshLaunchSpec(spec, sigs[0]).sharedBytes == 0);   // the user's value is kept
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

// ---------------------------------------------------------------- never lose the learner's text
namespace {
// A kernel file with unsaved text typed into it, autosaved.
void typeUnsaved(EditorModel& ed, const fs::path& file, const std::string& typed) {
    std::string err;
    REQUIRE(ed.open(file, &err));
    ed.edit(ed.text() + typed, 50.0);
    REQUIRE(ed.autosaveNow());
    REQUIRE(ed.dirty());
}
} // namespace

TEST_CASE("unsaved text: New, Open, closing and switching lessons ask Save / Discard / Cancel", "[editor]") {
    TempDir dir("leave");
    fs::path autosave = dir.path / "settings" / "editor-autosave.json";
    fs::path a = dir.path / "a.cu", b = dir.path / "b.cu";
    REQUIRE(writeFileAtomic(a, "// a\n"));
    REQUIRE(writeFileAtomic(b, "// b\n"));
    const std::string typed = "// typed in a\n";
    std::string err;

    // The four actions that replace or close the editor's text, as the app runs them.
    struct Path {
        const char* name;
        std::function<void(EditorModel&, bool&)> act;
    };
    std::vector<Path> paths = {
        {"File > New kernel", [](EditorModel& ed, bool& ran) { ed.newFromTemplate("1d"); ran = true; }},
        {"File > Open", [&](EditorModel& ed, bool& ran) { std::string e; REQUIRE(ed.open(b, &e)); ran = true; }},
        {"closing the window", [](EditorModel&, bool& ran) { ran = true; }},
        {"switching to a lesson", [](EditorModel& ed, bool& ran) { ed.close(); ran = true; }},
    };
    for (auto& p : paths) {
        INFO(p.name);
        REQUIRE(writeFileAtomic(a, "// a\n"));
        fs::remove(autosave);
        // Cancel: nothing happens, the text and its autosave stay.
        {
            EditorModel ed(autosave);
            typeUnsaved(ed, a, typed);
            LeaveGuard guard;
            bool ran = false;
            CHECK_FALSE(guard.ask(ed, p.name, [&] { p.act(ed, ran); }));
            CHECK(guard.pending());
            CHECK_FALSE(ran);
            CHECK(guard.answer(ed, LeaveAnswer::Cancel));
            CHECK_FALSE(guard.pending());
            CHECK_FALSE(ran);
            CHECK(ed.text() == "// a\n" + typed);
            CHECK(ed.dirty());
            REQUIRE(findRecovery(autosave));
            CHECK(findRecovery(autosave)->text == "// a\n" + typed);
        }
        // Discard: the action runs; the file is untouched and nothing is offered later.
        {
            EditorModel ed(autosave);
            typeUnsaved(ed, a, typed);
            LeaveGuard guard;
            bool ran = false;
            CHECK_FALSE(guard.ask(ed, p.name, [&] { p.act(ed, ran); }));
            CHECK(guard.answer(ed, LeaveAnswer::Discard));
            CHECK(ran);
            CHECK(readAll(a) == "// a\n");
            for (auto& r : findRecoveries(autosave)) CHECK(r.file != fs::absolute(a));
        }
        // Save: the text is in the file, then the action runs.
        {
            EditorModel ed(autosave);
            typeUnsaved(ed, a, typed);
            LeaveGuard guard;
            bool ran = false;
            CHECK_FALSE(guard.ask(ed, p.name, [&] { p.act(ed, ran); }));
            CHECK(guard.answer(ed, LeaveAnswer::Save, &err));
            CHECK(ran);
            CHECK(readAll(a) == "// a\n" + typed);
            for (auto& r : findRecoveries(autosave)) CHECK(r.file != fs::absolute(a));
        }
        // Nothing unsaved: no question, the action runs at once.
        {
            EditorModel ed(autosave);
            REQUIRE(ed.open(a, &err));
            LeaveGuard guard;
            bool ran = false;
            CHECK(guard.ask(ed, p.name, [&] { p.act(ed, ran); }));
            CHECK(ran);
            CHECK_FALSE(guard.pending());
        }
    }

    // A new kernel has no file: Save asks for a name first, then runs the action.
    {
        fs::remove(autosave);
        EditorModel ed(autosave);
        ed.newFromTemplate("tile");
        ed.edit(ed.text() + "// mine\n", 10.0);
        LeaveGuard guard;
        bool ran = false;
        CHECK_FALSE(guard.ask(ed, "open b.cu", [&] { ran = ed.open(b, &err); }));
        CHECK_FALSE(guard.answer(ed, LeaveAnswer::Save, &err));
        CHECK(guard.needsName());
        CHECK(guard.pending());
        CHECK_FALSE(ran);
        fs::path named = dir.path / "mine.cu";
        REQUIRE(ed.saveAs(named, &err));
        CHECK(guard.answer(ed, LeaveAnswer::Save, &err));
        CHECK(ran);
        CHECK(ed.file() == fs::absolute(b));
        CHECK_THAT(readAll(named), Catch::Contains("// mine"));
    }
}

TEST_CASE("the autosave keeps every file's unsaved text until it is saved or discarded", "[editor]") {
    TempDir dir("autosave-many");
    fs::path autosave = dir.path / "settings" / "editor-autosave.json";
    fs::path a = dir.path / "a.cu", b = dir.path / "b.cu";
    REQUIRE(writeFileAtomic(a, "// a\n"));
    REQUIRE(writeFileAtomic(b, "// b\n"));
    std::string err;
    EditorModel ed(autosave);
    typeUnsaved(ed, a, "// typed in a\n");
    // Leaving a's text unsaved (a crash, or a path past the question): the next file and a new
    // kernel are autosaved beside it, never over it.
    typeUnsaved(ed, b, "// typed in b\n");
    ed.newFromTemplate("1d");
    REQUIRE(ed.autosaveNow());
    std::vector<Recovery> all = findRecoveries(autosave);
    REQUIRE(all.size() == 3);
    CHECK(all[0].file.empty());   // the most recent first
    CHECK(all[1].file == fs::absolute(b));
    CHECK(all[1].text == "// b\n// typed in b\n");
    CHECK(all[2].file == fs::absolute(a));
    CHECK(all[2].text == "// a\n// typed in a\n");
    // Restoring a's text and saving it drops its entry only.
    ed.recover(all[2]);
    REQUIRE(ed.save(&err));
    all = findRecoveries(autosave);
    REQUIRE(all.size() == 2);
    for (auto& r : all) CHECK(r.file != fs::absolute(a));
    // Discarding b's text drops its entry and shows b's file again.
    ed.recover(all[1].file == fs::absolute(b) ? all[1] : all[0]);
    CHECK(ed.dirty());
    ed.discard();
    CHECK_FALSE(ed.dirty());
    CHECK(ed.text() == "// b\n");
    all = findRecoveries(autosave);
    REQUIRE(all.size() == 1);
    CHECK(all[0].file.empty());
    // The one-entry autosave of earlier versions is still offered.
    REQUIRE(writeFileAtomic(autosave, R"({"file": ")" + a.string() + R"(", "text": "// old format\n", "saved_at": "then"})"));
    REQUIRE(findRecovery(autosave));
    CHECK(findRecovery(autosave)->text == "// old format\n");
    CHECK(forgetAutosaved(autosave, a));
    CHECK_FALSE(findRecovery(autosave));
}

TEST_CASE("a fixed compile error is unmarked when undo brings back the good text", "[editor]") {
    EditorModel ed{fs::path()};
    ed.newFromTemplate("1d");
    buildAndTake(ed);
    REQUIRE(ed.lastGood());
    std::string good = ed.text();
    ed.edit(good + "this is not C++\n", 10);
    buildAndTake(ed);
    REQUIRE(ed.lastBuildFailed());
    REQUIRE_FALSE(ed.diagnostics().empty());
    REQUIRE(ed.undo());
    REQUIRE(ed.text() == good);
    // The text equals the last good build: no compile, and the failed build's marks go at once.
    ed.build(clangOptions());
    CHECK_FALSE(ed.building());
    CHECK(ed.poll());   // a result, as a finished build is (the app runs it)
    CHECK_FALSE(ed.lastBuildFailed());
    CHECK(ed.diagnostics().empty());
    CHECK(ed.buildError().empty());
    CHECK_FALSE(ed.poll());
}

TEST_CASE("the Launch panel's first spec runs each template and starter as it is", "[editor]") {
    struct Case {
        std::string what;
        std::string file;   // empty: a template
        std::string templ;
        bool twoD;
    };
    std::vector<Case> cases = {
        {"1D template", "", "1d", false},
        {"2D template", "", "2d", true},
        {"tile template", "", "tile", false},
        {"vector-add bounds-check", "lessons/vector-add/exercises/bounds-check/starter.cu", "", false},
        {"vector-add grid-stride", "lessons/vector-add/exercises/grid-stride/starter.cu", "", false},
        {"coalescing thread-mapping", "lessons/coalescing/exercises/thread-mapping/starter.cu", "", false},
        {"coalescing row-major-2d", "lessons/coalescing/exercises/row-major-2d/starter.cu", "", true},
        {"bank-conflicts transpose", "lessons/bank-conflicts/exercises/pad-the-tile/starter.cu", "", true},
        {"divergence warp-uniform", "lessons/divergence/exercises/warp-uniform/starter.cu", "", false},
    };
    for (auto& c : cases) {
        INFO(c.what);
        EditorModel ed{fs::path()};
        std::string err;
        if (c.file.empty()) ed.newFromTemplate(c.templ);
        else REQUIRE(ed.open(src(c.file), &err));
        buildAndTake(ed);
        INFO(ed.lastBuild()->result.log << ed.lastBuild()->result.error);
        REQUIRE(ed.lastGood());
        const LaunchSpec& s = ed.launch();
        CHECK((s.grid[1] > 1) == c.twoD);   // a 2D kernel gets a 2D grid of 2D blocks
        CHECK((s.block[1] > 1) == c.twoD);
        for (auto& a : s.args)
            if (!a.pointer) CHECK(a.value <= 1024);
        runtime::SimDevice dev;
        CHECK_NOTHROW(runtime::runLesson(ed.runnableLesson(), {}, dev));   // no fault
    }
    // Names say what an integer is: a radius is small, a count is the buffers' length.
    KernelSignature k;
    k.name = "stencil";
    k.params = {{"in", "const float*", true, "f32"}, {"out", "float*", true, "f32"}, {"n", "int", false, "s32"}, {"radius", "int", false, "s32"}};
    LaunchSpec s = defaultLaunchSpec(k);
    CHECK(s.args[2].value == 1024);
    CHECK(s.args[3].value == 3);
    CHECK(s.args[0].count == 1024);
    k.twoD = true;
    s = defaultLaunchSpec(k);
    CHECK(s.args[2].value == 32);   // the side of a 32 x 32 matrix
    CHECK(s.grid[0] * s.block[0] == 32);
    CHECK(s.grid[1] * s.block[1] == 32);
}

TEST_CASE("auto-indent: a new line keeps the indentation, one level more after '{'", "[editor]") {
    std::string t = "void f()\n{\n    if (x) {\n";
    CHECK(autoIndent(t, t.size()) == "        ");
    t = "    int i = 0;\n";
    CHECK(autoIndent(t, t.size()) == "    ");
    t = "{\n";
    CHECK(autoIndent(t, t.size()) == "    ");
    t = "\tx;\n";
    CHECK(autoIndent(t, t.size()) == "\t");
    t = "x;\n";
    CHECK(autoIndent(t, t.size()).empty());
    t = "\n";
    CHECK(autoIndent(t, 1).empty());
    CHECK(autoIndent("abc", 2).empty());   // not just after a newline
    // In the middle of the text: the line before the cursor counts.
    t = "  a {\n}\n";
    CHECK(autoIndent(t, 6) == "      ");
}
