// The compile service of `warpscope serve` (compile_service.hpp).
//
// Sections: 1. results as JSON  2. rate limiter  3. queue, workers and sharing
//           4. the sandboxed child (server side)  5. the child itself
#include "serve/compile_service.hpp"

#include "base/sandbox.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace fs = std::filesystem;

namespace warpscope::serve {

// ---------------------------------------------------------------- 1. results as JSON
namespace {
const char* severityName(compile::Diagnostic::Severity s) {
    switch (s) {
    case compile::Diagnostic::Severity::Error: return "error";
    case compile::Diagnostic::Severity::Warning: return "warning";
    case compile::Diagnostic::Severity::Note: return "note";
    }
    return "error";
}
} // namespace

nlohmann::json resultJson(const compile::Result& r) {
    nlohmann::json diags = nlohmann::json::array();
    for (auto& d : r.diagnostics)
        diags.push_back({{"file", d.file}, {"line", d.line}, {"column", d.column}, {"severity", severityName(d.severity)}, {"message", d.message}});
    return {{"ok", r.ok},
            {"ptx", r.ptx},
            {"diagnostics", diags},
            {"error", r.error},
            {"compiler", r.used == compile::Compiler::Auto ? "" : compile::compilerName(r.used)},
            {"timedOut", r.timedOut},
            {"cached", r.cached}};
}

compile::Result resultFromJson(const nlohmann::json& j) {
    compile::Result r;
    r.ok = j.at("ok").get<bool>();
    r.ptx = j.at("ptx").get<std::string>();
    r.error = j.at("error").get<std::string>();
    r.timedOut = j.at("timedOut").get<bool>();
    r.cached = j.value("cached", false);
    r.used = compile::parseCompiler(j.at("compiler").get<std::string>()).value_or(compile::Compiler::Auto);
    for (auto& d : j.at("diagnostics")) {
        compile::Diagnostic x;
        x.file = d.at("file").get<std::string>();
        x.line = d.at("line").get<int>();
        x.column = d.at("column").get<int>();
        const std::string s = d.at("severity").get<std::string>();
        x.severity = s == "warning" ? compile::Diagnostic::Severity::Warning
                   : s == "note"    ? compile::Diagnostic::Severity::Note
                                    : compile::Diagnostic::Severity::Error;
        x.message = d.at("message").get<std::string>();
        r.diagnostics.push_back(std::move(x));
    }
    return r;
}

std::string jobKey(const CompileJob& job) {
    // Two independent 64-bit FNV-1a hashes over the three fields.
    uint64_t a = 0xcbf29ce484222325ULL, b = 0x84222325cbf29ce4ULL;
    for (const std::string* part : {&job.source, &job.file, &job.arch}) {
        for (unsigned char c : *part) {
            a = (a ^ c) * 0x100000001b3ULL;
            b = (b ^ static_cast<unsigned char>(c + 0x5b)) * 0x100000001b3ULL;
        }
        a = (a ^ 0xff) * 0x100000001b3ULL;
        b = (b ^ 0x1f) * 0x100000001b3ULL;
    }
    char buf[40];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(a), static_cast<unsigned long long>(b));
    return buf;
}

// ---------------------------------------------------------------- 2. rate limiter
bool RateLimiter::take(const std::string& client, double* retryAfterSeconds) {
    if (perMinute_ <= 0) return true;
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard<std::mutex> lock(m_);
    if (buckets_.size() > 4096) {   // forget clients whose buckets are full again
        for (auto it = buckets_.begin(); it != buckets_.end();) {
            const double t = it->second.tokens + std::chrono::duration<double>(now - it->second.last).count() * perMinute_ / 60.0;
            it = t >= perMinute_ ? buckets_.erase(it) : std::next(it);
        }
    }
    auto [it, fresh] = buckets_.try_emplace(client, Bucket{perMinute_, now});
    Bucket& b = it->second;
    if (!fresh) {
        b.tokens = std::min(perMinute_, b.tokens + std::chrono::duration<double>(now - b.last).count() * perMinute_ / 60.0);
        b.last = now;
    }
    if (b.tokens >= 1) {
        b.tokens -= 1;
        return true;
    }
    if (retryAfterSeconds) *retryAfterSeconds = (1 - b.tokens) * 60.0 / perMinute_;
    return false;
}

