// HTTP/1.1 request heads and response heads for `warpscope serve` (http.hpp).
//
// Sections: 1. request head  2. response head  3. URL helpers  4. content types
#include "serve/http.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace warpscope::serve {

namespace {
std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// RFC 9110 token characters (method and header names).
bool isToken(std::string_view s) {
    if (s.empty()) return false;
    for (unsigned char c : s)
        if (!(std::isalnum(c) || std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos)) return false;
    return true;
}

HeadParse fail(int status, std::string message) {
    HeadParse h;
    h.state = HeadParse::State::Error;
    h.status = status;
    h.message = std::move(message);
    return h;
}
} // namespace

// ---------------------------------------------------------------- 1. request head
const std::string* Request::header(const std::string& lowerName) const {
    auto it = headers.find(lowerName);
    return it == headers.end() ? nullptr : &it->second;
}

bool Request::keepAlive() const {
    const std::string* c = header("connection");
    const std::string v = c ? lower(*c) : "";
    if (minorVersion == 0) return v.find("keep-alive") != std::string::npos;
    return v.find("close") == std::string::npos;
}

HeadParse parseHead(std::string_view buffer, Request& req) {
    // Leading empty lines before a request line are allowed (RFC 9112 2.2).
    size_t start = 0;
    while (buffer.substr(start, 2) == "\r\n") start += 2;
    const size_t end = buffer.find("\r\n\r\n", start);
    if (end == std::string_view::npos) {
        if (buffer.size() > kMaxHeaderBytes) return fail(413, "the request's headers are larger than 16 KiB");
        return {};
    }
    if (end + 4 > kMaxHeaderBytes) return fail(413, "the request's headers are larger than 16 KiB");
    std::string_view head = buffer.substr(start, end - start);
    req = Request{};

    // Request line: METHOD SP target SP HTTP/1.x
    size_t eol = head.find("\r\n");
    std::string_view line = head.substr(0, eol);
    const size_t sp1 = line.find(' ');
    const size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
    if (sp1 == std::string_view::npos || sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != std::string_view::npos)
        return fail(400, "the request line is not 'METHOD /path HTTP/1.1'");
    req.method = std::string(line.substr(0, sp1));
    req.target = std::string(line.substr(sp1 + 1, sp2 - sp1 - 1));
    const std::string_view version = line.substr(sp2 + 1);
    if (!isToken(req.method)) return fail(400, "the request's method is not a valid HTTP token");
    if (version == "HTTP/1.1") req.minorVersion = 1;
    else if (version == "HTTP/1.0") req.minorVersion = 0;
    else return fail(400, "only HTTP/1.0 and HTTP/1.1 are served");
    if (req.target.empty() || req.target[0] != '/') return fail(400, "the request target must be a path starting with '/'");
    for (unsigned char c : req.target)
        if (c <= 0x20 || c >= 0x7f) return fail(400, "the request target holds a control or non-ASCII character");
    const size_t q = req.target.find('?');
    req.path = req.target.substr(0, q);
    req.query = q == std::string::npos ? "" : req.target.substr(q + 1);
    if (const size_t hash = req.query.find('#'); hash != std::string::npos) req.query.resize(hash);

    // Header fields: name ":" OWS value OWS
    while (eol != std::string_view::npos) {
        const size_t next = head.find("\r\n", eol + 2);
        std::string_view field = head.substr(eol + 2, next == std::string_view::npos ? std::string_view::npos : next - eol - 2);
        eol = next;
        const size_t colon = field.find(':');
        if (colon == std::string_view::npos || !isToken(field.substr(0, colon)))
            return fail(400, "a request header is not 'Name: value'");
        std::string_view value = trim(field.substr(colon + 1));
        for (unsigned char c : value)
            if ((c < 0x20 && c != '\t') || c == 0x7f) return fail(400, "a request header's value holds a control character");
        const std::string name = lower(field.substr(0, colon));
        auto [it, fresh] = req.headers.emplace(name, std::string(value));
        if (!fresh) {
            if (name == "content-length" && it->second != value) return fail(400, "the request has two different Content-Length headers");
            if (name != "content-length") it->second += ", " + std::string(value);
        }
    }

    HeadParse h;
    h.state = HeadParse::State::Done;
    h.headBytes = end + 4;
    if (req.header("transfer-encoding"))
        return fail(400, "the request body must be sent with Content-Length (chunked or encoded bodies are not taken)");
    if (const std::string* cl = req.header("content-length")) {
        if (cl->empty() || cl->size() > 12 || !std::all_of(cl->begin(), cl->end(), [](unsigned char c) { return std::isdigit(c); }))
            return fail(400, "the request's Content-Length is not a number");
        const unsigned long long n = std::stoull(*cl);
        if (n > kMaxBodyBytes) return fail(413, "the request body is larger than 256 KiB");
        h.contentLength = static_cast<size_t>(n);
    }
    if (const std::string* e = req.header("expect")) h.expectContinue = lower(*e) == "100-continue";
    return h;
}

