// PTX lexer and recursive-descent parser.
//
// Sections: 1. Lexer  2. Parser state and helpers  3. Module-level directives
//           4. Declarations (variables, registers, params)  5. Function bodies  6. Instructions
//           and operands  7. AST helpers
#include "ptx/parser.hpp"

#include "base/error.hpp"

#include <cctype>
#include <charconv>
#include <cstring>
#include <map>
#include <sstream>
#include <tuple>
#include <unordered_map>

namespace warpscope::ptx {

// ---------------------------------------------------------------- 1. Lexer
namespace {

enum class Tok : uint8_t { End, Ident, Directive, Integer, Float, String, Punct };

struct Token {
    Tok kind = Tok::End;
    std::string_view text;
    int line = 0, col = 0;
    uint64_t ivalue = 0;     // Integer (magnitude), Float (bits)
    bool isDouble = false;   // Float 0d / decimal
    bool decimalFloat = false;
    double dvalue = 0;       // decimal float value
};

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool isHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

[[noreturn]] void fail(std::string_view file, int line, int col, const std::string& msg) {
    FaultSite site;
    site.ptxLine = static_cast<uint32_t>(line);
    throw Error(Error::Kind::Input,
                std::string(file) + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " + msg, site);
}

class Lexer {
public:
    Lexer(std::string_view text, std::string_view file) : s_(text), file_(file) {}

    std::vector<Token> run() {
        std::vector<Token> out;
        out.reserve(s_.size() / 4);
        for (;;) {
            skipSpaceAndComments();
            Token t;
            t.line = line_;
            t.col = static_cast<int>(pos_ - lineStart_) + 1;
            if (pos_ >= s_.size()) {
                t.kind = Tok::End;
                out.push_back(t);
                return out;
            }
            size_t start = pos_;
            char c = s_[pos_];
            if (c == '.' && pos_ + 1 < s_.size() && isIdentChar(s_[pos_ + 1])) {
                ++pos_;
                while (pos_ < s_.size() && isIdentChar(s_[pos_])) ++pos_;
                t.kind = Tok::Directive;
            } else if (isIdentStart(c)) {
                ++pos_;
                for (;;) {
                    while (pos_ < s_.size() && isIdentChar(s_[pos_])) ++pos_;
                    // Dotted continuations belong to the token: ld.global.f32, %tid.x, and so do
                    // qualified cache hints: ld.global.nc.L1::no_allocate.f32
                    if (pos_ + 1 < s_.size() && s_[pos_] == '.' && isIdentChar(s_[pos_ + 1])) {
                        ++pos_;
                        continue;
                    }
                    if (pos_ + 2 < s_.size() && s_[pos_] == ':' && s_[pos_ + 1] == ':' && isIdentChar(s_[pos_ + 2])) {
                        pos_ += 2;
                        continue;
                    }
                    break;
                }
                t.kind = Tok::Ident;
            } else if (std::isdigit(static_cast<unsigned char>(c))) {
                lexNumber(t);
            } else if (c == '"') {
                ++pos_;
                while (pos_ < s_.size() && s_[pos_] != '"' && s_[pos_] != '\n') {
                    if (s_[pos_] == '\\' && pos_ + 1 < s_.size()) ++pos_;
                    ++pos_;
                }
                if (pos_ >= s_.size() || s_[pos_] != '"') fail(file_, t.line, t.col, "unterminated string");
                ++pos_;
                t.kind = Tok::String;
                t.text = s_.substr(start + 1, pos_ - start - 2);
                out.push_back(t);
                continue;
            } else if (std::strchr(",;:{}[]()<>+-!|@=*", c) != nullptr) {
                ++pos_;
                t.kind = Tok::Punct;
            } else {
                fail(file_, t.line, t.col, std::string("unexpected character '") + printable(c) + "'");
            }
            t.text = s_.substr(start, pos_ - start);
            out.push_back(t);
        }
    }

private:
    static std::string printable(char c) {
        if (std::isprint(static_cast<unsigned char>(c))) return std::string(1, c);
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
        return buf;
    }

    void skipSpaceAndComments() {
        while (pos_ < s_.size()) {
            char c = s_[pos_];
            if (c == '\n') {
                ++line_;
                ++pos_;
                lineStart_ = pos_;
            } else if (std::isspace(static_cast<unsigned char>(c))) {
                ++pos_;
            } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {
                while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
            } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '*') {
                int l = line_, col = static_cast<int>(pos_ - lineStart_) + 1;
                pos_ += 2;
                while (pos_ + 1 < s_.size() && !(s_[pos_] == '*' && s_[pos_ + 1] == '/')) {
                    if (s_[pos_] == '\n') {
                        ++line_;
                        lineStart_ = pos_ + 1;
                    }
                    ++pos_;
                }
                if (pos_ + 1 >= s_.size()) fail(file_, l, col, "unterminated comment");
                pos_ += 2;
            } else {
                break;
            }
        }
    }

    void lexNumber(Token& t) {
        size_t start = pos_;
        auto hexRun = [&] {
            size_t b = pos_;
            while (pos_ < s_.size() && isHex(s_[pos_])) ++pos_;
            return s_.substr(b, pos_ - b);
        };
        if (s_[pos_] == '0' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == 'f' || s_[pos_ + 1] == 'F' ||
                                                         s_[pos_ + 1] == 'd' || s_[pos_ + 1] == 'D')) {
            bool dbl = s_[pos_ + 1] == 'd' || s_[pos_ + 1] == 'D';
            pos_ += 2;
            auto h = hexRun();
            size_t want = dbl ? 16 : 8;
            if (h.size() != want)
                fail(file_, t.line, t.col, std::string("float literal needs ") + std::to_string(want) + " hex digits");
            std::from_chars(h.data(), h.data() + h.size(), t.ivalue, 16);
            t.kind = Tok::Float;
            t.isDouble = dbl;
        } else if (s_[pos_] == '0' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == 'x' || s_[pos_ + 1] == 'X')) {
            pos_ += 2;
            auto h = hexRun();
            if (h.empty() || h.size() > 16) fail(file_, t.line, t.col, "bad hexadecimal literal");
            std::from_chars(h.data(), h.data() + h.size(), t.ivalue, 16);
            t.kind = Tok::Integer;
            if (pos_ < s_.size() && (s_[pos_] == 'U' || s_[pos_] == 'u')) ++pos_;
        } else {
            size_t b = pos_;
            while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
            bool isFloat = false;
            if (pos_ < s_.size() && s_[pos_] == '.' && pos_ + 1 < s_.size() &&
                std::isdigit(static_cast<unsigned char>(s_[pos_ + 1]))) {
                isFloat = true;
                ++pos_;
                while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
            }
            if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
                size_t save = pos_;
                ++pos_;
                if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
                if (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
                    isFloat = true;
                    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
                } else {
                    pos_ = save;
                }
            }
            auto txt = s_.substr(b, pos_ - b);
            if (isFloat) {
                t.kind = Tok::Float;
                t.decimalFloat = true;
                t.isDouble = true;
                t.dvalue = std::strtod(std::string(txt).c_str(), nullptr);
            } else {
                t.kind = Tok::Integer;
                auto r = std::from_chars(txt.data(), txt.data() + txt.size(), t.ivalue, 10);
                if (r.ec != std::errc()) fail(file_, t.line, t.col, "integer literal out of range");
                if (pos_ < s_.size() && (s_[pos_] == 'U' || s_[pos_] == 'u')) ++pos_;
            }
        }
        if (pos_ < s_.size() && isIdentChar(s_[pos_]))
            fail(file_, t.line, t.col, "malformed number '" + std::string(s_.substr(start, pos_ - start + 1)) + "'");
    }

    std::string_view s_;
    std::string_view file_;
    size_t pos_ = 0;
    size_t lineStart_ = 0;
    int line_ = 1;
};

