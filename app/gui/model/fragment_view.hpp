// The fragment view's model (panel_fragments.cpp draws it): the selected warp's matrix
// instruction (wmma.load/store/mma, mma.sync, ldmatrix, movmatrix) with each of its operand
// tiles as a matrix, every element naming the lane and register that hold it and, where the
// registers hold it now, its value.
//
// Which instruction: the one the selected warp executes next when that is a matrix instruction,
// else the last one it executed in this launch. The layouts come from the engine's
// sim::fragmentMap (the PTX ISA's tables for mma.sync, the H100's for wmma); the values from the
// warp's registers in the snapshot. Before the instruction runs, the registers it writes hold
// nothing of it yet ("not yet"); after, a register it both read and wrote holds the result, so
// the input's value is gone ("overwritten").
#pragma once
#include "gui/model/snapshot.hpp"
#include "gui/style/palette.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::gui {

struct FragmentCell {
    int lane = -1;          // the lane that holds it (first holder; f16 wmma A/B: each element twice, same lane)
    int reg = -1;           // index in the operand's register list (the fragment's x[] register)
    int sub = 0;            // 16-bit half (0 low, 1 high) or byte of that register
    int copies = 1;         // how many registers hold it (f16 wmma A/B: 2)
    int copyReg = -1;       // the second register, when copies > 1
    std::string regName;    // "%r45" (or "imm" for a constant operand)
    bool hasValue = false;
    double value = 0;
    std::string valueText;  // formatted for its type, or why there is none ("not yet", "overwritten")
};

struct FragmentTile {
    std::string name;       // "A", "B", "C", "D"
    std::string role;       // "input", "accumulator", "result", "loaded", "stored", "source"
    int rows = 0, cols = 0;
    std::string type;       // "f16", "f32", "b16", ...
    std::vector<FragmentCell> cells;   // rows * cols, row-major
    int subTiles = 1;       // ldmatrix .x2/.x4: that many 8x8 matrices side by side
    const FragmentCell& at(int r, int c) const { return cells[size_t(r) * size_t(cols) + size_t(c)]; }
};

struct FragmentView {
    bool valid = false;
    std::string message;        // when !valid: why nothing is shown
    int32_t pc = -1;
    uint32_t line = 0, ptxLine = 0;
    bool executed = false;      // the warp executed it (else: it executes it next)
    bool movedOn = false;       // executed, and the warp has run other instructions since (values are the registers' now)
    std::string instruction;    // "wmma.mma m16n16k16 f16 x f16 + f32 ..."
    std::string ptx;            // the PTX text
    std::vector<FragmentTile> tiles;
};

// The view for the snapshot's selected warp.
FragmentView buildFragmentView(const Snapshot& s);

// "A[3][5] = 1.5, lane 13, register 2 (%r7), high half" (the hover text).
std::string fragmentCellText(const FragmentTile& t, int row, int col);

// The elements lane `lane` holds in tile `t` (row-major indices).
std::vector<int> laneCells(const FragmentTile& t, int lane);

// Lane colours: the 8 groups of 4 lanes (g = lane / 4, the row groups of the mma layouts) get
// 8 hues, the 4 lanes of a group (t = lane % 4) 4 shades of it.
Rgb fragmentLaneColor(int lane);

} // namespace warpscope::gui
