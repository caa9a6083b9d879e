#include "runtime/expr.hpp"

#include "base/error.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <utility>
#include <vector>

namespace warpscope::runtime {
namespace {

class ExprParser {
public:
    ExprParser(std::string_view s, const NameLookup& n, const std::string& where) : s_(s), names_(n), where_(where) {}

    Value run() {
        Value v = logicOr();
        skip();
        if (p_ != s_.size()) fail("unexpected '" + std::string(s_.substr(p_, 1)) + "'");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& m) const {
        throw Error(Error::Kind::Input, where_ + ": " + m + " in expression '" + std::string(s_) + "'");
    }
    void skip() {
        while (p_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[p_]))) ++p_;
    }
    bool eat(std::string_view tok) {
        skip();
        if (s_.substr(p_, tok.size()) == tok) {
            p_ += tok.size();
            return true;
        }
        return false;
    }
    static Value arith(char op, Value a, Value b, const ExprParser& self) {
        if (a.isFloat || b.isFloat) {
            double x = a.asDouble(), y = b.asDouble();
            switch (op) {
            case '+': return Value::ofFloat(x + y);
            case '-': return Value::ofFloat(x - y);
            case '*': return Value::ofFloat(x * y);
            case '/': return Value::ofFloat(x / y);
            default: self.fail(std::string("operator '") + op + "' needs integers");
            }
        }
        int64_t x = a.i, y = b.i;
        switch (op) {
        case '+': return Value::ofInt(static_cast<int64_t>(static_cast<uint64_t>(x) + static_cast<uint64_t>(y)));
        case '-': return Value::ofInt(static_cast<int64_t>(static_cast<uint64_t>(x) - static_cast<uint64_t>(y)));
        case '*': return Value::ofInt(static_cast<int64_t>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y)));
        case '/':
        case '%':
            if (y == 0) self.fail("division by zero");
            if (x == INT64_MIN && y == -1) self.fail("overflow");
            return Value::ofInt(op == '/' ? x / y : x % y);
        case '&': return Value::ofInt(x & y);
        case '|': return Value::ofInt(x | y);
        case '<':
            if (y < 0 || y > 63) self.fail("shift out of range");
            return Value::ofInt(static_cast<int64_t>(static_cast<uint64_t>(x) << y));
        case '>':
            if (y < 0 || y > 63) self.fail("shift out of range");
            return Value::ofInt(x >> y);
        default: self.fail("bad operator");
        }
    }
    // Logical || and && (lowest precedence) and comparisons give 1 or 0, for "if" conditions:
    // MODE == 0 && ORDER == 1. Both sides are always evaluated (there are no side effects).
    Value logicOr() {
        Value v = logicAnd();
        while (eat("||")) {
            Value w = logicAnd();
            v = Value::ofInt(truthy(v) || truthy(w) ? 1 : 0);
        }
        return v;
    }
    Value logicAnd() {
        Value v = cmpExpr();
        while (eat("&&")) {
            Value w = cmpExpr();
            v = Value::ofInt(truthy(v) && truthy(w) ? 1 : 0);
        }
        return v;
    }
    static bool truthy(const Value& v) { return v.isFloat ? v.d != 0 : v.i != 0; }
    // A single-character operator that is not the first half of a doubled one (| vs ||).
    bool eatSingle(char c) {
        skip();
        if (p_ < s_.size() && s_[p_] == c && (p_ + 1 >= s_.size() || s_[p_ + 1] != c)) {
            ++p_;
            return true;
        }
        return false;
    }
    Value cmpExpr() {
        Value v = orExpr();
        for (;;) {
            int op = 0;
            if (eat("==")) op = 1;
            else if (eat("!=")) op = 2;
            else if (eat("<=")) op = 3;
            else if (eat(">=")) op = 4;
            else if (eat("<")) op = 5;
            else if (eat(">")) op = 6;
            else return v;
            Value w = orExpr();
            bool r;
            if (v.isFloat || w.isFloat) {
                double x = v.asDouble(), y = w.asDouble();
                r = op == 1 ? x == y : op == 2 ? x != y : op == 3 ? x <= y : op == 4 ? x >= y : op == 5 ? x < y : x > y;
            } else {
                int64_t x = v.i, y = w.i;
                r = op == 1 ? x == y : op == 2 ? x != y : op == 3 ? x <= y : op == 4 ? x >= y : op == 5 ? x < y : x > y;
            }
            v = Value::ofInt(r ? 1 : 0);
        }
    }
    Value orExpr() {
        Value v = andExpr();
        while (eatSingle('|')) v = arith('|', v, andExpr(), *this);
        return v;
    }
    Value andExpr() {
        Value v = shiftExpr();
        while (eatSingle('&')) v = arith('&', v, shiftExpr(), *this);
        return v;
    }
    // One left-associative level: operands from `next`, joined by any of `ops` (its spelling, and
    // the operator arith() applies).
    Value binaryLevel(Value (ExprParser::*next)(), std::initializer_list<std::pair<const char*, char>> ops) {
        Value v = (this->*next)();
        for (;;) {
            auto op = std::find_if(ops.begin(), ops.end(), [this](const std::pair<const char*, char>& o) { return eat(o.first); });
            if (op == ops.end()) return v;
            v = arith(op->second, v, (this->*next)(), *this);
        }
    }
    Value shiftExpr() { return binaryLevel(&ExprParser::addExpr, {{"<<", '<'}, {">>", '>'}}); }
    Value addExpr() { return binaryLevel(&ExprParser::mulExpr, {{"+", '+'}, {"-", '-'}}); }
    Value mulExpr() { return binaryLevel(&ExprParser::unary, {{"*", '*'}, {"/", '/'}, {"%", '%'}}); }
    Value unary() {
        if (eat("-")) {
            Value v = unary();
            if (v.isFloat) v.d = -v.d;
            else v.i = static_cast<int64_t>(0 - static_cast<uint64_t>(v.i));
            return v;
        }
        if (eat("+")) return unary();
        return primary();
    }
    Value primary() {
        skip();
        if (++depth_ > 64) fail("expression nested too deeply");
        struct DepthGuard {
            int& d;
            ~DepthGuard() { --d; }
        } guard{depth_};
        if (eat("(")) {
            Value v = logicOr();
            if (!eat(")")) fail("missing ')'");
            return v;
        }
        if (p_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[p_])) || s_[p_] == '.')) {
            size_t start = p_;
            bool isFloat = false;
            if (s_.substr(p_, 2) == "0x" || s_.substr(p_, 2) == "0X") {
                p_ += 2;
                while (p_ < s_.size() && std::isxdigit(static_cast<unsigned char>(s_[p_]))) ++p_;
                return Value::ofInt(static_cast<int64_t>(std::strtoull(std::string(s_.substr(start, p_ - start)).c_str(), nullptr, 16)));
            }
            while (p_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[p_])) || s_[p_] == '.' || s_[p_] == 'e' || s_[p_] == 'E' ||
                                      ((s_[p_] == '-' || s_[p_] == '+') && (s_[p_ - 1] == 'e' || s_[p_ - 1] == 'E')))) {
                if (s_[p_] == '.' || s_[p_] == 'e' || s_[p_] == 'E') isFloat = true;
                ++p_;
            }
            std::string num(s_.substr(start, p_ - start));
            char* end = nullptr;
            if (isFloat) {
                double d = std::strtod(num.c_str(), &end);
                if (*end) fail("bad number '" + num + "'");
                return Value::ofFloat(d);
            }
            errno = 0;
            unsigned long long u = std::strtoull(num.c_str(), &end, 10);
            if (*end || errno) fail("bad number '" + num + "'");
            return Value::ofInt(static_cast<int64_t>(u));
        }
        if (p_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[p_])) || s_[p_] == '_')) {
            size_t start = p_;
            while (p_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[p_])) || s_[p_] == '_')) ++p_;
            std::string name(s_.substr(start, p_ - start));
            if (eat("(")) {
                std::vector<Value> args;
                std::string typeArg;
                if (name == "sizeof") {
                    skip();
                    size_t b = p_;
                    while (p_ < s_.size() && std::isalnum(static_cast<unsigned char>(s_[p_]))) ++p_;
                    typeArg = std::string(s_.substr(b, p_ - b));
                } else if (!eat(")")) {
                    do args.push_back(logicOr());
                    while (eat(","));
                    if (!eat(")")) fail("missing ')' after the arguments of " + name);
                }
                if (name == "sizeof") {
                    if (!eat(")")) fail("missing ')'");
                    static const std::pair<const char*, int> sizes[] = {{"u8", 1}, {"s8", 1}, {"u16", 2}, {"s16", 2}, {"f16", 2},
                                                                        {"u32", 4}, {"s32", 4}, {"f32", 4}, {"u64", 8}, {"s64", 8}, {"f64", 8}};
                    for (auto& [n, sz] : sizes)
                        if (typeArg == n) return Value::ofInt(sz);
                    fail("unknown type '" + typeArg + "' in sizeof");
                }
                auto need = [&](size_t n) {
                    if (args.size() != n) fail(name + " takes " + std::to_string(n) + " argument(s)");
                };
                if (name == "ceil_div") {
                    need(2);
                    if (args[0].isFloat || args[1].isFloat) return Value::ofFloat(std::ceil(args[0].asDouble() / args[1].asDouble()));
                    if (args[1].i <= 0) fail("ceil_div needs a positive divisor");
                    return Value::ofInt((args[0].i + args[1].i - 1) / args[1].i);
                }
                if (name == "min" || name == "max") {
                    need(2);
                    bool lt = args[0].asDouble() < args[1].asDouble();
                    return (name == "min") == lt ? args[0] : args[1];
                }
                if (name == "pow2") {
                    need(1);
                    if (args[0].asInt() < 0 || args[0].asInt() > 62) fail("pow2 argument out of range");
                    return Value::ofInt(int64_t(1) << args[0].asInt());
                }
                fail("unknown function '" + name + "'");
            }
            auto v = names_(name);
            if (!v) fail("unknown name '" + name + "'");
            return *v;
        }
        if (p_ >= s_.size()) fail("expression ends too early");
        fail("unexpected '" + std::string(s_.substr(p_, 1)) + "'");
    }

    std::string_view s_;
    const NameLookup& names_;
    const std::string& where_;
    size_t p_ = 0;
    int depth_ = 0;
};

} // namespace

Value evaluate(std::string_view text, const NameLookup& names, const std::string& where) {
    ExprParser p(text, names, where);
    return p.run();
}

} // namespace warpscope::runtime