// ---------------------------------------------------------------- 2. Parser state and helpers
class Parser {
public:
    Parser(std::vector<Token> toks, std::string_view file) : t_(std::move(toks)), file_(file) {}

    Module run(int lineCount) {
        mod_.lineCount = lineCount;
        while (!at(Tok::End)) topLevel();
        return std::move(mod_);
    }

private:
    const Token& peek(size_t k = 0) const {
        size_t i = std::min(i_ + k, t_.size() - 1);
        return t_[i];
    }
    bool at(Tok k) const { return peek().kind == k; }
    bool atPunct(char c, size_t k = 0) const {
        const Token& t = peek(k);
        return t.kind == Tok::Punct && t.text.size() == 1 && t.text[0] == c;
    }
    bool atDirective(std::string_view d) const { return peek().kind == Tok::Directive && peek().text == d; }
    const Token& next() {
        const Token& t = peek();
        if (i_ < t_.size() - 1) ++i_;
        return t;
    }
    [[noreturn]] void error(const std::string& msg, const Token* at = nullptr) const {
        const Token& t = at ? *at : peek();
        std::string near = t.kind == Tok::End ? "end of file" : "'" + std::string(t.text) + "'";
        fail(file_, t.line, t.col, msg + " (at " + near + ")");
    }
    void expectPunct(char c, const std::string& what) {
        if (!atPunct(c)) error(std::string("expected '") + c + "' " + what);
        next();
    }
    bool acceptPunct(char c) {
        if (atPunct(c)) {
            next();
            return true;
        }
        return false;
    }
    std::string expectIdent(const std::string& what) {
        if (!at(Tok::Ident)) error("expected " + what);
        return std::string(next().text);
    }
    int64_t expectInt(const std::string& what) {
        bool neg = acceptPunct('-');
        if (!at(Tok::Integer)) error("expected " + what);
        uint64_t v = next().ivalue;
        return static_cast<int64_t>(neg ? 0 - v : v);   // unsigned negation: -2^63 is well defined
    }
    void skipToSemicolon() {
        while (!at(Tok::End) && !atPunct(';')) next();
        acceptPunct(';');
    }
    // Skips a balanced { ... } block (e.g. .section debug data).
    void skipBraces() {
        expectPunct('{', "to open the section");
        int depth = 1;
        while (depth > 0) {
            if (at(Tok::End)) error("unterminated '{' block");
            if (atPunct('{')) ++depth;
            if (atPunct('}')) --depth;
            next();
        }
    }

