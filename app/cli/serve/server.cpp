// `warpscope serve`'s HTTP server (server.hpp).
//
// Sections: 1. sockets with deadlines  2. listen and accept  3. one connection
//           4. routes: health, compile, static files  5. log and stop
#include "serve/server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>

namespace fs = std::filesystem;

namespace warpscope::serve {

namespace {
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// ---------------------------------------------------------------- 1. sockets with deadlines
enum class Io { Ok, Timeout, Closed, Stopping };

// Waits for `events` on fd until `deadline`; Stopping as soon as the wake pipe is readable.
Io waitFor(int fd, short events, int wakeFd, Clock::time_point deadline) {
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) return Io::Timeout;
        pollfd p[2] = {{fd, events, 0}, {wakeFd, POLLIN, 0}};
        const int n = poll(p, 2, static_cast<int>(std::min<long long>(left, 60000)));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return Io::Closed;
        if (p[1].revents) return Io::Stopping;
        if (p[0].revents & (events | POLLHUP | POLLERR)) return Io::Ok;
    }
}

// Appends what arrives (at most 64 KiB) to `buf`.
Io readSome(int fd, std::string& buf, int wakeFd, Clock::time_point deadline) {
    const Io w = waitFor(fd, POLLIN, wakeFd, deadline);
    if (w != Io::Ok) return w;
    char tmp[65536];
    for (;;) {
        const ssize_t n = recv(fd, tmp, sizeof tmp, 0);
        if (n > 0) {
            buf.append(tmp, static_cast<size_t>(n));
            return Io::Ok;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return Io::Ok;
        return Io::Closed;
    }
}

// Sends everything or gives up at the deadline (a client that stopped reading).
bool sendAll(int fd, const char* data, size_t size, int wakeFd, Clock::time_point deadline) {
    while (size > 0) {
        const ssize_t n = send(fd, data, size, MSG_NOSIGNAL);
        if (n > 0) {
            data += n;
            size -= static_cast<size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            // A stopping server still finishes the answer it is sending, within the deadline.
            const Io w = waitFor(fd, POLLOUT, -1, deadline);
            (void)wakeFd;
            if (w != Io::Ok) return false;
            continue;
        }
        return false;
    }
    return true;
}

std::string clientAddress(const sockaddr_storage& a) {
    char buf[INET6_ADDRSTRLEN] = "?";
    if (a.ss_family == AF_INET) {
        inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(a).sin_addr, buf, sizeof buf);
    } else if (a.ss_family == AF_INET6) {
        const auto& a6 = reinterpret_cast<const sockaddr_in6&>(a);
        if (IN6_IS_ADDR_V4MAPPED(&a6.sin6_addr)) inet_ntop(AF_INET, &a6.sin6_addr.s6_addr[12], buf, sizeof buf);
        else inet_ntop(AF_INET6, &a6.sin6_addr, buf, sizeof buf);
    }
    return buf;
}

// Comparing the token in time independent of where it first differs.
bool sameSecret(const std::string& a, const std::string& b) {
    unsigned char diff = a.size() == b.size() ? 0 : 1;
    for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ (i < b.size() ? b[i] : 0));
    return diff == 0;
}

Response jsonError(int status, const std::string& sentence) {
    Response r;
    r.status = status;
    r.body = errorJson(sentence);
    return r;
}
} // namespace

// ---------------------------------------------------------------- 2. listen and accept
Server::Server(ServerConfig config, CompileService& service)
    : config_(std::move(config)), service_(service), limiter_(config_.ratePerMinute) {
    if (!config_.log) config_.log = [](const std::string& line) { std::cerr << line << "\n" << std::flush; };
    if (!config_.webDir.empty()) {
        std::error_code ec;
        const fs::path root = fs::canonical(config_.webDir, ec);
        if (!ec && fs::is_directory(root, ec)) webRoot_ = root.string();
    }
}

Server::~Server() {
    stop();
    {   // connection threads use this object: all of them must be gone (every wait they do is bounded)
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [&] { return open_ == 0; });
    }
    if (listenFd_ >= 0) close(listenFd_);
    for (int fd : wake_)
        if (fd >= 0) close(fd);
}

