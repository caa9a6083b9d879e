// The compile layer in the browser (compile_web.hpp): a synchronous XMLHttpRequest to the page's
// server, made on the calling thread. The models compile on their background runners. In the
// threaded build those are Web Workers, where a synchronous request is allowed and blocks nothing
// the learner sees. In the single-thread build (a page that is not cross-origin isolated) they are
// fibers on the page's one thread (app/gui/web/green_threads.cpp): the request holds the page for
// the compile's time, after a frame that shows the editor's "building..." (docs/web.md).
#include "compile/compile_web.hpp"

#include <emscripten.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <mutex>

namespace warpscope::compile {

namespace {
std::mutex g_mutex;
bool g_present = false;
std::string g_version, g_token;
std::vector<std::string> g_compilers;
} // namespace

// POST `body` to `url` (relative to the page) and return {"status":N,"body":"..."} as a malloc'd
// string; status 0 means no answer (a static copy of the page, a network error, a time-out).
EM_JS(char*, warpscope_post_sync, (const char* url, const char* body, const char* token, int timeoutMs), {
    var out;
    try {
        var x = new XMLHttpRequest();
        x.open('POST', UTF8ToString(url), false);
        try { if (typeof window === 'undefined') x.timeout = timeoutMs; } catch (e) {}
        x.setRequestHeader('Content-Type', 'application/json');
        var tok = UTF8ToString(token);
        if (tok.length) x.setRequestHeader('Authorization', 'Bearer ' + tok);
        x.send(UTF8ToString(body));
        out = JSON.stringify({status: x.status, body: x.responseText});
    } catch (e) {
        out = JSON.stringify({status: 0, body: String(e)});
    }
    var n = lengthBytesUTF8(out) + 1;
    var p = _malloc(n);
    stringToUTF8(out, p, n);
    return p;
});

void setWebServer(bool present, const std::string& version, const std::vector<std::string>& compilers, const std::string& token) {
    std::lock_guard lock(g_mutex);
    g_present = present;
    g_version = version;
    g_compilers = compilers;
    g_token = token;
}

bool webServerPresent() {
    std::lock_guard lock(g_mutex);
    return g_present;
}

const char* noServerMessage() {
    return "compiling needs a server: this copy of the page has none. Open the page that `warpscope serve` serves (it compiles with "
           "clang on that machine); bundled lessons and exercises run here without it, and a .ptx file opens without compiling";
}

std::vector<CompilerInfo> webCompilers() {
    std::lock_guard lock(g_mutex);
    std::vector<CompilerInfo> out;
    if (!g_present) return out;
    for (const std::string& c : g_compilers)
        if (auto k = parseCompiler(c)) out.push_back({*k, "warpscope serve " + g_version + " (this page's server)"});
    if (out.empty()) out.push_back({Compiler::Clang, "warpscope serve " + g_version + " (this page's server)"});
    return out;
}

Result webCompile(const std::string& source, const std::string& fileName, const Options& options) {
    Result r;
    std::string token;
    {
        std::lock_guard lock(g_mutex);
        if (!g_present) {
            r.error = noServerMessage();
            return r;
        }
        token = g_token;
    }
    nlohmann::json req = {{"source", source}, {"file", fileName}, {"arch", options.arch}};
    r.command = "POST api/compile (" + fileName + ", " + options.arch + ")";
    const int timeoutMs = static_cast<int>((options.timeoutSeconds + 15) * 1000);
    char* raw = warpscope_post_sync("api/compile", req.dump().c_str(), token.c_str(), timeoutMs);
    nlohmann::json reply = nlohmann::json::parse(raw, nullptr, false);
    std::free(raw);
    const int status = reply.is_object() ? reply.value("status", 0) : 0;
    const std::string body = reply.is_object() ? reply.value("body", std::string()) : std::string();
    nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
    if (status == 0) {
        r.error = "the server did not answer (" + body + "); is `warpscope serve` still running?";
        return r;
    }
    if (status != 200 || !j.is_object()) {
        std::string why = j.is_object() && j.contains("error") && j["error"].is_string() ? j["error"].get<std::string>() : body.substr(0, 300);
        r.error = "the server refused the compile (HTTP " + std::to_string(status) + "): " + why;
        r.timedOut = status == 504;
        return r;
    }
    r.ok = j.value("ok", false);
    r.ptx = j.value("ptx", std::string());
    r.timedOut = j.value("timedOut", false);
    if (auto c = parseCompiler(j.value("compiler", std::string("clang")))) r.used = *c;
    if (j.contains("error") && j["error"].is_string()) r.error = j["error"].get<std::string>();
    if (j.contains("diagnostics") && j["diagnostics"].is_array()) {
        for (const auto& d : j["diagnostics"]) {
            if (!d.is_object()) continue;
            Diagnostic x;
            x.file = d.value("file", fileName);
            x.line = d.value("line", 0);
            x.column = d.value("column", 0);
            const std::string sev = d.value("severity", std::string("error"));
            x.severity = sev == "warning" ? Diagnostic::Severity::Warning : sev == "note" ? Diagnostic::Severity::Note : Diagnostic::Severity::Error;
            x.message = d.value("message", std::string());
            r.log += x.text() + "\n";
            r.diagnostics.push_back(std::move(x));
        }
    }
    if (r.ok && r.ptx.empty()) {
        r.ok = false;
        if (r.error.empty()) r.error = "the server said the compile succeeded but sent no PTX";
    }
    return r;
}

} // namespace warpscope::compile