    // ------------------------------------------------------------ 3. Module-level directives
    void topLevel() {
        if (at(Tok::Directive)) {
            std::string_view d = peek().text;
            if (d == ".version") {
                next();
                const Token& v = next();
                if (v.kind != Tok::Float && v.kind != Tok::Integer) error("expected a version number", &v);
                mod_.version = std::string(v.text);
                return;
            }
            if (d == ".target") {
                next();
                mod_.target = expectIdent("a target such as sm_75");
                while (acceptPunct(',')) expectIdent("a target option");
                return;
            }
            if (d == ".address_size") {
                next();
                mod_.addressSize = static_cast<int>(expectInt("32 or 64"));
                if (mod_.addressSize != 64 && mod_.addressSize != 32) error("address size must be 32 or 64");
                return;
            }
            if (d == ".file") {
                next();
                int idx = static_cast<int>(expectInt("a file index"));
                if (!at(Tok::String)) error("expected a file name string");
                mod_.files[idx] = std::string(next().text);
                while (acceptPunct(',')) next();
                return;
            }
            if (d == ".section") {
                next();
                if (at(Tok::Directive) || at(Tok::Ident)) next();
                skipBraces();
                return;
            }
            bool isExtern = false, isVisible = false;
            while (atDirective(".extern") || atDirective(".visible") || atDirective(".weak") ||
                   atDirective(".common")) {
                if (peek().text == ".extern") isExtern = true;
                if (peek().text == ".visible") isVisible = true;
                next();
            }
            if (atDirective(".entry") || atDirective(".func")) {
                function(isExtern, isVisible);
                return;
            }
            if (atDirective(".global") || atDirective(".const") || atDirective(".shared") || atDirective(".local")) {
                VariableDecl v = variable(isExtern);
                v.isVisible = isVisible;
                if (mod_.findVariable(v.name)) error("variable '" + v.name + "' declared twice");
                mod_.variables.push_back(std::move(v));
                return;
            }
            if (d == ".pragma") {
                skipToSemicolon();
                return;
            }
            error("unknown or misplaced directive '" + std::string(peek().text) + "'");
        }
        error("expected a directive at module scope");
    }

    // ------------------------------------------------------------ 4. Declarations
    StateSpace spaceFrom(std::string_view d) const {
        if (d == ".global") return StateSpace::Global;
        if (d == ".const") return StateSpace::Const;
        if (d == ".shared") return StateSpace::Shared;
        if (d == ".local") return StateSpace::Local;
        if (d == ".param") return StateSpace::Param;
        if (d == ".reg") return StateSpace::Reg;
        return StateSpace::None;
    }