bool Server::listen(std::string* error) {
    if (pipe2(wake_, O_CLOEXEC) != 0) {
        *error = std::string("cannot make a pipe: ") + std::strerror(errno);
        return false;
    }
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* res = nullptr;
    const std::string port = std::to_string(config_.port);
    if (const int rc = getaddrinfo(config_.bind.c_str(), port.c_str(), &hints, &res); rc != 0) {
        *error = "cannot use the address '" + config_.bind + "': " + gai_strerror(rc);
        return false;
    }
    std::string last = "no address";
    for (addrinfo* a = res; a; a = a->ai_next) {
        const int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
        if (fd < 0) continue;
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, 512) == 0) {
            sockaddr_storage ss{};
            socklen_t len = sizeof ss;
            getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len);
            port_ = ntohs(ss.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6&>(ss).sin6_port
                                                   : reinterpret_cast<sockaddr_in&>(ss).sin_port);
            listenFd_ = fd;
            break;
        }
        last = std::strerror(errno);
        close(fd);
    }
    freeaddrinfo(res);
    if (listenFd_ < 0) {
        *error = "cannot listen on " + config_.bind + ":" + port + ": " + last;
        return false;
    }
    return true;
}

void Server::run() {
    while (!stopping_) {
        pollfd p[2] = {{listenFd_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
        if (poll(p, 2, -1) < 0 && errno != EINTR) break;
        if (p[1].revents || stopping_) break;
        if (!(p[0].revents & POLLIN)) continue;
        sockaddr_storage peer{};
        socklen_t len = sizeof peer;
        const int fd = accept4(listenFd_, reinterpret_cast<sockaddr*>(&peer), &len, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE) std::this_thread::sleep_for(std::chrono::milliseconds(50));
            continue;
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        std::string client = clientAddress(peer);
        std::string full;
        {
            std::lock_guard<std::mutex> lock(m_);
            if (open_ >= config_.maxConnections)
                full = "the server has " + std::to_string(config_.maxConnections) + " connections open, its maximum; try again in a moment";
            else if (openPerClient_[client] >= config_.maxPerClient)
                full = "this address has " + std::to_string(config_.maxPerClient) + " connections open, its maximum; try again in a moment";
            if (full.empty()) {
                ++open_;
                ++openPerClient_[client];
            } else if (openPerClient_[client] == 0) {
                openPerClient_.erase(client);
            }
        }
        if (!full.empty()) {
            const std::string body = errorJson(full);
            const std::string head = responseHead(503, "application/json", body.size(), {{"Retry-After", "2"}}, false);
            const auto deadline = Clock::now() + std::chrono::seconds(1);
            if (sendAll(fd, head.data(), head.size(), wake_[0], deadline)) sendAll(fd, body.data(), body.size(), wake_[0], deadline);
            close(fd);
            logLine(client, "-", "-", 503, body.size(), 0, full);
            continue;
        }
        try {
            std::thread([this, fd, client] {
                try {
                    serveConnection(fd, client);
                } catch (const std::exception& e) {   // (out of memory): this connection ends, the server goes on
                    logLine(client, "-", "-", 500, 0, 0, std::string("the connection failed: ") + e.what());
                }
                close(fd);
                std::lock_guard<std::mutex> lock(m_);
                --open_;
                if (--openPerClient_[client] == 0) openPerClient_.erase(client);
                cv_.notify_all();
            }).detach();
        } catch (const std::system_error&) {   // no thread to be had: refuse this one
            close(fd);
            std::lock_guard<std::mutex> lock(m_);
            --open_;
            if (--openPerClient_[client] == 0) openPerClient_.erase(client);
        }
    }
}

void Server::start() { acceptThread_ = std::thread([this] { run(); }); }

unsigned Server::openConnections() {
    std::lock_guard<std::mutex> lock(m_);
    return open_;
}

// ---------------------------------------------------------------- 3. one connection
void Server::serveConnection(int fd, std::string client) {
    // An error answer before the connection closes: a JSON body, at most 2 s to send it; the
    // body's size, for the log.
    auto sendError = [&](int status, const std::string& why) {
        const std::string body = errorJson(why);
        const std::string head = responseHead(status, "application/json", body.size(), {}, false);
        const auto d = Clock::now() + std::chrono::seconds(2);
        if (sendAll(fd, head.data(), head.size(), wake_[0], d)) sendAll(fd, body.data(), body.size(), wake_[0], d);
        return body.size();
    };
    std::string buf;
    for (;;) {
        Request req;
        HeadParse h;
        auto begin = Clock::now();
        bool started = !buf.empty();
        auto deadline = begin + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(started ? config_.headerSeconds : config_.idleSeconds));
        for (;;) {
            h = parseHead(buf, req);
            if (h.state != HeadParse::State::NeedMore) break;
            const Io r = readSome(fd, buf, wake_[0], deadline);
            if (r == Io::Stopping) return;
            if (r == Io::Closed || r == Io::Timeout) {
                if (!started && (r == Io::Closed || buf.empty())) return;   // an idle connection ends quietly
                const std::string why = r == Io::Closed ? "the client disconnected before its request was complete"
                                                        : "the request's headers did not arrive in time";
                if (r == Io::Timeout) {
                    sendError(408, why);
                }
                logLine(client, req.method.empty() ? "-" : req.method, req.path.empty() ? "-" : req.path, 408, 0, msSince(begin), why);
                return;
            }
            if (!started) {
                started = true;
                begin = Clock::now();
                deadline = begin + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(config_.headerSeconds));
            }
        }
        if (h.state == HeadParse::State::Error) {
            const size_t sent = sendError(h.status, h.message);
            logLine(client, req.method.empty() ? "-" : req.method, req.path.empty() ? "-" : req.path, h.status, sent, msSince(begin), h.message);
            return;   // the rest of the stream cannot be trusted
        }
        buf.erase(0, h.headBytes);
        if (h.expectContinue && buf.size() < h.contentLength) {
            static const char kContinue[] = "HTTP/1.1 100 Continue\r\n\r\n";
            if (!sendAll(fd, kContinue, sizeof kContinue - 1, wake_[0], Clock::now() + std::chrono::seconds(5))) return;
        }
        const auto bodyDeadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(config_.bodySeconds));
        while (buf.size() < h.contentLength) {
            const Io r = readSome(fd, buf, wake_[0], bodyDeadline);
            if (r == Io::Ok) continue;
            if (r == Io::Stopping) return;
            const std::string why = r == Io::Closed ? "the client disconnected before its request body was complete"
                                                    : "the request body did not arrive in time";
            if (r == Io::Timeout) {
                sendError(408, why);
            }
            logLine(client, req.method, req.path, 408, 0, msSince(begin), why);
            return;
        }
        req.body = buf.substr(0, h.contentLength);
        buf.erase(0, h.contentLength);

        std::string extra;
        Response res;
        try {
            res = route(req, client, extra);
        } catch (const std::exception& e) {
            res = jsonError(500, std::string("the server failed: ") + e.what());
        }
        const bool keep = req.keepAlive() && !stopping_;
        const bool head = req.method == "HEAD" || res.status == 304;
        const size_t length = res.filePath.empty() && res.status != 304 ? res.body.size() : res.fileSize;
        const std::string headText = responseHead(res.status, res.contentType, length, res.headers, keep);
        const auto wd = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(config_.writeSeconds));
        bool sent = sendAll(fd, headText.data(), headText.size(), wake_[0], wd);
        size_t bytes = 0;
        if (sent && !head) {
            if (res.filePath.empty()) {
                sent = sendAll(fd, res.body.data(), res.body.size(), wake_[0], wd);
                if (sent) bytes = res.body.size();
            } else {
                std::ifstream f(res.filePath, std::ios::binary);
                std::vector<char> chunk(1 << 16);
                size_t left = res.fileSize;
                while (sent && left > 0 && f) {
                    f.read(chunk.data(), static_cast<std::streamsize>(std::min(left, chunk.size())));
                    const size_t got = static_cast<size_t>(f.gcount());
                    if (got == 0) break;
                    sent = sendAll(fd, chunk.data(), got, wake_[0], wd);
                    if (sent) bytes += got;
                    left -= got;
                }
                if (left > 0) sent = false;   // the file shrank under us: the length we promised is wrong
            }
        }
        if (!sent) extra += (extra.empty() ? "" : " ") + std::string("(the client did not take the whole answer)");
        logLine(client, req.method, req.path, res.status, bytes, msSince(begin), extra);
        if (!sent || !keep) return;
    }
}

