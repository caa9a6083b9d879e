// A whole program in the app (gui/model/program_model, console_model): the Console's lines; the
// build's diagnostics for host and device code; the pause/continue protocol with the sandboxed
// child, each paused launch loaded into a Session as a lesson and stepped to its end with the
// program's own device memory (addresses kept: pointers stored in device memory still work); and
// the app surviving a host-code crash, exit(1) and an endless loop (Stop).
#include "gui/model/console_model.hpp"
#include "gui/model/program_model.hpp"
#include "gui/model/session.hpp"

#include <catch2/catch.hpp>

#include <csignal>
#include <unistd.h>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace warpscope;
using namespace warpscope::gui;
namespace fs = std::filesystem;

namespace {

fs::path fixture(const std::string& name) { return fs::path(WARPSCOPE_SOURCE_DIR) / "tests/app/fixtures" / name; }
fs::path program(const std::string& name) { return fs::path(WARPSCOPE_SOURCE_DIR) / "tests/programs" / name; }

std::string readText(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// Opens and builds `file`; the model is Built (or BuildFailed) after.
void openAndBuild(ProgramModel& m, const fs::path& file) {
    m.open(file);
    m.build(readText(file));
    REQUIRE(m.waitBuild(300));
    m.poll();
}

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

} // namespace

TEST_CASE("console: lines from stdout and stderr as they come, partial lines, notes, and the cap", "[console]") {
    ConsoleModel c;
    const uint64_t r0 = c.revision();
    c.append(ConsoleStream::Out, "hello ");
    auto l = c.lines();
    REQUIRE(l.size() == 1);   // a partial line shows
    CHECK(l[0].text == "hello ");
    c.append(ConsoleStream::Out, "world\nsecond");
    c.append(ConsoleStream::Err, "oops\r\n");
    l = c.lines();
    REQUIRE(l.size() == 3);
    CHECK(l[0].text == "hello world");
    CHECK(l[0].stream == ConsoleStream::Out);
    CHECK(l[1].text == "oops");   // a CRLF line ends without its CR
    CHECK(l[1].stream == ConsoleStream::Err);
    CHECK(l[2].text == "second");   // still partial: after the complete lines
    c.note("warpscope: ended");
    l = c.lines();
    REQUIRE(l.size() == 4);
    CHECK(l[2].text == "second");   // the note ended the partial line first
    CHECK(l[2].stream == ConsoleStream::Out);
    CHECK(l[3].stream == ConsoleStream::Note);
    CHECK(c.revision() > r0);
    CHECK(c.text() == "hello world\noops\nsecond\nwarpscope: ended\n");
    for (size_t i = 0; i < ConsoleModel::kMaxLines + 5; ++i) c.append(ConsoleStream::Out, "x\n");
    CHECK(c.dropped() == 9);   // the 4 lines before and 5 more than the cap
    l = c.lines();
    CHECK(l.front().text == "(9 earlier lines dropped)");
    CHECK(l.size() == ConsoleModel::kMaxLines + 1);
    c.clear();
    CHECK(c.lines().empty());
}

TEST_CASE("program: a source with a main is a whole program; a kernel file, or main in a comment or string, is not", "[program]") {
    CHECK(ProgramModel::isWholeProgram(readText(program("add.cu"))));
    CHECK(ProgramModel::isWholeProgram(readText(fixture("program-launches.cu"))));
    CHECK_FALSE(ProgramModel::isWholeProgram(readText(fixture("student-kernel.cu"))));
    CHECK_FALSE(ProgramModel::isWholeProgram("__global__ void k() {}\n// int main() { }\n"));
    CHECK_FALSE(ProgramModel::isWholeProgram("__global__ void k() { printf(\"int main()\"); }\n/* int main(void) */"));
    CHECK(ProgramModel::isWholeProgram("#include <cstdio>\nint main(int argc, char** argv) { return 0; }\n"));
    CHECK(ProgramModel::isWholeProgram("auto main() -> int { return 0; }"));
}

TEST_CASE("program: build errors in host and device code come back at their lines", "[program]") {
    ProgramModel m;
    openAndBuild(m, fixture("program-host-error.cu"));
    CHECK(m.state() == ProgramModel::State::BuildFailed);
    auto d = m.diagnostics();
    bool host = false, device = false;
    for (auto& x : d) {
        CHECK(x.file == "program-host-error.cu");
        host = host || (x.line == 10 && has(x.message, "undefined_on_host"));
        device = device || (x.line == 5 && has(x.message, "undefined_in_kernel"));
    }
    CHECK(host);
    CHECK(device);
    std::string error;
    CHECK_FALSE(m.run(&error));   // nothing good to run
    CHECK(has(error, "build the program first"));
    CHECK(has(m.console().text(), "did not build"));
}

TEST_CASE("program: pauses at each launch; the launch steps in a Session with the program's memory; Continue goes on", "[program]") {
    ProgramModel m;
    openAndBuild(m, fixture("program-launches.cu"));
    REQUIRE(m.state() == ProgramModel::State::Built);
    std::string error;
    REQUIRE(m.run(&error));
    REQUIRE(m.waitFor({ProgramModel::State::Paused, ProgramModel::State::Ended}, 120));
    REQUIRE(m.state() == ProgramModel::State::Paused);
    std::optional<PausedLaunch> p = m.takePaused();
    REQUIRE(p);
    CHECK_FALSE(m.takePaused());   // once per pause
    CHECK(p->index == 0);
    CHECK(has(p->kernel, "scale(float*, float, int)<<<(2,1,1), (128,1,1)>>>"));
    CHECK(p->grid[0] == 2);
    CHECK(p->block[0] == 128);
    REQUIRE(p->args.size() == 3);
    CHECK(has(p->args[0], "device pointer: allocation m0001 + 0 bytes"));   // m0000 is the freed gap
    CHECK(p->args[1] == "4 bytes: 0x40000000");                             // 2.0f
    CHECK(p->args[2] == "4 bytes: 0x00000100");                             // 256
    CHECK(has(m.console().text(), "launching scale"));                     // printed before the pause
    CHECK_FALSE(has(m.console().text(), "launching sumRows"));             // the child waits
    // The Timeline follows the program: at the first pause, the two copies in and no kernel yet.
    auto count = [](const std::shared_ptr<const runtime::Timeline>& tl, runtime::TimelineKind k) {
        int n = 0;
        for (auto& op : tl->ops) n += op.kind == k;
        return n;
    };
    std::shared_ptr<const runtime::Timeline> soFar = m.timeline();
    REQUIRE(soFar);
    CHECK(count(soFar, runtime::TimelineKind::CopyHtoD) == 2);
    CHECK(count(soFar, runtime::TimelineKind::Kernel) == 0);

    // The app's path: the launch is a lesson, loaded into a Session and stepped to its end.
    {
        Session s;
        s.load(p->lesson, {});
        REQUIRE(s.waitIdle(60));
        CHECK(s.snapshot()->state == RunState::Paused);
        s.runToEnd();
        REQUIRE(s.waitIdle(60));
        auto snap = s.snapshot();
        CHECK_FALSE(snap->error);
        CHECK(snap->totalSteps > 0);
    }

    m.continueRun();
    REQUIRE(m.waitFor({ProgramModel::State::Paused, ProgramModel::State::Ended}, 120));
    REQUIRE(m.state() == ProgramModel::State::Paused);
    p = m.takePaused();
    REQUIRE(p);
    CHECK(p->index == 1);
    CHECK(has(p->kernel, "sumRows"));
    soFar = m.timeline();
    REQUIRE(soFar);
    CHECK(count(soFar, runtime::TimelineKind::Kernel) == 1);   // scale ran; sumRows waits
    CHECK(count(soFar, runtime::TimelineKind::CopyDtoH) == 0);
    {
        // sumRows follows pointers read from device memory: they are right only where the replay
        // put every allocation at the program's own address.
        Session s;
        s.load(p->lesson, {});
        REQUIRE(s.waitIdle(60));
        s.runToEnd();
        REQUIRE(s.waitIdle(60));
        auto snap = s.snapshot();
        INFO((snap->error ? snap->error->message : std::string("no error")));
        CHECK_FALSE(snap->error);
        CHECK(snap->state != RunState::Faulted);
    }
    m.continueRun();
    REQUIRE(m.waitFor({ProgramModel::State::Ended}, 120));
    const std::string text = m.console().text();
    CHECK(has(text, "launching sumRows"));
    // Row r of x*2 sums 2 * (64r + 0..63): 4032, 12224, 20416, 28608.
    CHECK(has(text, "row 0: 4032\nrow 1: 12224\nrow 2: 20416\nrow 3: 28608\n"));
    CHECK(has(text, "done: cudaSuccess"));
    CHECK(has(text, "the program exited with code 0"));
    CHECK(m.lastResult().exited);
    CHECK(m.lastResult().exitCode == 0);
    CHECK(m.launchesSeen() == 2);
}

TEST_CASE("program: without pauses, or past the pause limit, the program runs straight through", "[program]") {
    ProgramModel m;
    openAndBuild(m, fixture("program-launches.cu"));
    m.pauseMaxThreads = 64;   // scale's 256 threads are past it; sumRows' 4 are not
    std::string error;
    REQUIRE(m.run(&error));
    REQUIRE(m.waitFor({ProgramModel::State::Paused, ProgramModel::State::Ended}, 120));
    REQUIRE(m.state() == ProgramModel::State::Paused);
    auto p = m.takePaused();
    REQUIRE(p);
    CHECK(p->index == 1);
    CHECK(has(m.console().text(), "launch 0 runs without a pause: 256 threads, more than the pause limit of 64"));
    m.runToEnd();
    REQUIRE(m.waitFor({ProgramModel::State::Ended}, 120));
    CHECK(m.lastResult().exitCode == 0);

    m.pauseAtLaunches = false;
    REQUIRE(m.run(&error));
    REQUIRE(m.waitFor({ProgramModel::State::Ended}, 120));
    CHECK_FALSE(m.takePaused());
    CHECK(has(m.console().text(), "row 3: 28608"));
    // The Timeline: the program's own copies and kernels, in its order.
    std::shared_ptr<const runtime::Timeline> tl = m.timeline();
    REQUIRE(tl);
    int kernels = 0, toDevice = 0, toHost = 0;
    std::vector<std::string> kernelLabels;
    for (auto& op : tl->ops) {
        if (op.kind == runtime::TimelineKind::Kernel) {
            ++kernels;
            kernelLabels.push_back(op.label);
        }
        toDevice += op.kind == runtime::TimelineKind::CopyHtoD;
        toHost += op.kind == runtime::TimelineKind::CopyDtoH;
    }
    CHECK(kernels == 2);
    CHECK(toDevice == 2);   // x and the table of row pointers
    CHECK(toHost == 1);     // the sums
    REQUIRE(kernelLabels.size() == 2);
    CHECK(has(kernelLabels[0], "scale"));
    CHECK(has(kernelLabels[1], "sumRows"));
    CHECK(tl->totalUs() > 0);
}

TEST_CASE("program: a host-code crash, exit(1) and an endless loop end the child, never the app", "[program]") {
    ProgramModel m;
    openAndBuild(m, fixture("program-crash.cu"));
    REQUIRE(m.state() == ProgramModel::State::Built);
    m.pauseAtLaunches = false;
    std::string error;
    REQUIRE(m.run(&error));
    REQUIRE(m.waitFor({ProgramModel::State::Ended}, 120));
    sandbox::Result r = m.lastResult();
    CHECK_FALSE(r.exited);
    CHECK(r.signal == SIGSEGV);
    std::string text = m.console().text();
    CHECK(has(text, "h[31] = 31"));   // what it printed before it crashed
    CHECK(has(text, "the program crashed: signal 11"));
    CHECK(has(text, "the app goes on"));
    // The model runs it again: nothing of the crash is left.
    REQUIRE(m.run(&error));
    REQUIRE(m.waitFor({ProgramModel::State::Ended}, 120));
    CHECK(m.lastResult().signal == SIGSEGV);

    openAndBuild(m, fixture("program-exit.cu"));
    REQUIRE(m.run(&error));
    REQUIRE(m.waitFor({ProgramModel::State::Ended}, 120));
    CHECK(m.lastResult().exited);
    CHECK(m.lastResult().exitCode == 1);
    CHECK(has(m.console().text(), "something went wrong"));
    CHECK(has(m.console().text(), "exited with code 1"));

    openAndBuild(m, program("endless.cu"));
    REQUIRE(m.run(&error));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    CHECK(m.state() == ProgramModel::State::Running);
    CHECK_FALSE(m.run(&error));   // one run at a time
    m.stop();
    REQUIRE(m.waitFor({ProgramModel::State::Ended}, 10));
    CHECK(m.lastResult().limit == sandbox::Limit::Stopped);
    CHECK(has(m.console().text(), "the program was stopped"));
}

TEST_CASE("program: Stop while paused at a launch ends the child", "[program]") {
    ProgramModel m;
    openAndBuild(m, fixture("program-launches.cu"));
    std::string error;
    REQUIRE(m.run(&error));
    REQUIRE(m.waitFor({ProgramModel::State::Paused}, 120));
    m.stop();
    REQUIRE(m.waitFor({ProgramModel::State::Ended}, 10));
    CHECK(m.lastResult().limit == sandbox::Limit::Stopped);
    CHECK_FALSE(has(m.console().text(), "launching sumRows"));
}

TEST_CASE("program: arguments split as a shell splits them reach argv; a bad line is refused before Run", "[program]") {
    std::vector<std::string> w;
    std::string error;
    REQUIRE(ProgramModel::splitArguments("  1024  \"two words\" 'it''s' a\\ b \"q\\\"\" ", &w, &error));
    CHECK(w == std::vector<std::string>{"1024", "two words", "its", "a b", "q\""});
    REQUIRE(ProgramModel::splitArguments("", &w, &error));
    CHECK(w.empty());
    REQUIRE(ProgramModel::splitArguments("''", &w, &error));
    CHECK(w == std::vector<std::string>{""});   // an empty argument, as a shell keeps it
    CHECK_FALSE(ProgramModel::splitArguments("\"open", &w, &error));
    CHECK(has(error, "not closed"));
    CHECK_FALSE(ProgramModel::splitArguments("end\\", &w, &error));
    CHECK(has(error, "backslash"));

    const fs::path dir = fs::temp_directory_path() / ("ws-args-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path src = dir / "args.cu";
    std::ofstream(src) << "#include <cstdio>\n"
                          "__global__ void k(int* x) { *x = 1; }\n"
                          "int main(int argc, char** argv) {\n"
                          "    for (int i = 0; i < argc; ++i) if (i) std::printf(\"arg %d: [%s]\\n\", i, argv[i]);\n"
                          "    std::printf(\"argc %d\\n\", argc);\n"
                          "    return 0;\n"
                          "}\n";
    ProgramModel m;
    openAndBuild(m, src);
    REQUIRE(m.state() == ProgramModel::State::Built);
    m.arguments = "7 \"two words\"";
    REQUIRE(m.run(&error));
    REQUIRE(m.waitFor({ProgramModel::State::Ended}, 120));
    const std::string text = m.console().text();
    CHECK(has(text, "arg 1: [7]\narg 2: [two words]\nargc 3\n"));

    m.arguments = "'unclosed";
    CHECK_FALSE(m.run(&error));
    CHECK(has(error, "the arguments: the quote ' is not closed"));
    CHECK(m.state() == ProgramModel::State::Ended);   // the last run's state stays
    fs::remove_all(dir);
}