    // [.extern] .space [.align N] [.vN] [.ptr ...] .type name[dims] [= init] ;  (';' optional for params)
    VariableDecl variable(bool isExtern, bool isParam = false) {
        VariableDecl v;
        v.isExtern = isExtern;
        v.ptxLine = peek().line;
        const Token& sp = next();
        v.space = spaceFrom(sp.text);
        if (v.space == StateSpace::None) error("expected a state space", &sp);
        for (;;) {
            if (atDirective(".align")) {
                next();
                v.align = static_cast<int>(expectInt("an alignment"));
                if (v.align <= 0 || (v.align & (v.align - 1)) != 0) error("alignment must be a power of two");
            } else if (atDirective(".v2") || atDirective(".v4") || atDirective(".v8")) {
                v.vectorWidth = peek().text[2] - '0';
                next();
            } else if (atDirective(".ptr") || atDirective(".global") || atDirective(".const") ||
                       atDirective(".shared") || atDirective(".local")) {
                next();  // .param .u64 .ptr .global .align 4 name: pointer attributes are advisory
            } else if (at(Tok::Directive) && typeFromName(peek().text)) {
                if (v.type != Type::None) {
                    next();  // ".u64 .ptr" repeated type-like attributes are not expected; keep first
                    continue;
                }
                v.type = *typeFromName(next().text);
            } else {
                break;
            }
        }
        if (v.type == Type::None) error("expected a type in the declaration of a variable");
        v.name = expectIdent("a variable name");
        while (acceptPunct('[')) {
            if (acceptPunct(']')) {
                v.dims.push_back(0);
                continue;
            }
            int64_t n = expectInt("an array size");
            if (n < 0 || n > (int64_t(1) << 32)) error("array size out of range");
            v.dims.push_back(n);
            expectPunct(']', "after the array size");
        }
        if (!v.dims.empty()) {
            int64_t total = 1;
            for (int64_t d : v.dims) total *= (d == 0 ? 0 : d);
            v.arrayCount = total;
        }
        if (acceptPunct('=')) {
            if (isParam) error("parameters cannot have initialisers");
            initialiser(v);
        }
        if (!isParam) expectPunct(';', "after the declaration");
        return v;
    }

    void appendInit(VariableDecl& v, int elemSize) {
        Token t = peek();
        if (at(Tok::Ident)) {
            // generic(sym) or sym: an address, resolved at load time.
            std::string name = std::string(next().text);
            if (name == "generic" && acceptPunct('(')) {
                name = expectIdent("a symbol");
                expectPunct(')', "after generic(symbol");
            }
            int64_t add = 0;
            if (acceptPunct('+')) add = expectInt("an offset");
            v.initSymbols.emplace_back(v.init.size(), name);
            uint64_t bits = static_cast<uint64_t>(add);
            for (int i = 0; i < elemSize; ++i) v.init.push_back(static_cast<uint8_t>(bits >> (8 * i)));
            return;
        }
        bool neg = acceptPunct('-');
        const Token& n = next();
        uint64_t bits = 0;
        if (n.kind == Tok::Integer) {
            bits = neg ? 0 - n.ivalue : n.ivalue;
            if (v.type == Type::F32) {
                float f = static_cast<float>(neg ? -static_cast<double>(n.ivalue) : static_cast<double>(n.ivalue));
                uint32_t u;
                std::memcpy(&u, &f, 4);
                bits = u;
            } else if (v.type == Type::F64) {
                double d = neg ? -static_cast<double>(n.ivalue) : static_cast<double>(n.ivalue);
                std::memcpy(&bits, &d, 8);
            }
        } else if (n.kind == Tok::Float) {
            if (n.decimalFloat) {
                double d = neg ? -n.dvalue : n.dvalue;
                if (elemSize == 4) {
                    float f = static_cast<float>(d);
                    uint32_t u;
                    std::memcpy(&u, &f, 4);
                    bits = u;
                } else {
                    std::memcpy(&bits, &d, 8);
                }
            } else {
                bits = n.ivalue;
                if (neg) bits ^= n.isDouble ? (uint64_t(1) << 63) : (uint64_t(1) << 31);
            }
        } else {
            error("expected a value in the initialiser", &t);
        }
        for (int i = 0; i < elemSize; ++i) v.init.push_back(static_cast<uint8_t>(bits >> (8 * i)));
    }