// ---------------------------------------------------------------- 4. routes: health, compile, static files
Response Server::route(const Request& req, const std::string& client, std::string& logExtra) {
    const std::optional<std::string> path = percentDecodePath(req.path);
    if (!path) return jsonError(400, "the request path has a bad percent-escape (or an encoded '/', '\\' or NUL)");
    auto methodNotAllowed = [](const char* allow) {
        Response r = jsonError(405, std::string("this path takes ") + allow);
        r.headers.push_back({"Allow", allow});
        return r;
    };
    if (*path == "/api/health") {
        if (req.method != "GET" && req.method != "HEAD") return methodNotAllowed("GET, HEAD");
        return health(req);
    }
    if (*path == "/api/compile") {
        if (req.method != "POST") return methodNotAllowed("POST");
        return compileRoute(req, client, logExtra);
    }
    if (path->rfind("/api/", 0) == 0 || *path == "/api") return jsonError(404, "there is no API at " + *path + " (see docs/serve.md)");
    if (req.method != "GET" && req.method != "HEAD") return methodNotAllowed("GET, HEAD");
    return staticFile(req, *path);
}

Response Server::health(const Request&) {
    Response r;
    r.body = nlohmann::json{{"ok", true},
                            {"version", config_.version},
                            {"compilers", config_.compilers},
                            {"compiler", config_.compiler},
                            {"tokenRequired", !config_.token.empty()},
                            {"workers", service_.workers()},
                            {"queue", service_.queueLimit()},
                            {"web", !webRoot_.empty()}}
                 .dump();
    return r;
}