// ---------------------------------------------------------------- 3. queue, workers and sharing
CompileService::CompileService(ServiceConfig config, CompileFn fn) : config_(config), fn_(std::move(fn)) {
    if (config_.workers == 0) config_.workers = 1;
    for (unsigned i = 0; i < config_.workers; ++i) threads_.emplace_back([this] { work(); });
}

CompileService::~CompileService() { stop(); }

CompileService::Ticket CompileService::submit(const CompileJob& job) {
    Ticket t;
    t.submitted = std::chrono::steady_clock::now();
    const std::string key = jobKey(job);
    std::lock_guard<std::mutex> lock(m_);
    if (stopping_) {
        t.kind = Ticket::Kind::Stopping;
        return t;
    }
    auto same = [&](const CompileJob& j) { return j.source == job.source && j.file == job.file && j.arch == job.arch; };
    if (auto it = lruIndex_.find(key); it != lruIndex_.end() && same(it->second->job)) {
        lru_.splice(lru_.begin(), lru_, it->second);
        std::promise<CompileOutcome> p;
        CompileOutcome o = it->second->outcome;
        o.result.cached = true;
        p.set_value(std::move(o));
        t.outcome = p.get_future().share();
        t.shared = true;
        t.started = std::make_shared<std::chrono::steady_clock::time_point>(t.submitted);
        return t;
    }
    auto running = inFlight_.find(key);
    if (running != inFlight_.end() && same(running->second->job)) {
        t.outcome = running->second->future;
        t.started = running->second->started;
        t.shared = true;
        return t;
    }
    if (queue_.size() >= config_.queue) {
        t.kind = Ticket::Kind::QueueFull;
        return t;
    }
    auto p = std::make_shared<Pending>();
    p->key = key;
    p->job = job;
    p->future = p->promise.get_future().share();
    p->started = std::make_shared<std::chrono::steady_clock::time_point>();
    queue_.push_back(p);
    if (running == inFlight_.end()) inFlight_[key] = p;
    t.outcome = p->future;
    t.started = p->started;
    cv_.notify_one();
    return t;
}

void CompileService::work() {
    for (;;) {
        std::shared_ptr<Pending> p;
        {
            std::unique_lock<std::mutex> lock(m_);
            cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) return;   // stopping
            p = queue_.front();
            queue_.pop_front();
            *p->started = std::chrono::steady_clock::now();
            ++runs_;
        }
        CompileOutcome o;
        try {
            o = fn_(p->job, stopping_);
        } catch (const std::exception& e) {
            o.serverError = true;
            o.result.error = std::string("the compile service failed: ") + e.what();
        }
        {
            std::lock_guard<std::mutex> lock(m_);
            remember(*p, o);
            if (auto it = inFlight_.find(p->key); it != inFlight_.end() && it->second == p) inFlight_.erase(it);
        }
        p->promise.set_value(std::move(o));
    }
}

// Keeps a finished result for identical requests; a time-out or a service failure is not kept
// (the next try may succeed).
void CompileService::remember(const Pending& p, const CompileOutcome& o) {
    if (o.serverError || o.result.timedOut || stopping_ || config_.cacheEntries == 0) return;
    if (auto it = lruIndex_.find(p.key); it != lruIndex_.end()) {
        lru_.erase(it->second);
        lruIndex_.erase(it);
    }
    lru_.push_front(Cached{p.key, p.job, o});
    lruIndex_[p.key] = lru_.begin();
    while (lru_.size() > config_.cacheEntries) {
        lruIndex_.erase(lru_.back().key);
        lru_.pop_back();
    }
}

void CompileService::stop() {
    std::deque<std::shared_ptr<Pending>> dropped;
    {
        std::lock_guard<std::mutex> lock(m_);
        if (stopping_ && threads_.empty()) return;
        stopping_ = true;
        dropped.swap(queue_);
        for (auto& p : dropped) inFlight_.erase(p->key);
        cv_.notify_all();
    }
    for (auto& p : dropped) {
        CompileOutcome o;
        o.serverError = true;
        o.result.error = "the server is stopping";
        p->promise.set_value(std::move(o));
    }
    for (auto& t : threads_)
        if (t.joinable()) t.join();
    threads_.clear();
}