    void initialiser(VariableDecl& v) {
        int elemSize = sizeOf(v.type);
        if (elemSize <= 0) error("cannot initialise a variable of this type");
        int depth = 0;
        if (!atPunct('{')) {
            appendInit(v, elemSize);
            return;
        }
        for (;;) {
            if (acceptPunct('{')) {
                ++depth;
                continue;
            }
            if (acceptPunct('}')) {
                if (--depth == 0) break;
                acceptPunct(',');
                continue;
            }
            if (at(Tok::End)) error("unterminated initialiser");
            appendInit(v, elemSize);
            if (!acceptPunct(',') && !atPunct('}')) error("expected ',' or '}' in the initialiser");
        }
        int64_t declared = v.sizeInBytes();
        if (declared > 0 && static_cast<int64_t>(v.init.size()) > declared)
            error("initialiser of '" + v.name + "' is larger than the variable");
        if (declared > 0) v.init.resize(static_cast<size_t>(declared), 0);
    }

    void registers(Function& f) {
        next();  // .reg
        RegisterDecl base;
        int vec = 1;
        if (atDirective(".v2") || atDirective(".v4")) {
            vec = peek().text[2] - '0';
            next();
        }
        (void)vec;
        if (!at(Tok::Directive) || !typeFromName(peek().text)) error("expected a register type after .reg");
        base.type = *typeFromName(next().text);
        for (;;) {
            RegisterDecl r = base;
            r.name = declareScoped(expectIdent("a register name"));
            if (acceptPunct('<')) {
                int64_t n = expectInt("a register count");
                if (n < 0 || n > 1'000'000) error("register count out of range");
                r.count = static_cast<int>(n);
                expectPunct('>', "after the register count");
            }
            f.registers.push_back(r);
            if (!acceptPunct(',')) break;
        }
        expectPunct(';', "after the register declaration");
    }

