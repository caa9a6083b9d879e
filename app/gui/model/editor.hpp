// The kernel editor's window-free model: the text buffer with undo/redo, the file it came from,
// autosave and crash recovery, and builds on a background thread (the last good build stays
// while the text does not build). The Editor and Launch panels (panels/panel_editor.cpp) draw it;
// tests drive it directly. The launch spec made from a kernel's signature is in editor_launch.hpp.
//
// Sections: 1. text and undo  2. files and autosave  3. builds  4. the model  5. unsaved text: ask first
#pragma once
#include "compile/compile.hpp"
#include "gui/model/background.hpp"
#include "gui/model/editor_launch.hpp"
#include "runtime/lesson.hpp"

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::gui {

// ---------------------------------------------------------------- 1. text and undo
// Undo keeps whole texts (a course kernel is a few KB). Edits closer together than
// kUndoGroupSeconds are one undo step, so undo takes back a typed word, not a letter.
class TextHistory {
public:
    static constexpr double kUndoGroupSeconds = 1.0;
    static constexpr size_t kMaxUndo = 400;
    const std::string& text() const { return text_; }
    void reset(std::string text);                  // a new file: no history
    void edit(std::string text, double nowSeconds); // the user changed the text
    bool undo();
    bool redo();
    bool canUndo() const { return !undo_.empty(); }
    bool canRedo() const { return !redo_.empty(); }

private:
    bool restore(std::vector<std::string>& from, std::vector<std::string>& to);
    std::string text_;
    std::vector<std::string> undo_, redo_;
    double lastEdit_ = -1e9;
};

// Auto-indent: what to insert at `cursor`, just after a typed newline: the previous line's
// indentation (spaces and tabs), four spaces more when that line ends with '{'.
std::string autoIndent(const std::string& text, size_t cursor);

// ---------------------------------------------------------------- 2. files and autosave
// Writes `text` to `path` through a temporary file in the same folder and a rename, so a crash
// leaves either the old file or the new one. Returns false (and says why in *error) on failure.
bool writeFileAtomic(const std::filesystem::path& path, const std::string& text, std::string* error = nullptr);

// One entry of the autosave file: a text and the file it belongs to (empty for a new kernel).
// The autosave file keeps one entry per file whose text is unsaved, so opening another file or
// starting a new kernel never overwrites a text that was not saved; an entry goes when its text
// is saved or the learner discards it.
struct Recovery {
    std::filesystem::path file;
    std::string text;
    std::string savedAt;   // local time, for the offer
};
// The autosave file in the settings folder (empty when persistence is disabled).
std::filesystem::path defaultAutosavePath();
// Every unsaved text left by an earlier run: the autosave entries whose text differs from their
// file, the most recent first. Reads the one-entry format of earlier versions too.
std::vector<Recovery> findRecoveries(const std::filesystem::path& autosaveFile);
// The most recent of them, if any.
std::optional<Recovery> findRecovery(const std::filesystem::path& autosaveFile);
// Drops the entry of `file` (empty: the new kernel's) from the autosave file.
bool forgetAutosaved(const std::filesystem::path& autosaveFile, const std::filesystem::path& file);

// Starter kernels for File > New kernel.
struct KernelTemplate {
    const char* id;
    const char* title;
    const char* text;
};
const std::vector<KernelTemplate>& kernelTemplates();

// ---------------------------------------------------------------- 3. builds
struct BuildRequest {
    std::string source;
    std::string fileName;      // kernel.cu, or the opened file's name
    bool isPtx = false;        // the text is PTX: no compile
    compile::Options options;
};
struct BuildOutcome {
    std::string source;        // the text that was built
    bool isPtx = false;
    compile::Result result;
};

// ---------------------------------------------------------------- 4. the model
class EditorModel {
public:
    // autosaveFile empty: no autosave (tests that do not want one, --no-settings).
    explicit EditorModel(std::filesystem::path autosaveFile = defaultAutosavePath());

    // Text
    const std::string& text() const { return history_.text(); }
    void edit(std::string text, double nowSeconds);
    bool undo() { return bumpIf(history_.undo()); }
    bool redo() { return bumpIf(history_.redo()); }
    bool canUndo() const { return history_.canUndo(); }
    bool canRedo() const { return history_.canRedo(); }
    uint64_t revision() const { return revision_; }   // changes with every edit, undo, redo, open
    bool dirty() const { return history_.text() != savedText_; }
    bool isPtx() const { return isPtx_; }
    bool active() const { return active_; }           // a kernel is open in the editor

    // Files. Errors come back as text, never as exceptions.
    void newFromTemplate(const std::string& templateId);
    bool open(const std::filesystem::path& file, std::string* error);   // .cu/.cuh or .ptx
    bool save(std::string* error);                                       // to file(); false if none
    bool saveAs(const std::filesystem::path& file, std::string* error);
    const std::filesystem::path& file() const { return file_; }
    std::string displayName() const;   // the file's name, or "untitled.cu"
    // Writes kernel.cu (or kernel.ptx only, for PTX), kernel.ptx, lesson.json and steps.md into
    // `folder` from the last good build and the launch spec. Needs a good build.
    bool saveAsLesson(const std::filesystem::path& folder, std::string* error) const;
    // Restores an autosaved text as an unsaved edit of its file.
    void recover(const Recovery& r);
    // Throws the unsaved text away: the editor shows the file's text again (a new kernel: the
    // editor closes) and the autosave forgets it. The learner's explicit choice, never automatic.
    void discard();
    // Closes the kernel (switching to a lesson). Unsaved text stays in the autosave: ask first.
    void close();

    // Autosave: every kAutosaveSeconds while the text changed, and on every build.
    static constexpr double kAutosaveSeconds = 3.0;
    void tick(double nowSeconds);      // call every frame: autosaves when due
    bool autosaveNow();
    const std::filesystem::path& autosaveFile() const { return autosaveFile_; }

    // Builds. build() starts one on the worker; poll() takes its result once it is done
    // (returns true when a new result arrived). The last good build is kept across failures.
    // A text equal to the last good build's is not compiled again: that build is the result.
    void build(const compile::Options& options = {});
    bool poll();
    bool building() const { return runner_->running(); }
    bool waitBuild(double timeoutSeconds) { return runner_->waitIdle(timeoutSeconds); }
    const std::shared_ptr<const BuildOutcome>& lastBuild() const { return last_; }   // null before the first
    const std::shared_ptr<const BuildOutcome>& lastGood() const { return good_; }    // null until one builds
    bool lastBuildFailed() const { return last_ && !last_->result.ok; }
    // The build's diagnostics for this file (prelude notes dropped), errors first by line.
    std::vector<compile::Diagnostic> diagnostics() const;
    // The message for a build that failed without diagnostics (no compiler, time limit).
    std::string buildError() const;

    // Launch: kernels found in the last good build, and the spec the Launch panel edits.
    const std::vector<KernelSignature>& kernels() const { return kernels_; }
    LaunchSpec& launch() { return launch_; }
    const LaunchSpec& launch() const { return launch_; }
    // A lesson.json beside the opened .cu that names it as its "source": it is used instead of
    // the Launch panel's spec (empty when there is none).
    const std::filesystem::path& besideLesson() const { return besideLesson_; }
    // The lesson.json text to run the last good build with (the beside lesson, or the launch
    // spec), with "ptx" pointing at `ptxFile` and "source" at `sourceFile`.
    std::string lessonJson(const std::filesystem::path& ptxFile, const std::filesystem::path& sourceFile) const;
    // The lesson that runs the last good build (its files in a private temporary folder).
    // Throws Error with a clear message for no build or a bad spec.
    runtime::Lesson runnableLesson() const;

private:
    bool bumpIf(bool changed) {
        if (changed) ++revision_;
        return changed;
    }
    void reopen(std::string text, std::filesystem::path file, bool isPtx);
    void adoptBuild(std::shared_ptr<const BuildOutcome> b);

    TextHistory history_;
    std::string savedText_;
    std::filesystem::path file_, autosaveFile_, besideLesson_;
    bool isPtx_ = false, active_ = false;
    uint64_t revision_ = 0, autosavedRevision_ = 0;
    bool reused_ = false;   // build() took the last good build again: poll() says so once
    double lastAutosave_ = 0;
    std::unique_ptr<BackgroundRunner<BuildRequest, BuildOutcome>> runner_;
    std::shared_ptr<const BuildOutcome> seen_, last_, good_;
    std::vector<KernelSignature> kernels_;
    LaunchSpec launch_;
};

// ---------------------------------------------------------------- 5. unsaved text: ask first
// What would replace or close the editor's text (File > New kernel, File > Open, closing the
// window, switching to a lesson) goes through LeaveGuard: with no unsaved text it runs at once;
// otherwise it waits for the learner's answer to "Save / Discard / Cancel". Window-free, so the
// tests answer it; panels/panel_editor.cpp draws the question.
enum class LeaveAnswer { Save, Discard, Cancel };
class LeaveGuard {
public:
    // Runs `then` now and returns true when the editor has nothing unsaved; otherwise keeps it
    // (replacing any earlier question) and returns false. `what` names the action ("open k.cu").
    bool ask(const EditorModel& ed, std::string what, std::function<void()> then);
    bool pending() const { return static_cast<bool>(then_); }
    const std::string& what() const { return what_; }
    // Save: saves to the file and runs the action; a new kernel has no file, so Save returns
    // false with needsName() true (the caller asks for a name, saves as, then answers again).
    // A failed save keeps the question and says why in *error. Discard: the unsaved text is
    // dropped (EditorModel::discard) and the action runs. Cancel: nothing happens.
    bool answer(EditorModel& ed, LeaveAnswer a, std::string* error = nullptr);
    bool needsName() const { return needsName_; }

private:
    std::function<void()> then_;
    std::string what_;
    bool needsName_ = false;
};

} // namespace warpscope::gui