size_t CompileService::waiting() {
    std::lock_guard<std::mutex> lock(m_);
    return queue_.size();
}

uint64_t CompileService::compilesRun() {
    std::lock_guard<std::mutex> lock(m_);
    return runs_;
}

// ---------------------------------------------------------------- 4. the sandboxed child (server side)
namespace {
void drain(int fd, std::string& into, bool* open) {
    char buf[16384];
    for (;;) {
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n > 0) {
            into.append(buf, static_cast<size_t>(n));
            continue;
        }
        if (n == 0) *open = false;
        return;   // EAGAIN: nothing more now
    }
}
} // namespace

// What the compiler may not read inside bwrap (an #include of an absolute path reads any file the
// server's user can): the home folders and the shared temporary folders. What it needs from under
// them comes back read-only: warpscope itself and a compiler installed there.
void hiddenFolders(const std::string& exe, std::vector<std::string>& hide, std::vector<std::string>& showAgain) {
    std::error_code ec;
    hide = {"/home", "/root", "/tmp", "/var/tmp", "/mnt", "/media", "/srv", "/run/user"};
    if (const char* h = std::getenv("HOME"); h && *h && fs::path(h) != "/") hide.push_back(fs::weakly_canonical(h, ec).string());
    std::vector<fs::path> needed = {fs::weakly_canonical(exe, ec)};
    for (auto& c : compile::available()) {
        const fs::path p = fs::weakly_canonical(c.path, ec);
        // clang's resource folder and a toolkit's include/ and nvvm/ sit beside its bin/ or lib64/.
        needed.push_back(p.parent_path().parent_path());
    }
    auto under = [](const fs::path& p, const std::string& dir) {
        const std::string s = p.string();
        return s.size() > dir.size() && s.compare(0, dir.size(), dir) == 0 && s[dir.size()] == '/';
    };
    for (auto& p : needed)
        for (auto& h : hide)
            if (under(p, h)) {
                showAgain.push_back(p.string());
                break;
            }
}