    // Names declared inside nested { } blocks (call sequences) are renamed so they stay unique.
    std::string declareScoped(const std::string& name) {
        if (scopes_.empty()) return name;
        std::string unique = name + "@" + std::to_string(++scopeCounter_);
        scopes_.back()[name] = unique;
        return unique;
    }
    std::string resolveScoped(const std::string& name) const {
        for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
            auto f = it->find(name);
            if (f != it->end()) return f->second;
        }
        return name;
    }

    // ------------------------------------------------------------ 5. Function bodies
    std::vector<VariableDecl> paramList() {
        std::vector<VariableDecl> out;
        expectPunct('(', "to open the parameter list");
        if (acceptPunct(')')) return out;
        for (;;) {
            if (!atDirective(".param") && !atDirective(".reg")) error("expected .param in the parameter list");
            out.push_back(variable(false, true));
            if (acceptPunct(')')) break;
            expectPunct(',', "between parameters");
        }
        return out;
    }

    void function(bool isExtern, bool isVisible) {
        Function f;
        f.isEntry = peek().text == ".entry";
        f.isExtern = isExtern;
        f.isVisible = isVisible;
        f.ptxLine = peek().line;
        next();
        if (!f.isEntry && atPunct('(')) f.returns = paramList();
        f.name = expectIdent("a function name");
        if (atPunct('(')) f.params = paramList();
        for (;;) {
            if (atDirective(".maxntid") || atDirective(".reqntid")) {
                int* dst = peek().text == ".maxntid" ? f.maxntid : f.reqntid;
                next();
                for (int k = 0; k < 3; ++k) {
                    dst[k] = static_cast<int>(expectInt("a thread count"));
                    if (!acceptPunct(',')) break;
                }
            } else if (atDirective(".minnctapersm") || atDirective(".maxnreg") || atDirective(".maxnctapersm")) {
                bool min = peek().text == ".minnctapersm";
                next();
                int64_t n = expectInt("a count");
                if (min) f.minnctapersm = static_cast<int>(n);
            } else if (atDirective(".noreturn")) {
                next();
            } else if (atDirective(".pragma")) {
                skipToSemicolon();
            } else {
                break;
            }
        }
        if (acceptPunct(';')) {
            f.hasBody = false;
        } else {
            f.hasBody = true;
            body(f);
        }
        if (auto* existing = const_cast<Function*>(mod_.findFunction(f.name))) {
            if (existing->hasBody && f.hasBody) error("function '" + f.name + "' defined twice");
            if (f.hasBody) *existing = std::move(f);
            return;
        }
        mod_.functions.push_back(std::move(f));
    }

    void body(Function& f) {
        expectPunct('{', "to open the function body");
        int depth = 1;
        SourceLoc loc;
        // Where each location last seen in a .loc was inlined, resolved to the outermost one:
        // nvcc nests inlining (a CUDA header's helper inlined into a header function inlined into
        // the kernel), each level a .loc whose inlined_at names the level above, outer first.
        std::map<std::tuple<int, int, int>, std::tuple<int, int, int>> outermost;
        scopes_.clear();
        while (depth > 0) {
            if (at(Tok::End)) error("function '" + f.name + "' is not closed with '}'");
            if (atPunct('{')) {
                next();
                ++depth;
                scopes_.emplace_back();
                continue;
            }
            if (atPunct('}')) {
                next();
                --depth;
                if (!scopes_.empty() && depth >= 1) scopes_.pop_back();
                continue;
            }
            if (at(Tok::Directive)) {
                std::string_view d = peek().text;
                if (d == ".reg") {
                    registers(f);
                } else if (d == ".local" || d == ".shared" || d == ".param" || d == ".global" || d == ".const") {
                    VariableDecl v = variable(false);
                    v.name = declareScoped(v.name);
                    f.locals.push_back(std::move(v));
                } else if (d == ".loc") {
                    next();
                    loc = {};
                    loc.file = static_cast<int>(expectInt("a file index"));
                    loc.line = static_cast<int>(expectInt("a line"));
                    loc.column = static_cast<int>(expectInt("a column"));
                    // , function_name $L__info_stringN, inlined_at F L C
                    while (acceptPunct(',')) {
                        std::string key = expectIdent("function_name or inlined_at");
                        if (key == "function_name") {
                            expectIdent("a function name label");
                        } else if (key == "inlined_at") {
                            int ff = static_cast<int>(expectInt("a file index"));
                            int ll = static_cast<int>(expectInt("a line"));
                            int cc = static_cast<int>(expectInt("a column"));
                            if (auto up = outermost.find({ff, ll, cc}); up != outermost.end()) std::tie(ff, ll, cc) = up->second;
                            outermost[{loc.file, loc.line, loc.column}] = {ff, ll, cc};
                            loc.innerFile = loc.file;
                            loc.innerLine = loc.line;
                            loc.file = ff;
                            loc.line = ll;
                            loc.column = cc;
                        } else {
                            error("unknown .loc attribute '" + key + "'");
                        }
                    }
                } else if (d == ".pragma") {
                    Statement s;
                    s.kind = Statement::Kind::Pragma;
                    s.ptxLine = peek().line;
                    skipToSemicolon();
                    f.body.push_back(std::move(s));
                } else if (d == ".maxnreg" || d == ".maxntid") {
                    skipToSemicolon();
                } else {
                    error("unsupported directive '" + std::string(d) + "' in a function body");
                }
                continue;
            }
            // A call prototype (`name: .callprototype (rets) _ (params);`) or `.calltargets`.
            if (at(Tok::Ident) && atPunct(':', 1) && peek(2).kind == Tok::Directive &&
                (peek(2).text == ".callprototype" || peek(2).text == ".calltargets")) {
                CallPrototype cp;
                cp.ptxLine = peek().line;
                const std::string label(next().text);
                next();   // ':'
                if (peek().text == ".calltargets") {
                    next();
                    cp.isTargets = true;
                    for (;;) {
                        if (!at(Tok::Ident)) error("expected a function name in the .calltargets list");
                        cp.targets.emplace_back(next().text);
                        if (!atPunct(',')) break;
                        next();
                    }
                    expectPunct(';', "after the .calltargets list");
                    cp.name = declareScoped(label);
                    f.prototypes.push_back(std::move(cp));
                    continue;
                }
                next();
                if (atPunct('(')) cp.returns = paramList();
                if (!at(Tok::Ident) || peek().text != "_") error("expected '_' (the prototype's placeholder name) in .callprototype");
                next();
                if (atPunct('(')) cp.params = paramList();
                while (at(Tok::Directive) && peek().text == ".noreturn") next();
                expectPunct(';', "after the .callprototype declaration");
                cp.name = declareScoped(label);
                f.prototypes.push_back(std::move(cp));
                continue;
            }
            // label?
            if (at(Tok::Ident) && atPunct(':', 1)) {
                Statement s;
                s.kind = Statement::Kind::Label;
                s.label = std::string(next().text);
                s.ptxLine = peek().line;
                next();
                f.body.push_back(std::move(s));
                continue;
            }
            Statement s;
            s.kind = Statement::Kind::Instruction;
            s.ptxLine = peek().line;
            s.instr = instruction();
            s.instr.loc = loc;
            f.body.push_back(std::move(s));
        }
        scopes_.clear();
    }

    // ------------------------------------------------------------ 6. Instructions and operands
    Instruction instruction() {
        Instruction in;
        in.ptxLine = peek().line;
        if (acceptPunct('@')) {
            in.guardNegated = acceptPunct('!');
            in.guard = resolveScoped(expectIdent("a predicate register after '@'"));
        }
        if (!at(Tok::Ident)) error("expected an instruction");
        std::string_view op = next().text;
        size_t dot = op.find('.');
        in.opcode = std::string(op.substr(0, dot));
        while (dot != std::string_view::npos) {
            size_t nd = op.find('.', dot + 1);
            in.modifiers.emplace_back(op.substr(dot + 1, nd == std::string_view::npos ? nd : nd - dot - 1));
            dot = nd;
        }
        // Some modifiers arrive as separate directive tokens (e.g. "ld.param .b32" never, but
        // "tex.2d.v4.f32.f32" is fine); accept directive tokens glued after the opcode.
        while (at(Tok::Directive)) in.modifiers.emplace_back(next().text.substr(1));
        if (!atPunct(';') && !atPunct('}')) {
            for (;;) {
                in.operands.push_back(operand());
                if (!acceptPunct(',')) break;
            }
        }
        if (!atPunct(';')) {
            // Point at the end of the instruction, not at whatever the next line starts with.
            const Token& last = t_[i_ > 0 ? i_ - 1 : 0];
            fail(file_, last.line, last.col + static_cast<int>(last.text.size()),
                 "expected ';' at the end of the instruction '" + in.opcode + "'");
        }
        next();
        return in;
    }

    Operand operand() {
        Operand o;
        if (acceptPunct('[')) {
            o.kind = Operand::Kind::Address;
            if (at(Tok::Ident)) {
                const Token& b = next();
                o.name = resolveScoped(std::string(b.text));
                o.baseIsRegister = b.text.front() == '%';
                if (acceptPunct('+')) {
                    o.value = expectInt("an address offset");
                } else if (atPunct('-')) {
                    o.value = expectInt("an address offset");
                }
            } else {
                o.value = expectInt("an address");
            }
            expectPunct(']', "to close the address");
            return o;
        }
        if (atPunct('{') || atPunct('(')) {
            char close = atPunct('{') ? '}' : ')';
            next();
            o.kind = Operand::Kind::Vector;
            if (acceptPunct(close)) return o;
            for (;;) {
                o.elems.push_back(operand());
                if (acceptPunct(close)) break;
                expectPunct(',', "between vector elements");
            }
            return o;
        }
        if (acceptPunct('!')) {
            o = operand();
            if (o.kind != Operand::Kind::Register) error("'!' must precede a predicate register");
            o.negated = true;
            return o;
        }
        bool neg = acceptPunct('-');
        if (at(Tok::Integer)) {
            o.kind = Operand::Kind::Integer;
            uint64_t v = next().ivalue;
            o.value = static_cast<int64_t>(neg ? 0 - v : v);   // wraps like PTX's 64-bit literals
            return o;
        }
        if (at(Tok::Float)) {
            const Token& t = next();
            o.kind = Operand::Kind::Float;
            o.isDouble = t.isDouble;
            if (t.decimalFloat) {
                double d = neg ? -t.dvalue : t.dvalue;
                std::memcpy(&o.bits, &d, 8);
                o.isDouble = true;
            } else {
                o.bits = t.ivalue;
                if (neg) o.bits ^= t.isDouble ? (uint64_t(1) << 63) : (uint64_t(1) << 31);
            }
            return o;
        }
        if (neg) error("expected a number after '-'");
        if (at(Tok::Ident)) {
            std::string name = resolveScoped(std::string(next().text));
            if (name == "_") {
                o.kind = Operand::Kind::Sink;
                return o;
            }
            o.kind = name.front() == '%' ? Operand::Kind::Register : Operand::Kind::Symbol;
            o.name = std::move(name);
            if (acceptPunct('|')) o.pipePredicate = resolveScoped(expectIdent("a predicate after '|'"));
            if (o.kind == Operand::Kind::Symbol && acceptPunct('+')) {
                // sym+imm as a plain operand (e.g. mov.u64 %rd, arr+8)
                o.value = expectInt("an offset");
            }
            return o;
        }
        error("expected an operand");
    }

    std::vector<Token> t_;
    size_t i_ = 0;
    std::string_view file_;
    Module mod_;
    std::vector<std::unordered_map<std::string, std::string>> scopes_;
    int scopeCounter_ = 0;
};

} // namespace