Response Server::compileRoute(const Request& req, const std::string& client, std::string& logExtra) {
    // A browser names the page a request comes from: another site's page (a form posting here
    // behind the learner's back) is refused. Tools that send no Origin (curl, tests) are not.
    if (const std::string* origin = req.header("origin")) {
        const std::string* host = req.header("host");
        std::string o = *origin;
        for (const char* scheme : {"http://", "https://"})
            if (o.rfind(scheme, 0) == 0) o.erase(0, std::strlen(scheme));
        if (!host || o != *host)
            return jsonError(403, "compile requests from another site's page are refused (Origin " + *origin + " is not this server)");
    }
    if (!config_.token.empty()) {
        const std::string* auth = req.header("authorization");
        const std::string given = auth && auth->rfind("Bearer ", 0) == 0 ? auth->substr(7) : "";
        if (!sameSecret(given, config_.token)) {
            Response r = jsonError(401, auth ? "the token is wrong: use the link with ?token= the teacher gave"
                                             : "this server needs a token: send 'Authorization: Bearer <token>' (the link's ?token=)");
            r.headers.push_back({"WWW-Authenticate", "Bearer"});
            return r;
        }
    }
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(req.body);
    } catch (const std::exception&) {
        return jsonError(400, "the request body is not valid JSON");
    }
    if (!j.is_object()) return jsonError(400, "the request body must be a JSON object {\"source\": \"...\"}");
    CompileJob job;
    if (!j.contains("source") || !j["source"].is_string()) return jsonError(400, "\"source\" must be a string holding the CUDA source");
    job.source = j["source"].get<std::string>();
    if (job.source.find('\0') != std::string::npos) return jsonError(400, "\"source\" holds a NUL character");
    if (j.contains("file")) {
        if (!j["file"].is_string()) return jsonError(400, "\"file\" must be a string such as \"kernel.cu\"");
        job.file = j["file"].get<std::string>();
        static const std::regex bare(R"(^[A-Za-z0-9_][A-Za-z0-9_.-]{0,62}\.cu$)");
        if (!std::regex_match(job.file, bare))
            return jsonError(400, "\"file\" must be a bare file name ending in .cu (letters, digits, '_', '-', '.'), such as \"kernel.cu\"");
    }
    if (j.contains("arch")) {
        if (!j["arch"].is_string()) return jsonError(400, "\"arch\" must be a string such as \"compute_75\"");
        job.arch = j["arch"].get<std::string>();
        static const std::regex arch(R"(^(compute|sm)_[0-9]{2,3}[af]?$)");
        if (!std::regex_match(job.arch, arch)) return jsonError(400, "\"arch\" must be compute_NN or sm_NN, such as \"compute_75\"");
    }
    double retry = 0;
    if (!limiter_.take(client, &retry)) {
        Response r = jsonError(429, "too many compiles from " + client + ": at most " + std::to_string(static_cast<int>(config_.ratePerMinute)) +
                                        " a minute; try again in " + std::to_string(static_cast<int>(std::ceil(retry))) + " s");
        r.headers.push_back({"Retry-After", std::to_string(static_cast<int>(std::ceil(retry)))});
        return r;
    }
    CompileService::Ticket t = service_.submit(job);
    if (t.kind == CompileService::Ticket::Kind::QueueFull) {
        logExtra = "queue full";
        Response r = jsonError(503, "the compile queue is full (" + std::to_string(service_.queueLimit()) + " waiting for " +
                                        std::to_string(service_.workers()) + " workers); try again in a few seconds");
        r.headers.push_back({"Retry-After", "5"});
        return r;
    }
    if (t.kind == CompileService::Ticket::Kind::Stopping) return jsonError(503, "the server is stopping");
    const CompileOutcome o = t.outcome.get();
    const double waitMs = std::max(0.0, std::chrono::duration<double, std::milli>(*t.started - t.submitted).count());
    char extra[200];
    std::snprintf(extra, sizeof extra, "compiler=%s ok=%s wait=%.0fms%s%s",
                  o.result.used == compile::Compiler::Auto ? config_.compiler.c_str() : compile::compilerName(o.result.used),
                  o.result.ok ? "true" : "false", waitMs, o.result.cached ? " cached" : "", t.shared ? " shared" : "");
    logExtra = extra;
    if (o.serverError) {
        if (stopping_) return jsonError(503, "the server is stopping");
        return jsonError(500, o.result.error);
    }
    nlohmann::json body = resultJson(o.result);
    Response r;
    if (o.result.timedOut) {
        r.status = 504;
        if (body["error"].get<std::string>().empty()) body["error"] = "the compile did not finish within the time limit";
    }
    r.body = body.dump();
    return r;
}

