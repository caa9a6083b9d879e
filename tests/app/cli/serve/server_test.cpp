// warpscope serve end to end on an ephemeral port of 127.0.0.1: the web app's files and their
// headers, path traversal, health, the token, size limits, malformed JSON, the rate limit, the
// bounded queue, time limits, slow and vanished clients, concurrent clients, a full connection
// table; [serve-compile]: real clang compiles in the sandboxed child (the built warpscope binary).
#include <catch2/catch.hpp>

#include "base/sandbox.hpp"
#include "compile/compile.hpp"
#include "serve/server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/wait.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <regex>
#include <thread>

namespace fs = std::filesystem;
using namespace warpscope;
using namespace warpscope::serve;

namespace {

// ---------------------------------------------------------------- a tiny client
int connectTo(int port) {
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    // No Catch assertion here: client threads call this, and Catch's assertions are not thread-safe
    // (a failed connection shows as status 0 in the caller's check).
    if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) std::perror("connect");
    timeval tv{20, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
}

void sendText(int fd, const std::string& s) {
    size_t off = 0;
    while (off < s.size()) {
        const ssize_t n = send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
        if (n <= 0) return;   // the server may close early (413): what it said is still read
        off += static_cast<size_t>(n);
    }
}

std::string readAll(int fd) {
    std::string out;
    char buf[65536];
    for (;;) {
        const ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0) break;
        out.append(buf, static_cast<size_t>(n));
    }
    return out;
}

struct Reply {
    int status = 0;
    std::map<std::string, std::string> headers;   // lower-case names
    std::string body;
    nlohmann::json json() const { return nlohmann::json::parse(body); }
};

