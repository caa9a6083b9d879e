// PTX abstract syntax: a close, lossless-enough image of the text nvcc emits. The parser fills
// it; sim::compile turns it into an executable program. Nothing here knows about execution.
//
// Sections: Operand, Instruction, Declarations (registers, variables, params), Function, Module.
#pragma once
#include "ptx/types.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace warpscope::ptx {

enum class StateSpace : uint8_t { None, Reg, Sreg, Const, Global, Local, Param, Shared, Generic };
std::string_view spaceName(StateSpace s);

// Source position of an instruction, from the most recent .loc. When a .loc is marked
// "inlined_at", `line`/`file` hold the outermost call site (the line a student wrote) and
// `innerFile`/`innerLine` the inlined location.
struct SourceLoc {
    int file = 0;        // index from .file; 0 = none
    int line = 0;
    int column = 0;
    int innerFile = 0;
    int innerLine = 0;
};

struct Operand {
    enum class Kind : uint8_t {
        None,
        Register,   // %r1, %tid.x, %SP  (name holds the full spelling)
        Integer,    // 42, -1, 0xFF
        Float,      // 0f3F800000 (f32 bits) or 0d... (f64 bits); `bits` holds them
        Symbol,     // a label, variable, function or param name
        Address,    // [base + offset]: base is a register or symbol (or empty for [imm])
        Vector,     // {a, b, c, d}
        Sink,       // _  (discarded destination)
    };
    Kind kind = Kind::None;
    std::string name;            // Register/Symbol, or the Address base
    bool baseIsRegister = false; // Address: base is a register
    bool negated = false;        // !%p
    int64_t value = 0;           // Integer value, Address offset
    uint64_t bits = 0;           // Float bits
    bool isDouble = false;       // Float: 0d form
    std::vector<Operand> elems;  // Vector elements
    std::string pipePredicate;   // "%r25|%p12": the second destination's name (here "%p12")
};

struct Instruction {
    std::string opcode;                 // "ld"
    std::vector<std::string> modifiers; // {"global", "nc", "v4", "f32"} without dots, in order
    std::string guard;                  // predicate register name, or empty
    bool guardNegated = false;
    std::vector<Operand> operands;
    int ptxLine = 0;                    // 1-based line in the PTX text
    SourceLoc loc;
    bool hasModifier(std::string_view m) const;
    std::string text() const;           // reconstructed "ld.global.f32 %f1, [%rd8]"
};

struct RegisterDecl {
    Type type = Type::None;
    std::string name;   // "%r" for ranges, full name otherwise
    int count = 0;      // N for "%r<N>" (names %r0..%r{N-1}); 0 for a single register
};

// A variable in .global/.const/.shared/.local/.param space (module scope or function scope).
struct VariableDecl {
    StateSpace space = StateSpace::None;
    Type type = Type::None;
    std::string name;
    int align = 0;                 // 0 = natural alignment of the type
    int64_t arrayCount = -1;       // -1 scalar, 0 for "[]" (extern/unsized), else element count
    std::vector<int64_t> dims;     // all array dimensions (multi-dimensional arrays)
    bool isExtern = false;
    bool isVisible = false;
    std::vector<uint8_t> init;     // initialiser bytes (little-endian), empty if none
    std::vector<std::pair<size_t, std::string>> initSymbols; // offset -> symbol (generic(x) etc.)
    int vectorWidth = 1;           // .v2/.v4 variables
    int ptxLine = 0;
    int64_t sizeInBytes() const;
    int alignment() const;
};

struct Statement {
    enum class Kind : uint8_t { Instruction, Label, Pragma };
    Kind kind = Kind::Instruction;
    Instruction instr;      // Kind::Instruction
    std::string label;      // Kind::Label
    int ptxLine = 0;
};

// `name: .callprototype (.param .b32 _) _ (.param .b64 _, ...);` inside a body: the signature
// an indirect call (`call (ret), %rd, (args), name;`) promises its target has.
// `name: .calltargets f, g, h;` is the other form: the functions an indirect call may reach.
struct CallPrototype {
    std::string name;                      // scoped like the call sequence's other names
    std::vector<VariableDecl> returns, params;
    bool isTargets = false;                // a .calltargets list (targets), not a prototype
    std::vector<std::string> targets;
    int ptxLine = 0;
};

struct Function {
    std::string name;
    bool isEntry = false;     // .entry (kernel) vs .func
    bool isVisible = false;
    bool isExtern = false;    // declaration only, no body
    bool hasBody = false;
    std::vector<VariableDecl> params;        // in order
    std::vector<VariableDecl> returns;       // .func return parameters
    std::vector<RegisterDecl> registers;
    std::vector<VariableDecl> locals;        // .local/.shared/.param declared in the body (params of call sequences too)
    std::vector<Statement> body;
    std::vector<CallPrototype> prototypes;   // .callprototype declarations in the body
    int ptxLine = 0;
    int maxntid[3] = {0, 0, 0};
    int reqntid[3] = {0, 0, 0};
    int minnctapersm = 0;
};

struct Module {
    std::string version;     // "9.0"
    std::string target;      // "sm_75"
    int addressSize = 64;
    std::vector<VariableDecl> variables;   // module scope
    std::vector<Function> functions;
    std::map<int, std::string> files;      // .file index -> path
    int lineCount = 0;

    const Function* findFunction(std::string_view name) const;
    const VariableDecl* findVariable(std::string_view name) const;
    std::vector<const Function*> kernels() const;
};

} // namespace warpscope::ptx