Module parse(std::string_view text, std::string_view displayName) {
    // Count lines once; the lexer reports positions itself.
    int lines = 1;
    for (char c : text)
        if (c == '\n') ++lines;
    Lexer lx(text, displayName);
    Parser p(lx.run(), displayName);
    return p.run(lines);
}

// ---------------------------------------------------------------- 7. AST helpers
std::string_view spaceName(StateSpace s) {
    switch (s) {
    case StateSpace::None: return "";
    case StateSpace::Reg: return "reg";
    case StateSpace::Sreg: return "sreg";
    case StateSpace::Const: return "const";
    case StateSpace::Global: return "global";
    case StateSpace::Local: return "local";
    case StateSpace::Param: return "param";
    case StateSpace::Shared: return "shared";
    case StateSpace::Generic: return "generic";
    }
    return "";
}

bool Instruction::hasModifier(std::string_view m) const {
    for (auto& x : modifiers)
        if (x == m) return true;
    return false;
}

namespace {
void printOperand(std::ostringstream& os, const Operand& o) {
    switch (o.kind) {
    case Operand::Kind::None: break;
    case Operand::Kind::Register:
    case Operand::Kind::Symbol: {
        if (o.negated) os << '!';
        auto at = o.name.find('@');   // scoped names print as written
        os << o.name.substr(0, at);
        if (!o.pipePredicate.empty()) os << '|' << o.pipePredicate.substr(0, o.pipePredicate.find('@'));
        if (o.kind == Operand::Kind::Symbol && o.value) os << '+' << o.value;
        break;
    }
    case Operand::Kind::Integer: os << o.value; break;
    case Operand::Kind::Float: {
        char buf[24];
        if (o.isDouble) std::snprintf(buf, sizeof buf, "0d%016llX", static_cast<unsigned long long>(o.bits));
        else std::snprintf(buf, sizeof buf, "0f%08X", static_cast<unsigned>(o.bits));
        os << buf;
        break;
    }
    case Operand::Kind::Address:
        os << '[';
        if (!o.name.empty()) {
            os << o.name.substr(0, o.name.find('@'));
            if (o.value > 0) os << '+' << o.value;
            else if (o.value < 0) os << o.value;
        } else {
            os << o.value;
        }
        os << ']';
        break;
    case Operand::Kind::Vector:
        os << '{';
        for (size_t i = 0; i < o.elems.size(); ++i) {
            if (i) os << ", ";
            printOperand(os, o.elems[i]);
        }
        os << '}';
        break;
    case Operand::Kind::Sink: os << '_'; break;
    }
}
} // namespace