CompileFn sandboxedCompiler(SandboxedCompileConfig cfg) {
    std::vector<std::string> hide, showAgain;
    hiddenFolders(cfg.executable, hide, showAgain);
    return [cfg, hide, showAgain](const CompileJob& job, const std::atomic<bool>& cancelled) {
        CompileOutcome out;
        out.result.used = cfg.compiler;
        std::error_code ec;
        fs::create_directories(fs::path(cfg.workRoot) / "jobs", ec);
        std::string tmpl = (fs::path(cfg.workRoot) / "jobs" / "job-XXXXXX").string();
        const int fd = mkstemp(tmpl.data());
        if (fd < 0) {
            out.serverError = true;
            out.result.error = "cannot write the compile job under " + cfg.workRoot;
            return out;
        }
        const std::string jobFile = tmpl;
        const std::string text = nlohmann::json{{"source", job.source}, {"file", job.file}, {"arch", job.arch}}.dump();
        const bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
        close(fd);
        struct Remove {
            std::string f;
            ~Remove() { std::error_code e; fs::remove(f, e); }
        } remove{jobFile};
        if (!written) {
            out.serverError = true;
            out.result.error = "cannot write the compile job under " + cfg.workRoot;
            return out;
        }

        sandbox::Spec spec;
        char timeout[32];
        std::snprintf(timeout, sizeof timeout, "%g", cfg.timeoutSeconds);
        spec.argv = {cfg.executable, "serve", "--compile-child", jobFile, compile::compilerName(cfg.compiler), timeout};
        spec.env = {{"XDG_CACHE_HOME", (fs::path(cfg.workRoot) / "cache").string()}};
        spec.workDir = cfg.workRoot;   // writable inside bwrap: the job, clang's temporary folder, the PTX cache
        spec.captureOutput = true;
        spec.hide = hide;
        spec.showAgain = showAgain;
        const auto limit = static_cast<uint64_t>(std::ceil(cfg.timeoutSeconds));
        spec.limits.cpuSeconds = limit + 5;
        spec.limits.wallSeconds = limit + 5;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
        spec.limits.memoryMb = 0;   // a sanitizer's shadow memory reserves terabytes of address space
#else
        spec.limits.memoryMb = cfg.memoryMb;
#endif
        spec.limits.fileSizeMb = 256;
        spec.limits.processes = 16;
        sandbox::Runner runner(spec);
        std::string error;
        if (!runner.start(&error)) {
            out.serverError = true;
            out.result.error = "cannot start the compiler's sandbox: " + error;
            return out;
        }
        fcntl(runner.outFd(), F_SETFL, fcntl(runner.outFd(), F_GETFL) | O_NONBLOCK);
        fcntl(runner.errFd(), F_SETFL, fcntl(runner.errFd(), F_GETFL) | O_NONBLOCK);
        std::string stdoutText, stderrText;
        bool outOpen = true, errOpen = true;
        for (;;) {
            pollfd fds[2] = {{runner.outFd(), POLLIN, 0}, {runner.errFd(), POLLIN, 0}};
            poll(fds, 2, 20);
            if (outOpen) drain(runner.outFd(), stdoutText, &outOpen);
            if (errOpen) drain(runner.errFd(), stderrText, &errOpen);
            if (stderrText.size() > 65536) stderrText.erase(0, stderrText.size() - 65536);
            if (cancelled) runner.stop();
            if (runner.poll()) break;
        }
        for (int i = 0; i < 50 && (outOpen || errOpen); ++i) {   // what is left in the pipes
            if (outOpen) drain(runner.outFd(), stdoutText, &outOpen);
            if (errOpen) drain(runner.errFd(), stderrText, &errOpen);
            if (outOpen || errOpen) usleep(1000);
        }
        const sandbox::Result& sr = runner.result();
        if (sr.limit == sandbox::Limit::WallTime || sr.limit == sandbox::Limit::CpuTime) {
            out.result.timedOut = true;
            out.result.error = "the compiler did not finish within " + std::string(timeout) + " s and was stopped";
            return out;
        }
        if (sr.limit == sandbox::Limit::Stopped) {
            out.serverError = true;
            out.result.error = "the server is stopping";
            return out;
        }
        try {
            out.result = resultFromJson(nlohmann::json::parse(stdoutText));
            return out;
        } catch (const std::exception&) {
        }
        // No reply: the child died (memory, a crash of the compiler in NVRTC) or could not start.
        if (!sr.message.empty()) {
            out.result.error = "the compile was stopped: " + sr.message;
        } else if (sr.signal == SIGKILL || sr.signal == SIGSEGV || sr.signal == SIGABRT || sr.signal == SIGBUS) {
            out.result.error = "the compiler crashed (signal " + std::to_string(sr.signal) + "; the sandbox allows " +
                               std::to_string(cfg.memoryMb) + " MiB of address space)";
        } else {
            out.serverError = true;
            std::string tail = stderrText.size() > 400 ? stderrText.substr(stderrText.size() - 400) : stderrText;
            while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.pop_back();
            out.result.error = "the compile child gave no result (exit " + std::to_string(sr.exitCode) + ")" + (tail.empty() ? "" : ": " + tail);
        }
        return out;
    };
}

// ---------------------------------------------------------------- 5. the child itself
int runCompileChild(const std::string& jobFile, const std::string& compilerName, double timeoutSeconds) {
    nlohmann::json job;
    try {
        std::ifstream f(jobFile, std::ios::binary);
        job = nlohmann::json::parse(f);
    } catch (const std::exception& e) {
        std::cerr << "warpscope serve --compile-child: cannot read " << jobFile << ": " << e.what() << "\n";
        return 2;
    }
    compile::Options o;
    o.compiler = compile::parseCompiler(compilerName).value_or(compile::Compiler::Auto);
    o.arch = job.value("arch", "compute_75");
    o.timeoutSeconds = timeoutSeconds;
    const compile::Result r = compile::compileCached(job.value("source", ""), job.value("file", "kernel.cu"), o);
    std::cout << resultJson(r).dump() << std::flush;
    return 0;
}

} // namespace warpscope::serve