// ---------------------------------------------------------------- 2. response head
const char* reasonPhrase(int status) {
    switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 204: return "No Content";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 413: return "Content Too Large";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    }
    return "Unknown";
}

std::string responseHead(int status, const std::string& contentType, size_t contentLength,
                         const std::vector<std::pair<std::string, std::string>>& extra, bool keepAlive) {
    std::string h = "HTTP/1.1 " + std::to_string(status) + " " + reasonPhrase(status) + "\r\n";
    h += "Server: warpscope\r\n";
    h += "Content-Type: " + contentType + "\r\n";
    h += "Content-Length: " + std::to_string(contentLength) + "\r\n";
    // Cross-origin isolation, so the web build may use threads (SharedArrayBuffer).
    h += "Cross-Origin-Opener-Policy: same-origin\r\n";
    h += "Cross-Origin-Embedder-Policy: require-corp\r\n";
    h += "Cross-Origin-Resource-Policy: same-origin\r\n";
    h += "X-Content-Type-Options: nosniff\r\n";
    h += "Cache-Control: no-cache\r\n";
    for (auto& [k, v] : extra) h += k + ": " + v + "\r\n";
    h += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    h += "\r\n";
    return h;
}

std::string errorJson(const std::string& sentence) { return nlohmann::json{{"error", sentence}}.dump(); }

// ---------------------------------------------------------------- 3. URL helpers
namespace {
int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::optional<std::string> percentDecode(std::string_view s, bool plusIsSpace, bool refuseSlash) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%') {
            if (i + 2 >= s.size()) return std::nullopt;
            const int hi = hexValue(s[i + 1]), lo = hexValue(s[i + 2]);
            if (hi < 0 || lo < 0) return std::nullopt;
            const char c = static_cast<char>(hi * 16 + lo);
            if (c == '\0' || (refuseSlash && (c == '/' || c == '\\'))) return std::nullopt;
            out += c;
            i += 2;
        } else if (plusIsSpace && s[i] == '+') {
            out += ' ';
        } else {
            out += s[i];
        }
    }
    return out;
}
} // namespace

std::optional<std::string> percentDecodePath(std::string_view path) { return percentDecode(path, false, true); }

std::string queryValue(std::string_view query, std::string_view name) {
    while (!query.empty()) {
        const size_t amp = query.find('&');
        std::string_view pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        const size_t eq = pair.find('=');
        if (pair.substr(0, eq) != name) continue;
        if (eq == std::string_view::npos) return "";
        return percentDecode(pair.substr(eq + 1), true, false).value_or("");
    }
    return "";
}

// ---------------------------------------------------------------- 4. content types
std::string contentTypeFor(std::string_view fileName) {
    const size_t dot = fileName.rfind('.');
    const std::string ext = dot == std::string_view::npos ? "" : lower(fileName.substr(dot + 1));
    static const std::map<std::string, std::string> types = {
        {"html", "text/html; charset=utf-8"}, {"htm", "text/html; charset=utf-8"}, {"js", "text/javascript; charset=utf-8"},
        {"mjs", "text/javascript; charset=utf-8"}, {"wasm", "application/wasm"}, {"data", "application/octet-stream"},
        {"css", "text/css; charset=utf-8"}, {"png", "image/png"}, {"json", "application/json"}, {"svg", "image/svg+xml"},
        {"ico", "image/x-icon"}, {"txt", "text/plain; charset=utf-8"}, {"md", "text/plain; charset=utf-8"},
        {"map", "application/json"}, {"ttf", "font/ttf"}, {"woff2", "font/woff2"}, {"jpg", "image/jpeg"}, {"jpeg", "image/jpeg"}};
    auto it = types.find(ext);
    return it == types.end() ? "application/octet-stream" : it->second;
}

} // namespace warpscope::serve