std::string Instruction::text() const {
    std::ostringstream os;
    if (!guard.empty()) os << '@' << (guardNegated ? "!" : "") << guard.substr(0, guard.find('@')) << ' ';
    os << opcode;
    for (auto& m : modifiers) os << '.' << m;
    for (size_t i = 0; i < operands.size(); ++i) {
        os << (i ? ", " : " ");
        printOperand(os, operands[i]);
    }
    return os.str();
}

int64_t VariableDecl::sizeInBytes() const {
    int64_t elem = static_cast<int64_t>(sizeOf(type)) * vectorWidth;
    if (arrayCount < 0) return elem;
    return elem * arrayCount;
}

int VariableDecl::alignment() const { return align > 0 ? align : std::max(1, sizeOf(type) * vectorWidth); }

const Function* Module::findFunction(std::string_view name) const {
    for (auto& f : functions)
        if (f.name == name) return &f;
    return nullptr;
}

const VariableDecl* Module::findVariable(std::string_view name) const {
    for (auto& v : variables)
        if (v.name == name) return &v;
    return nullptr;
}

std::vector<const Function*> Module::kernels() const {
    std::vector<const Function*> out;
    for (auto& f : functions)
        if (f.isEntry) out.push_back(&f);
    return out;
}

} // namespace warpscope::ptx