Response Server::staticFile(const Request& req, const std::string& decodedPath) {
    if (webRoot_.empty())
        return jsonError(404, "this server has no web app folder (start it with --web DIR, or build the web app); only /api/ is served");
    // Segments: ".." is refused outright, "." and empty ones are skipped, hidden names are not served.
    fs::path rel;
    size_t i = 0;
    while (i <= decodedPath.size()) {
        const size_t slash = decodedPath.find('/', i);
        const std::string seg = decodedPath.substr(i, slash == std::string::npos ? std::string::npos : slash - i);
        i = slash == std::string::npos ? decodedPath.size() + 1 : slash + 1;
        if (seg.empty() || seg == ".") continue;
        if (seg == "..") return jsonError(403, "a path may not leave the web app's folder");
        if (seg[0] == '.' || seg.find('\\') != std::string::npos) return jsonError(404, "no such file: " + decodedPath);
        rel /= seg;
    }
    const fs::path root(webRoot_);
    std::error_code ec;
    fs::path target = root / rel;
    if (rel.empty() || fs::is_directory(target, ec)) {
        fs::path dir = target;
        target = dir / "index.html";
        if (!fs::exists(target, ec) && fs::exists(dir / "warpscope-gui.html", ec)) target = dir / "warpscope-gui.html";
    }
    const fs::path real = fs::canonical(target, ec);
    if (ec) return jsonError(404, "no such file: " + decodedPath);
    const std::string r = real.string();
    if (r.size() <= webRoot_.size() || r.compare(0, webRoot_.size(), webRoot_) != 0 || r[webRoot_.size()] != '/')
        return jsonError(403, "a path may not leave the web app's folder");   // a symbolic link pointing out
    if (!fs::is_regular_file(real, ec)) return jsonError(404, "no such file: " + decodedPath);
    Response res;
    res.contentType = contentTypeFor(real.filename().string());
    res.filePath = r;
    res.fileSize = static_cast<size_t>(fs::file_size(real, ec));
    if (ec) return jsonError(404, "no such file: " + decodedPath);
    // Last-Modified, so a reload revalidates the (large) .wasm and .data with a 304 instead of
    // fetching them again.
    struct stat st{};
    if (stat(r.c_str(), &st) == 0) {
        std::tm tm{};
        gmtime_r(&st.st_mtime, &tm);
        char date[64];
        std::strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", &tm);
        res.headers.push_back({"Last-Modified", date});
        if (const std::string* since = req.header("if-modified-since"); since && *since == date) {
            res.status = 304;
            res.filePath.clear();   // no body; Content-Length stays the file's (RFC 9110 8.6)
        }
    }
    return res;
}

// ---------------------------------------------------------------- 5. log and stop
void Server::logLine(const std::string& client, const std::string& method, const std::string& path, int status, size_t bytes,
                     double ms, const std::string& extra) {
    const auto now = std::chrono::system_clock::now();
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    const int millis = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char stamp[40];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
    // The path only, never the query: a ?token= must not land in a log file.
    std::string shownPath = path.size() > 200 ? path.substr(0, 200) + "..." : path;
    char line[512];
    std::snprintf(line, sizeof line, "%s.%03dZ %s %s %s %d %zuB %.0fms", stamp, millis, client.c_str(), method.c_str(), shownPath.c_str(),
                  status, bytes, ms);
    std::string s = line;
    if (!extra.empty()) s += " " + extra;
    std::lock_guard<std::mutex> lock(logMutex_);
    config_.log(s);
}

void Server::stop(double graceSeconds) {
    if (stopping_.exchange(true)) {
        if (acceptThread_.joinable() && acceptThread_.get_id() != std::this_thread::get_id()) acceptThread_.join();
        return;
    }
    if (wake_[1] >= 0) (void)!write(wake_[1], "x", 1);
    if (acceptThread_.joinable()) acceptThread_.join();
    service_.stop();
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait_for(lock, std::chrono::duration<double>(graceSeconds), [&] { return open_ == 0; });
}

} // namespace warpscope::serve