Reply parseReply(const std::string& raw) {
    Reply r;
    const size_t end = raw.find("\r\n\r\n");
    if (end == std::string::npos) return r;
    std::istringstream head(raw.substr(0, end));
    std::string line;
    std::getline(head, line);
    if (line.size() > 12) r.status = std::stoi(line.substr(9, 3));
    while (std::getline(head, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const size_t colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string name = line.substr(0, colon);
        for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        r.headers[name] = line.substr(colon + 2);
    }
    r.body = raw.substr(end + 4);
    return r;
}

// One request on its own connection ("Connection: close" is added).
Reply exchange(int port, const std::string& method, const std::string& target, const std::string& body = "",
               const std::string& extraHeaders = "") {
    const int fd = connectTo(port);
    std::string req = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + extraHeaders;
    if (method == "POST") req += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    req += "\r\n" + body;
    sendText(fd, req);
    Reply r = parseReply(readAll(fd));
    close(fd);
    return r;
}

std::string compileBody(const std::string& source) { return nlohmann::json{{"source", source}}.dump(); }

// ---------------------------------------------------------------- a fake compiler and a server
// A compile function that answers from the source's text and can be held at a gate.
struct FakeCompiler {
    std::mutex m;
    std::condition_variable cv;
    bool gateOpen = true;
    std::atomic<int> calls{0};
    void close() { std::lock_guard<std::mutex> l(m); gateOpen = false; }
    void open() { { std::lock_guard<std::mutex> l(m); gateOpen = true; } cv.notify_all(); }
    CompileFn fn() {
        return [this](const CompileJob& job, const std::atomic<bool>& cancelled) {
            ++calls;
            {
                std::unique_lock<std::mutex> l(m);
                while (!gateOpen && !cancelled) cv.wait_for(l, std::chrono::milliseconds(20));
            }
            CompileOutcome o;
            o.result.used = compile::Compiler::Clang;
            if (cancelled) {   // as the sandboxed compiler answers when the server stops it
                o.serverError = true;
                o.result.error = "the server is stopping";
            } else if (job.source.find("TIMEOUT") != std::string::npos) {
                o.result.timedOut = true;
                o.result.error = "clang did not finish within 1 s and was stopped";
            } else {
                o.result.ok = true;
                o.result.ptx = "// PTX of " + job.source;
            }
            return o;
        };
    }
};

struct TempFolder {
    fs::path path;
    TempFolder() {
        std::string t = (fs::temp_directory_path() / "warpscope-serve-test-XXXXXX").string();
        REQUIRE(mkdtemp(t.data()));
        path = t;
    }
    ~TempFolder() { std::error_code ec; fs::remove_all(path, ec); }
};

void writeFile(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

struct TestServer {
    std::mutex logMutex;
    std::vector<std::string> logLines;
    std::unique_ptr<CompileService> service;
    std::unique_ptr<Server> server;
    TestServer(ServerConfig cfg, ServiceConfig svc, CompileFn fn) {
        cfg.bind = "127.0.0.1";
        cfg.port = 0;
        cfg.version = "test";
        cfg.log = [this](const std::string& line) {
            std::lock_guard<std::mutex> l(logMutex);
            logLines.push_back(line);
        };
        service = std::make_unique<CompileService>(svc, std::move(fn));
        server = std::make_unique<Server>(cfg, *service);
        std::string error;
        REQUIRE(server->listen(&error));
        REQUIRE(server->port() > 0);
        server->start();
    }
    ~TestServer() { server.reset(); }
    int port() const { return server->port(); }
    // The log line that contains every one of `parts`, waiting a little for it (logged after sending).
    bool logged(std::initializer_list<std::string> parts) {
        for (int i = 0; i < 200; ++i) {
            {
                std::lock_guard<std::mutex> l(logMutex);
                for (auto& line : logLines) {
                    bool all = true;
                    for (auto& p : parts) all = all && line.find(p) != std::string::npos;
                    if (all) return true;
                }
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return false;
    }
};

} // namespace

TEST_CASE("serve: the web app's files with their types and isolation headers; nothing outside the folder", "[serve]") {
    TempFolder tmp;
    const fs::path web = tmp.path / "web";
    writeFile(web / "index.html", "<html>warpscope</html>");
    writeFile(web / "warpscope-gui.js", "var a;");
    writeFile(web / "warpscope-gui.wasm", std::string("\0asm\1\0\0\0", 8));
    writeFile(web / "warpscope-gui.data", "lessons");
    writeFile(web / "style.css", "body{}");
    writeFile(web / "shot.png", "\x89PNG");
    writeFile(web / "sub" / "lesson.json", "{}");
    writeFile(web / ".hidden", "no");
    writeFile(tmp.path / "secret.txt", "the teacher's secret");
    fs::create_symlink(tmp.path / "secret.txt", web / "link.txt");
    fs::create_directory_symlink(tmp.path, web / "up");
    FakeCompiler fake;
    ServerConfig cfg;
    cfg.webDir = web.string();
    TestServer s(cfg, {}, fake.fn());

    Reply r = exchange(s.port(), "GET", "/");
    CHECK(r.status == 200);
    CHECK(r.body == "<html>warpscope</html>");
    CHECK(r.headers["content-type"] == "text/html; charset=utf-8");
    CHECK(r.headers["cross-origin-opener-policy"] == "same-origin");
    CHECK(r.headers["cross-origin-embedder-policy"] == "require-corp");
    const std::map<std::string, std::string> types = {{"/warpscope-gui.js", "text/javascript; charset=utf-8"},
                                                      {"/warpscope-gui.wasm", "application/wasm"},
                                                      {"/warpscope-gui.data", "application/octet-stream"},
                                                      {"/style.css", "text/css; charset=utf-8"},
                                                      {"/shot.png", "image/png"},
                                                      {"/sub/lesson.json?v=2", "application/json"}};
    for (auto& [path, type] : types) {
        INFO(path);
        r = exchange(s.port(), "GET", path);
        CHECK(r.status == 200);
        CHECK(r.headers["content-type"] == type);
        CHECK(r.headers["cross-origin-embedder-policy"] == "require-corp");
    }
    r = exchange(s.port(), "GET", "/warpscope-gui.wasm");
    CHECK(r.body == std::string("\0asm\1\0\0\0", 8));
    // A reload revalidates: the same Last-Modified back gets 304 with no body.
    const std::string modified = r.headers["last-modified"];
    CHECK(modified.find(" GMT") != std::string::npos);
    Reply again = exchange(s.port(), "GET", "/warpscope-gui.wasm", "", "If-Modified-Since: " + modified + "\r\n");
    CHECK(again.status == 304);
    CHECK(again.body.empty());
    CHECK(again.headers["cross-origin-embedder-policy"] == "require-corp");
    CHECK(exchange(s.port(), "GET", "/warpscope-gui.wasm", "", "If-Modified-Since: Mon, 01 Jan 2001 00:00:00 GMT\r\n").status == 200);
    r = exchange(s.port(), "HEAD", "/style.css");
    CHECK(r.status == 200);
    CHECK(r.headers["content-length"] == "6");
    CHECK(r.body.empty());

    // Out of the folder: literally, percent-encoded, mixed, through symbolic links.
    for (const char* path : {"/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/%2e%2e/secret.txt", "/sub/../../secret.txt", "/link.txt",
                             "/up/secret.txt", "/..%2fsecret.txt", "/.hidden", "/nothere.js", "/sub/%00"}) {
        INFO(path);
        r = exchange(s.port(), "GET", path);
        CHECK((r.status == 403 || r.status == 404 || r.status == 400));
        CHECK(r.body.find("secret") == std::string::npos);
        CHECK(r.headers["cross-origin-opener-policy"] == "same-origin");
        CHECK(r.json().contains("error"));
    }
    CHECK(exchange(s.port(), "GET", "/%2e%2e/secret.txt").status == 403);
    CHECK(exchange(s.port(), "GET", "/link.txt").status == 403);
    CHECK(exchange(s.port(), "POST", "/index.html", "x").status == 405);
    CHECK(s.logged({"127.0.0.1 GET /warpscope-gui.wasm 200 8B"}));
}

TEST_CASE("serve: a folder holding warpscope-gui.html serves it at /; no folder: only the API", "[serve]") {
    TempFolder tmp;
    writeFile(tmp.path / "warpscope-gui.html", "<html>gui</html>");
    FakeCompiler fake;
    ServerConfig cfg;
    cfg.webDir = tmp.path.string();
    TestServer s(cfg, {}, fake.fn());
    CHECK(exchange(s.port(), "GET", "/").body == "<html>gui</html>");

    TestServer bare({}, {}, fake.fn());
    Reply r = exchange(bare.port(), "GET", "/");
    CHECK(r.status == 404);
    CHECK(r.json()["error"].get<std::string>().find("--web") != std::string::npos);
    CHECK(exchange(bare.port(), "GET", "/api/health").status == 200);
}

TEST_CASE("serve: health, methods, unknown paths, the token", "[serve]") {
    FakeCompiler fake;
    ServerConfig cfg;
    cfg.token = "s3cret";
    cfg.compilers = {"clang"};
    TestServer s(cfg, {}, fake.fn());
    Reply r = exchange(s.port(), "GET", "/api/health");
    REQUIRE(r.status == 200);
    CHECK(r.json()["ok"] == true);
    CHECK(r.json()["version"] == "test");
    CHECK(r.json()["compilers"] == nlohmann::json::array({"clang"}));
    CHECK(r.headers["content-type"] == "application/json");

    r = exchange(s.port(), "GET", "/api/compile");
    CHECK(r.status == 405);
    CHECK(r.headers["allow"] == "POST");
    CHECK(exchange(s.port(), "DELETE", "/api/health").status == 405);
    CHECK(exchange(s.port(), "GET", "/api/nothing").status == 404);

    const std::string body = compileBody("__global__ void k() {}");
    r = exchange(s.port(), "POST", "/api/compile", body);
    CHECK(r.status == 401);
    CHECK(r.json()["error"].get<std::string>().find("token") != std::string::npos);
    CHECK(exchange(s.port(), "POST", "/api/compile", body, "Authorization: Bearer s3creT\r\n").status == 401);
    CHECK(exchange(s.port(), "POST", "/api/compile", body, "Authorization: Bearer s3cret2\r\n").status == 401);
    CHECK(exchange(s.port(), "POST", "/api/compile?token=s3cret", body).status == 401);   // the header, not the URL
    // Another site's page (its Origin is not this server) is refused even with the token.
    r = exchange(s.port(), "POST", "/api/compile", body, "Authorization: Bearer s3cret\r\nOrigin: http://evil.example\r\n");
    CHECK(r.status == 403);
    CHECK(r.json()["error"].get<std::string>().find("another site") != std::string::npos);
    CHECK(fake.calls == 0);
    r = exchange(s.port(), "POST", "/api/compile", body, "Authorization: Bearer s3cret\r\nOrigin: http://127.0.0.1\r\n");
    CHECK(r.status == 200);
    CHECK(fake.calls == 1);
    r = exchange(s.port(), "POST", "/api/compile", body, "Authorization: Bearer s3cret\r\n");
    CHECK(r.status == 200);
    CHECK(r.json()["ok"] == true);
    CHECK(fake.calls == 1);   // the same source again: answered from memory
    CHECK(r.json()["cached"] == true);
    CHECK(s.logged({"POST /api/compile 401"}));
    CHECK(s.logged({"POST /api/compile 200", "compiler=clang ok=true wait="}));
}

TEST_CASE("serve: malformed requests get 400, oversized ones 413", "[serve]") {
    FakeCompiler fake;
    TestServer s({}, {}, fake.fn());
    for (const std::string& bad : {std::string("{not json"), std::string("[1,2]"), std::string("{}"), std::string(R"({"source": 5})"),
                                   std::string(R"({"source": "x", "file": "../evil.cu"})"), std::string(R"({"source": "x", "file": "k.cpp"})"),
                                   std::string(R"({"source": "x", "file": "/etc/k.cu"})"), std::string(R"({"source": "x", "arch": "sm_75; rm"})"),
                                   std::string(R"({"source": "x", "arch": 75})")}) {
        INFO(bad);
        Reply r = exchange(s.port(), "POST", "/api/compile", bad);
        CHECK(r.status == 400);
        CHECK(!r.json()["error"].get<std::string>().empty());
    }
    CHECK(exchange(s.port(), "POST", "/api/compile", R"({"source": "x", "file": "my_kernel-2.cu", "arch": "sm_80"})").status == 200);
    CHECK(fake.calls == 1);

    // A body over 256 KiB is refused from its Content-Length, before it is read.
    const int fd = connectTo(s.port());
    sendText(fd, "POST /api/compile HTTP/1.1\r\nContent-Length: 300000\r\n\r\n");
    Reply r = parseReply(readAll(fd));
    close(fd);
    CHECK(r.status == 413);
    CHECK(r.json()["error"].get<std::string>().find("256 KiB") != std::string::npos);
    // Headers over 16 KiB.
    r = exchange(s.port(), "GET", "/api/health", "", "X-Padding: " + std::string(17000, 'p') + "\r\n");
    CHECK(r.status == 413);
    // A request line that is not HTTP.
    const int fd2 = connectTo(s.port());
    sendText(fd2, "HELLO\r\n\r\n");
    CHECK(parseReply(readAll(fd2)).status == 400);
    close(fd2);
    // Exactly 256 KiB of JSON is taken.
    std::string source(kMaxBodyBytes - 40, 'x');
    source[0] = source[1] = '/';
    std::string body = compileBody(source);
    body += std::string(kMaxBodyBytes - body.size(), ' ');
    CHECK(exchange(s.port(), "POST", "/api/compile", body).status == 200);
    CHECK(s.logged({"413"}));
}

TEST_CASE("serve: a flood from one client gets 429 with Retry-After; others still compile", "[serve]") {
    FakeCompiler fake;
    ServerConfig cfg;
    cfg.ratePerMinute = 5;
    TestServer s(cfg, {}, fake.fn());
    int ok = 0, limited = 0;
    std::string retry;
    for (int i = 0; i < 12; ++i) {
        std::string source = "k";   // (not "k" + to_string: GCC 12's -Wrestrict false alarm)
        source += std::to_string(i);
        Reply r = exchange(s.port(), "POST", "/api/compile", compileBody(source));
        if (r.status == 200) ++ok;
        if (r.status == 429) {
            ++limited;
            retry = r.headers["retry-after"];
            CHECK(r.json()["error"].get<std::string>().find("too many compiles") != std::string::npos);
        }
    }
    CHECK(ok == 5);
    CHECK(limited == 7);
    CHECK(std::stoi(retry) >= 1);
    CHECK(std::stoi(retry) <= 12);
    CHECK(exchange(s.port(), "GET", "/api/health").status == 200);   // only compiles are counted
    CHECK(s.logged({"POST /api/compile 429"}));
}

TEST_CASE("serve: a full queue answers 503; identical sources compile once", "[serve]") {
    FakeCompiler fake;
    fake.close();
    ServiceConfig svc;
    svc.workers = 1;
    svc.queue = 2;
    TestServer s({}, svc, fake.fn());
    std::vector<Reply> replies(3);
    std::vector<std::thread> clients;
    // One running (held at the gate), two waiting: the queue is full.
    for (int i = 0; i < 3; ++i) {
        clients.emplace_back([&, i] { replies[i] = exchange(s.port(), "POST", "/api/compile", compileBody("job" + std::to_string(i))); });
        for (int t = 0; t < 500 && !(fake.calls == 1 && s.service->waiting() == static_cast<size_t>(i)); ++t)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    for (int t = 0; t < 500 && s.service->waiting() < 2; ++t) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    REQUIRE(s.service->waiting() == 2);
    Reply full = exchange(s.port(), "POST", "/api/compile", compileBody("job3"));
    CHECK(full.status == 503);
    CHECK(full.headers["retry-after"] == "5");
    CHECK(full.json()["error"].get<std::string>().find("queue is full") != std::string::npos);
    // An identical request joins the one waiting, so it is not refused and does not compile again.
    std::vector<Reply> same(6);
    std::vector<std::thread> sameClients;
    for (int i = 0; i < 6; ++i) sameClients.emplace_back([&, i] { same[i] = exchange(s.port(), "POST", "/api/compile", compileBody("job2")); });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    fake.open();
    for (auto& t : clients) t.join();
    for (auto& t : sameClients) t.join();
    for (auto& r : replies) CHECK(r.status == 200);
    for (auto& r : same) {
        CHECK(r.status == 200);
        CHECK(r.json()["ptx"] == "// PTX of job2");
    }
    CHECK(fake.calls == 3);
    // Later, the same source comes from the memory of finished compiles.
    Reply again = exchange(s.port(), "POST", "/api/compile", compileBody("job1"));
    CHECK(again.json()["cached"] == true);
    CHECK(fake.calls == 3);
    CHECK(s.logged({"POST /api/compile 503", "queue full"}));
    CHECK(s.logged({"shared"}));
}

TEST_CASE("serve: a compile past its time limit answers 504", "[serve]") {
    FakeCompiler fake;
    TestServer s({}, {}, fake.fn());
    Reply r = exchange(s.port(), "POST", "/api/compile", compileBody("TIMEOUT"));
    CHECK(r.status == 504);
    CHECK(r.json()["timedOut"] == true);
    CHECK(r.json()["error"].get<std::string>().find("did not finish") != std::string::npos);
    // A time-out is not remembered: the next try compiles again.
    exchange(s.port(), "POST", "/api/compile", compileBody("TIMEOUT"));
    CHECK(fake.calls == 2);
}

TEST_CASE("serve: slow and vanished clients get 408 and the server keeps serving", "[serve]") {
    FakeCompiler fake;
    ServerConfig cfg;
    cfg.headerSeconds = 0.4;
    cfg.bodySeconds = 0.4;
    cfg.idleSeconds = 0.4;
    TestServer s(cfg, {}, fake.fn());
    // Half a head, then silence.
    int fd = connectTo(s.port());
    sendText(fd, "GET /api/health HTTP/1.1\r\nHost: x\r\n");
    Reply r = parseReply(readAll(fd));
    close(fd);
    CHECK(r.status == 408);
    // A head promising a body that never comes.
    fd = connectTo(s.port());
    sendText(fd, "POST /api/compile HTTP/1.1\r\nContent-Length: 100\r\n\r\n{\"sou");
    r = parseReply(readAll(fd));
    close(fd);
    CHECK(r.status == 408);
    // Gone in the middle of the body, and in the middle of the head.
    fd = connectTo(s.port());
    sendText(fd, "POST /api/compile HTTP/1.1\r\nContent-Length: 100\r\n\r\n{\"sou");
    close(fd);
    fd = connectTo(s.port());
    sendText(fd, "POST /api/comp");
    close(fd);
    CHECK(s.logged({"POST /api/compile 408", "disconnected before its request body was complete"}));
    CHECK(s.logged({"408", "disconnected before its request was complete"}));
    // An idle kept-alive connection is closed quietly, with no answer.
    fd = connectTo(s.port());
    CHECK(readAll(fd).empty());
    close(fd);
    // Everyone else is still served.
    CHECK(exchange(s.port(), "GET", "/api/health").status == 200);
    CHECK(exchange(s.port(), "POST", "/api/compile", compileBody("after")).status == 200);
}

TEST_CASE("serve: keep-alive carries several requests; Expect: 100-continue is answered", "[serve]") {
    FakeCompiler fake;
    TestServer s({}, {}, fake.fn());
    const int fd = connectTo(s.port());
    const std::string body = compileBody("keepalive");
    sendText(fd, "GET /api/health HTTP/1.1\r\nHost: x\r\n\r\nPOST /api/compile HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: " +
                     std::to_string(body.size()) + "\r\n\r\n" + body + "GET /api/health HTTP/1.1\r\nConnection: close\r\n\r\n");
    const std::string all = readAll(fd);
    close(fd);
    size_t n = 0;
    for (size_t p = all.find("HTTP/1.1 200 OK"); p != std::string::npos; p = all.find("HTTP/1.1 200 OK", p + 1)) ++n;
    CHECK(n == 3);
    CHECK(all.find("// PTX of keepalive") != std::string::npos);
}

TEST_CASE("serve: concurrent clients are all answered; past the connection maximum, 503", "[serve]") {
    FakeCompiler fake;
    TempFolder tmp;
    writeFile(tmp.path / "index.html", std::string(200000, 'w'));
    ServerConfig cfg;
    cfg.webDir = tmp.path.string();
    ServiceConfig svc;
    svc.workers = 2;
    TestServer s(cfg, svc, fake.fn());
    std::atomic<int> good{0};
    std::vector<std::thread> clients;
    for (int i = 0; i < 24; ++i)
        clients.emplace_back([&, i] {
            Reply r = i % 3 == 0   ? exchange(s.port(), "GET", "/")
                      : i % 3 == 1 ? exchange(s.port(), "GET", "/api/health")
                                   : exchange(s.port(), "POST", "/api/compile", compileBody("c" + std::to_string(i)));
            if (r.status == 200 && (i % 3 != 0 || r.body.size() == 200000)) ++good;
        });
    for (auto& t : clients) t.join();
    CHECK(good == 24);

    ServerConfig small;
    small.maxConnections = 2;
    TestServer t(small, svc, fake.fn());
    const int a = connectTo(t.port()), b = connectTo(t.port());
    for (int i = 0; i < 200 && t.server->openConnections() < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    Reply r = exchange(t.port(), "GET", "/api/health");
    CHECK(r.status == 503);
    CHECK(r.json()["error"].get<std::string>().find("connections") != std::string::npos);
    close(a);
    close(b);
    for (int i = 0; i < 200 && t.server->openConnections() > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK(exchange(t.port(), "GET", "/api/health").status == 200);

    ServerConfig perClient;
    perClient.maxPerClient = 3;
    TestServer u(perClient, svc, fake.fn());
    std::vector<int> held;
    for (int i = 0; i < 3; ++i) held.push_back(connectTo(u.port()));
    for (int i = 0; i < 200 && u.server->openConnections() < 3; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    r = exchange(u.port(), "GET", "/api/health");
    CHECK(r.status == 503);
    CHECK(r.json()["error"].get<std::string>().find("this address has 3 connections open") != std::string::npos);
    for (int fd : held) close(fd);
    for (int i = 0; i < 200 && u.server->openConnections() > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK(exchange(u.port(), "GET", "/api/health").status == 200);
}

TEST_CASE("serve: stopping answers the waiting compiles and closes", "[serve]") {
    FakeCompiler fake;
    fake.close();
    ServiceConfig svc;
    svc.workers = 1;
    auto s = std::make_unique<TestServer>(ServerConfig{}, svc, fake.fn());
    const int port = s->port();
    std::vector<Reply> replies(2);
    std::vector<std::thread> clients;
    for (int i = 0; i < 2; ++i) clients.emplace_back([&, i] { replies[i] = exchange(port, "POST", "/api/compile", compileBody("stop" + std::to_string(i))); });
    for (int t = 0; t < 400 && s->service->waiting() < 1; ++t) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    s->server->stop();
    for (auto& t : clients) t.join();
    for (auto& r : replies) CHECK(r.status == 503);
    s.reset();
}

// ---------------------------------------------------------------- real compiles in the sandbox
#ifdef WARPSCOPE_CLI_EXE
TEST_CASE("serve: real clang compiles in the sandboxed child: PTX, errors at line and column, a hang stopped at the limit", "[serve-compile]") {
    if (compile::findClangPath().empty()) {
        WARN("serve compile tests skipped: no clang");
        return;
    }
    TempFolder tmp;
    SandboxedCompileConfig cc;
    cc.executable = WARPSCOPE_CLI_EXE;
    cc.workRoot = (tmp.path / "work").string();
    cc.compiler = compile::Compiler::Clang;
    cc.timeoutSeconds = 2;
    ServiceConfig svc;
    svc.workers = 2;
    ServerConfig cfg;
    cfg.token = "t";
    TestServer s(cfg, svc, sandboxedCompiler(cc));
    const std::string auth = "Authorization: Bearer t\r\n";

    const std::string good = "__global__ void scale(float* x, float a, int n) {\n"
                             "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "    if (i < n) x[i] *= a;\n"
                             "}\n";
    const std::string bad = "__global__ void scale(float* x, int n) {\n"
                            "    int i = threadIdx.x;\n"
                            "    x[i] = y;\n"
                            "}\n";
    std::string hang = "#define E0\n";
    for (int i = 1; i <= 40; ++i) hang += "#define E" + std::to_string(i) + " E" + std::to_string(i - 1) + " E" + std::to_string(i - 1) + "\n";
    hang += "E40\n__global__ void k() {}\n";

    // Three at once: the good one, the error and the hang (two workers: one waits).
    Reply rGood, rBad, rHang;
    std::thread a([&] { rGood = exchange(s.port(), "POST", "/api/compile", nlohmann::json{{"source", good}, {"file", "scale.cu"}}.dump(), auth); });
    std::thread b([&] { rBad = exchange(s.port(), "POST", "/api/compile", compileBody(bad), auth); });
    std::thread c([&] { rHang = exchange(s.port(), "POST", "/api/compile", compileBody(hang), auth); });
    a.join();
    b.join();
    c.join();

    REQUIRE(rGood.status == 200);
    const nlohmann::json g = rGood.json();
    CHECK(g["ok"] == true);
    CHECK(g["compiler"] == "clang");
    CHECK(g["timedOut"] == false);
    CHECK(g["ptx"].get<std::string>().find(".visible .entry _Z5scalePffi(") != std::string::npos);
    CHECK(g["ptx"].get<std::string>().find(".file\t1 \"scale.cu\"") != std::string::npos);

    REQUIRE(rBad.status == 200);
    const nlohmann::json e = rBad.json();
    CHECK(e["ok"] == false);
    REQUIRE(!e["diagnostics"].empty());
    CHECK(e["diagnostics"][0]["file"] == "kernel.cu");
    CHECK(e["diagnostics"][0]["line"] == 3);
    CHECK(e["diagnostics"][0]["column"] == 12);
    CHECK(e["diagnostics"][0]["severity"] == "error");
    CHECK(e["diagnostics"][0]["message"].get<std::string>().find("undeclared identifier 'y'") != std::string::npos);

    CHECK(rHang.status == 504);
    CHECK(rHang.json()["timedOut"] == true);
    CHECK(rHang.json()["error"].get<std::string>().find("2 s") != std::string::npos);

    // The server still compiles after the hang; the same source again is answered from memory.
    Reply again = exchange(s.port(), "POST", "/api/compile", nlohmann::json{{"source", good}, {"file", "scale.cu"}}.dump(), auth);
    CHECK(again.status == 200);
    CHECK(again.json()["cached"] == true);
    CHECK(again.json()["ptx"] == g["ptx"]);
    CHECK(s.logged({"POST /api/compile 504", "compiler=clang ok=false"}));
    // Where bubblewrap works, the compiler cannot #include a file from a hidden folder (/tmp here).
    if (!sandbox::bwrapPath().empty()) {
        writeFile(tmp.path / "secret.h", "int TEACHERS_SECRET_42 = 1;\n");
        Reply leak = exchange(s.port(), "POST", "/api/compile",
                              compileBody("#include \"" + (tmp.path / "secret.h").string() + "\"\n__global__ void k() {}\n"), auth);
        CHECK(leak.status == 200);
        CHECK(leak.json()["ok"] == false);
        CHECK(leak.body.find("TEACHERS_SECRET_42") == std::string::npos);
        CHECK(leak.json()["diagnostics"][0]["message"].get<std::string>().find("not found") != std::string::npos);
    } else {
        WARN("bubblewrap cannot run here: the hidden-folder check is skipped");
    }
    // No job files are left behind in the sandbox folder.
    CHECK(fs::is_empty(fs::path(cc.workRoot) / "jobs"));
}
#endif

#ifdef WARPSCOPE_CLI_EXE
// The command itself: started as a child, it prints its URL with the token, serves, logs each
// request, and on SIGTERM stops and exits 0.
TEST_CASE("serve: the warpscope serve command prints its URL, logs each request and stops on SIGTERM", "[serve-compile]") {
    if (compile::findClangPath().empty()) {
        WARN("serve compile tests skipped: no clang");
        return;
    }
    TempFolder tmp;
    writeFile(tmp.path / "web" / "index.html", "<html>class</html>");
    int err[2];
    REQUIRE(pipe(err) == 0);
    const std::string web = (tmp.path / "web").string(), work = (tmp.path / "work").string();
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        dup2(err[1], 2);
        ::close(err[0]);
        execl(WARPSCOPE_CLI_EXE, WARPSCOPE_CLI_EXE, "serve", "--port", "0", "--token", "random", "--web", web.c_str(), "--compiler", "clang",
              "--work-dir", work.c_str(), "--workers", "1", static_cast<char*>(nullptr));
        _exit(127);
    }
    ::close(err[1]);
    // The first line: "warpscope serve <version>: http://127.0.0.1:<port>/?token=<24 hex digits>"
    std::string text;
    std::smatch m;
    const std::regex url(R"(http://127\.0\.0\.1:([0-9]+)/\?token=([0-9a-f]{24})\n)");
    char buf[4096];
    while (!std::regex_search(text, m, url)) {
        const ssize_t n = read(err[0], buf, sizeof buf);
        if (n <= 0) break;
        text.append(buf, static_cast<size_t>(n));
    }
    INFO(text);
    REQUIRE(m.size() == 3);
    const int port = std::stoi(m[1].str());
    const std::string token = m[2].str();
    CHECK(exchange(port, "GET", "/").body == "<html>class</html>");
    CHECK(exchange(port, "POST", "/api/compile", compileBody("__global__ void k() {}")).status == 401);
    Reply r = exchange(port, "POST", "/api/compile", compileBody("__global__ void k(int* p) { p[0] = 1; }"), "Authorization: Bearer " + token + "\r\n");
    CHECK(r.status == 200);
    CHECK(r.json()["ok"] == true);
    // A connection left open does not keep the server from stopping.
    const int idle = connectTo(port);
    kill(pid, SIGTERM);
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    ::close(idle);
    for (ssize_t n; (n = read(err[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
    ::close(err[0]);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(text.find("127.0.0.1 GET / 200 18B") != std::string::npos);
    CHECK(text.find("POST /api/compile 401") != std::string::npos);
    CHECK(std::regex_search(text, std::regex(R"(POST /api/compile 200 [0-9]+B [0-9]+ms compiler=clang ok=true wait=[0-9]+ms)")));
    CHECK(text.find("SIGTERM, stopping") != std::string::npos);
    CHECK(text.find("warpscope serve: stopped") != std::string::npos);
    CHECK(text.find(token, text.find('\n')) == std::string::npos);   // the token is only in the URL line, never in the log
}
#endif
