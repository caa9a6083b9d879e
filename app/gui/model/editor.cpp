// The kernel editor's model (editor.hpp).
//
// Sections: 1. text and undo  2. files and autosave  3. templates  4. the model  5. unsaved text: ask first
#include "gui/model/editor.hpp"
#include "base/files.hpp"

#include "base/error.hpp"
#include "gui/model/settings.hpp"
#include "ptx/parser.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace warpscope::gui {

namespace fs = std::filesystem;

// ---------------------------------------------------------------- 1. text and undo
void TextHistory::reset(std::string text) {
    text_ = std::move(text);
    undo_.clear();
    redo_.clear();
    lastEdit_ = -1e9;
}

void TextHistory::edit(std::string text, double nowSeconds) {
    if (text == text_) return;
    // A pause (or an undo in between) starts a new undo step; quick typing extends the last one.
    if (nowSeconds - lastEdit_ > kUndoGroupSeconds || undo_.empty()) {
        undo_.push_back(text_);
        if (undo_.size() > kMaxUndo) undo_.erase(undo_.begin());
    }
    redo_.clear();
    text_ = std::move(text);
    lastEdit_ = nowSeconds;
}

bool TextHistory::undo() { return restore(undo_, redo_); }

bool TextHistory::redo() { return restore(redo_, undo_); }

// Undo and redo: the text goes on one stack and the other's last entry becomes the text.
bool TextHistory::restore(std::vector<std::string>& from, std::vector<std::string>& to) {
    if (from.empty()) return false;
    to.push_back(std::move(text_));
    text_ = std::move(from.back());
    from.pop_back();
    lastEdit_ = -1e9;
    return true;
}

std::string autoIndent(const std::string& text, size_t cursor) {
    if (cursor == 0 || cursor > text.size() || text[cursor - 1] != '\n') return {};
    size_t end = cursor - 1;   // the newline that ends the previous line
    size_t start = end == 0 ? 0 : text.rfind('\n', end - 1);
    start = start == std::string::npos || end == 0 ? 0 : start + 1;
    std::string line = text.substr(start, end - start);
    size_t n = line.find_first_not_of(" \t");
    std::string indent = line.substr(0, n == std::string::npos ? line.size() : n);
    size_t last = line.find_last_not_of(" \t\r");
    if (last != std::string::npos && line[last] == '{') indent += "    ";
    return indent;
}

// ---------------------------------------------------------------- 2. files and autosave
namespace {
bool readFile(const fs::path& p, std::string& out) {
    std::optional<std::string> text = base::readFile(p);
    if (text) out = std::move(*text);
    return text.has_value();
}

std::string localTime() {
    std::time_t t = std::time(nullptr);
    char buf[64];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", std::localtime(&t));
    return buf;
}
} // namespace

bool writeFileAtomic(const fs::path& path, const std::string& text, std::string* error) {
    std::error_code ec;
    if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
    fs::path tmp = path;
    tmp += ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out) {
            if (error) *error = "Cannot write '" + tmp.string() + "'.";
            fs::remove(tmp, ec);
            return false;
        }
    }
    fs::rename(tmp, path, ec);
    if (ec) {
        if (error) *error = "Cannot replace '" + path.string() + "': " + ec.message() + ".";
        fs::remove(tmp, ec);
        return false;
    }
    return true;
}

fs::path defaultAutosavePath() {
    fs::path dir = configDir();
    return dir.empty() ? fs::path() : dir / "editor-autosave.json";
}

namespace {
// Every entry of the autosave file as written (no comparison with the files on disk). A torn or
// foreign file reads as no entries.
std::vector<Recovery> readAutosave(const fs::path& autosaveFile) {
    std::vector<Recovery> out;
    std::string text;
    if (autosaveFile.empty() || !readFile(autosaveFile, text)) return out;
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return out;
    auto one = [&](const nlohmann::json& e) {
        if (!e.is_object() || !e.contains("text") || !e["text"].is_string()) return;
        Recovery r;
        r.text = e["text"].get<std::string>();
        if (e.contains("file") && e["file"].is_string()) r.file = e["file"].get<std::string>();
        if (e.contains("saved_at") && e["saved_at"].is_string()) r.savedAt = e["saved_at"].get<std::string>();
        out.push_back(std::move(r));
    };
    if (j.contains("files") && j["files"].is_array())
        for (auto& e : j["files"]) one(e);
    else
        one(j);   // the one-entry format of earlier versions
    return out;
}

// Writes the entries (most recent first); none left: the file goes.
bool writeAutosave(const fs::path& autosaveFile, const std::vector<Recovery>& entries) {
    if (entries.empty()) {
        std::error_code ec;
        fs::remove(autosaveFile, ec);
        return !ec;
    }
    nlohmann::json files = nlohmann::json::array();
    for (auto& r : entries) files.push_back({{"file", r.file.string()}, {"text", r.text}, {"saved_at", r.savedAt}});
    return writeFileAtomic(autosaveFile, nlohmann::json{{"files", files}}.dump(1));
}
} // namespace

std::vector<Recovery> findRecoveries(const fs::path& autosaveFile) {
    std::vector<Recovery> out;
    for (auto& r : readAutosave(autosaveFile)) {
        std::string onDisk;
        if (!r.file.empty() && readFile(r.file, onDisk) && onDisk == r.text) continue;   // nothing unsaved
        if (r.file.empty() && r.text.empty()) continue;
        out.push_back(std::move(r));
    }
    return out;
}

std::optional<Recovery> findRecovery(const fs::path& autosaveFile) {
    std::vector<Recovery> all = findRecoveries(autosaveFile);
    if (all.empty()) return std::nullopt;
    return all.front();
}

bool forgetAutosaved(const fs::path& autosaveFile, const fs::path& file) {
    if (autosaveFile.empty()) return false;
    std::vector<Recovery> entries = readAutosave(autosaveFile);
    auto keep = std::remove_if(entries.begin(), entries.end(), [&](const Recovery& r) { return r.file == file; });
    if (keep == entries.end()) return true;
    entries.erase(keep, entries.end());
    return writeAutosave(autosaveFile, entries);
}

// ---------------------------------------------------------------- 3. templates
const std::vector<KernelTemplate>& kernelTemplates() {
    static const std::vector<KernelTemplate> list = {
        {"1d", "1D: one thread per element",
         R"(// One thread per element: y[i] = a * x[i] + y[i].
extern "C" __global__ void saxpy(int n, float a, const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}
)"},
        {"2d", "2D: one thread per pixel of an image",
         R"(// One thread per pixel of a width x height image, a 2D grid of 2D blocks.
extern "C" __global__ void brighten(const float* in, float* out, int width, int height, float gain)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        int i = y * width + x;
        out[i] = in[i] * gain;
    }
}
)"},
        {"tile", "Shared-memory tile: reverse each block's elements",
         R"(// Each block loads a tile into shared memory, waits, and writes it back reversed.
#define TILE 256

extern "C" __global__ void reverse_tiles(const int* in, int* out, int n)
{
    __shared__ int tile[TILE];
    int i = blockIdx.x * TILE + threadIdx.x;
    if (i < n) {
        tile[threadIdx.x] = in[i];
    }
    __syncthreads();
    int j = blockIdx.x * TILE + (TILE - 1 - threadIdx.x);
    if (i < n && j < n) {
        out[i] = tile[TILE - 1 - threadIdx.x];
    }
}
)"},
    };
    return list;
}

// ---------------------------------------------------------------- 4. the model
EditorModel::EditorModel(fs::path autosaveFile)
    : autosaveFile_(std::move(autosaveFile)),
      runner_(std::make_unique<BackgroundRunner<BuildRequest, BuildOutcome>>(
          [](const BuildRequest& req, uint64_t, const std::atomic<bool>&) {
              BuildOutcome out;
              out.source = req.source;
              out.isPtx = req.isPtx;
              if (req.isPtx) {   // PTX is run as written: nothing to compile
                  out.result.ok = true;
                  out.result.ptx = req.source;
              } else {
                  out.result = compile::compile(req.source, req.fileName, req.options);
              }
              // PTX the simulator cannot read is a failed build too (for a .ptx, at its line).
              if (out.result.ok) {
                  try {
                      ptx::parse(out.result.ptx, req.fileName);
                  } catch (const Error& e) {
                      out.result.ok = false;
                      if (req.isPtx) {
                          compile::Diagnostic d;
                          d.file = req.fileName;
                          d.line = static_cast<int>(e.site().ptxLine.value_or(0));
                          d.message = e.what();
                          out.result.diagnostics.push_back(d);
                      } else {
                          out.result.error = std::string("The simulator cannot read the compiler's PTX: ") + e.what();
                      }
                  }
              }
              return out;
          },
          false)) {}

void EditorModel::edit(std::string text, double nowSeconds) {
    if (text == history_.text()) return;
    history_.edit(std::move(text), nowSeconds);
    ++revision_;
}

void EditorModel::reopen(std::string text, fs::path file, bool isPtx) {
    history_.reset(text);
    savedText_ = std::move(text);
    file_ = std::move(file);
    isPtx_ = isPtx;
    active_ = true;
    ++revision_;
    autosavedRevision_ = revision_;
    besideLesson_.clear();
    // A lesson folder's kernel.cu opened on its own: its lesson.json says how to launch it.
    std::error_code ec;
    if (!file_.empty() && fs::exists(file_.parent_path() / "lesson.json", ec)) {
        std::string j;
        readFile(file_.parent_path() / "lesson.json", j);
        nlohmann::json lj = nlohmann::json::parse(j, nullptr, false);
        if (lj.is_object() && lj.contains("source") && lj["source"].is_string() && lj["source"].get<std::string>() == file_.filename().string())
            besideLesson_ = file_.parent_path() / "lesson.json";
    }
}

void EditorModel::newFromTemplate(const std::string& templateId) {
    for (auto& t : kernelTemplates())
        if (templateId == t.id) {
            reopen("", {}, false);
            history_.reset("");
            edit(t.text, -1e9);   // unsaved: the template is text the student has not stored yet
            return;
        }
    reopen(kernelTemplates()[0].text, {}, false);
}

bool EditorModel::open(const fs::path& file, std::string* error) {
    std::string ext = file.extension().string();
    if (ext != ".cu" && ext != ".cuh" && ext != ".ptx") {
        if (error) *error = "The editor opens a .cu or .ptx file; '" + file.string() + "' is neither.";
        return false;
    }
    std::string text;
    std::error_code ec;
    if (fs::is_directory(file, ec) || !readFile(file, text)) {
        if (error) *error = "Cannot read '" + file.string() + "'.";
        return false;
    }
    if (text.size() > (4u << 20)) {
        if (error) *error = "'" + file.string() + "' is larger than 4 MB; the editor is for kernels.";
        return false;
    }
    reopen(std::move(text), fs::absolute(file, ec), ext == ".ptx");
    return true;
}

bool EditorModel::save(std::string* error) {
    if (file_.empty()) {
        if (error) *error = "This kernel has no file yet: use Save as.";
        return false;
    }
    return saveAs(file_, error);
}

bool EditorModel::saveAs(const fs::path& file, std::string* error) {
    if (file.empty()) {
        if (error) *error = "Give a file name.";
        return false;
    }
    if (!writeFileAtomic(file, text(), error)) return false;
    std::error_code ec;
    file_ = fs::absolute(file, ec);
    isPtx_ = file_.extension() == ".ptx";
    savedText_ = text();
    autosaveNow();   // the autosave now matches the file: no recovery offer for it
    return true;
}

std::string EditorModel::displayName() const {
    if (!file_.empty()) return file_.filename().string();
    return isPtx_ ? "untitled.ptx" : "untitled.cu";
}

void EditorModel::recover(const Recovery& r) {
    std::string onDisk;
    std::error_code ec;
    if (!r.file.empty() && readFile(r.file, onDisk)) reopen(std::move(onDisk), r.file, r.file.extension() == ".ptx");
    else reopen("", r.file, r.file.extension() == ".ptx");
    edit(r.text, -1e9);
}

void EditorModel::tick(double nowSeconds) {
    if (revision_ != autosavedRevision_ && nowSeconds - lastAutosave_ >= kAutosaveSeconds) {
        autosaveNow();
        lastAutosave_ = nowSeconds;
    }
}

bool EditorModel::autosaveNow() {
    if (autosaveFile_.empty() || !active_) return false;
    // This file's entry is replaced (or dropped once the text equals the file); the entries of
    // other files stay until they are saved or discarded.
    std::vector<Recovery> entries = readAutosave(autosaveFile_);
    entries.erase(std::remove_if(entries.begin(), entries.end(), [&](const Recovery& r) { return r.file == file_; }), entries.end());
    if (dirty()) entries.insert(entries.begin(), Recovery{file_, text(), localTime()});
    if (!writeAutosave(autosaveFile_, entries)) return false;
    autosavedRevision_ = revision_;
    return true;
}

void EditorModel::discard() {
    if (!active_) return;
    if (!autosaveFile_.empty()) forgetAutosaved(autosaveFile_, file_);
    if (file_.empty()) close();
    else reopen(savedText_, file_, isPtx_);
}

void EditorModel::close() {
    history_.reset("");
    savedText_.clear();
    file_.clear();
    besideLesson_.clear();
    isPtx_ = false;
    active_ = false;
    ++revision_;
    autosavedRevision_ = revision_;
}

// ---------------------------------------------------------------- 5. unsaved text: ask first
bool LeaveGuard::ask(const EditorModel& ed, std::string what, std::function<void()> then) {
    if (!ed.active() || !ed.dirty()) {
        then_ = nullptr;
        needsName_ = false;
        then();
        return true;
    }
    then_ = std::move(then);
    what_ = std::move(what);
    needsName_ = false;
    return false;
}

bool LeaveGuard::answer(EditorModel& ed, LeaveAnswer a, std::string* error) {
    if (!then_) return true;
    if (a == LeaveAnswer::Cancel) {
        then_ = nullptr;
        needsName_ = false;
        return true;
    }
    if (a == LeaveAnswer::Save) {
        if (ed.file().empty()) {
            needsName_ = true;
            if (error) *error = "This kernel has no file yet: give it a name.";
            return false;
        }
        if (!ed.save(error)) return false;
    } else {
        ed.discard();
    }
    auto run = std::move(then_);
    then_ = nullptr;
    needsName_ = false;
    run();
    return true;
}

void EditorModel::build(const compile::Options& options) {
    if (!active_) return;
    autosaveNow();
    // The text is the last good build's again (an undo after a failed build): that build is the
    // outcome, at once, so the failed build's error marks go (no compile needed).
    if (good_ && good_->source == text() && good_->isPtx == isPtx_ && !runner_->running()) {
        last_ = good_;
        reused_ = true;   // poll() reports it as a new result, as a finished build
        return;
    }
    BuildRequest req;
    req.source = text();
    req.fileName = file_.empty() ? std::string("kernel.cu") : file_.filename().string();
    req.isPtx = isPtx_;
    req.options = options;
    runner_->request(std::move(req));
}

bool EditorModel::poll() {
    if (reused_) {
        reused_ = false;
        return true;
    }
    auto r = runner_->result();
    if (!r || r == seen_) return false;
    seen_ = r;
    adoptBuild(r);
    return true;
}

void EditorModel::adoptBuild(std::shared_ptr<const BuildOutcome> b) {
    last_ = b;
    if (!b->result.ok) return;   // the last good build stays
    good_ = b;
    std::vector<KernelSignature> ptx = parsePtxEntries(b->result.ptx);
    kernels_ = b->isPtx ? ptx : mergeSignatures(ptx, parseCudaKernels(b->source));
    if (kernels_.empty()) return;
    const KernelSignature* k = &kernels_[0];
    for (auto& x : kernels_)
        if (x.name == launch_.kernel) k = &x;
    launch_ = refreshLaunchSpec(launch_, *k);
}

std::vector<compile::Diagnostic> EditorModel::diagnostics() const {
    std::vector<compile::Diagnostic> out;
    if (!last_) return out;
    for (auto& d : last_->result.diagnostics)
        if (d.file != compile::kPreludeName || d.severity != compile::Diagnostic::Severity::Note) out.push_back(d);
    std::stable_sort(out.begin(), out.end(), [](const compile::Diagnostic& a, const compile::Diagnostic& b) {
        if (a.severity != b.severity) return static_cast<int>(a.severity) < static_cast<int>(b.severity);
        return a.line < b.line;
    });
    return out;
}

std::string EditorModel::buildError() const {
    if (!last_ || last_->result.ok) return {};
    if (!last_->result.error.empty()) return last_->result.error;
    if (diagnostics().empty()) return "The build failed; the compiler said:\n" + last_->result.log;
    return {};
}

std::string EditorModel::lessonJson(const fs::path& ptxFile, const fs::path& sourceFile) const {
    if (!besideLesson_.empty()) {
        std::string text;
        if (!readFile(besideLesson_, text)) throw Error(Error::Kind::Input, "Cannot read '" + besideLesson_.string() + "'.");
        nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
        if (!j.is_object()) throw Error(Error::Kind::Input, besideLesson_.string() + " is not a JSON object.");
        j["ptx"] = ptxFile.string();
        if (!sourceFile.empty()) j["source"] = sourceFile.string();
        return j.dump(2);
    }
    std::string title = file_.empty() ? std::string("My kernel") : file_.stem().string();
    return launchSpecJson(launch_, title, sourceFile.empty() ? std::string() : sourceFile.string(), ptxFile.string());
}

runtime::Lesson EditorModel::runnableLesson() const {
    if (!good_) throw Error(Error::Kind::Input, "Build the kernel first (Ctrl+B).");
    // The build runs from a private folder: the PTX, the text that was built (the Source panel
    // shows that text, saved or not), lesson.json and a short steps.md.
    fs::path run = fs::temp_directory_path() / ("warpscope-editor-" + std::to_string(::getpid()));
    std::string err;
    fs::path ptx = run / "kernel.ptx";
    fs::path src = good_->isPtx ? fs::path() : run / displayName();
    if (!writeFileAtomic(ptx, good_->result.ptx, &err) || (!src.empty() && !writeFileAtomic(src, good_->source, &err)))
        throw Error(Error::Kind::Input, err);
    if (!besideLesson_.empty())   // its folder: buffer files, steps.md and "variables" are the lesson's
        return runtime::loadLessonText(lessonJson(ptx, src), besideLesson_.parent_path(), besideLesson_.string());
    // A buffer's "file" is relative to the kernel's own folder.
    std::string json = lessonJson(ptx, src);
    nlohmann::json j = nlohmann::json::parse(json);
    fs::path base = file_.empty() ? fs::current_path() : file_.parent_path();
    if (j.contains("buffers"))
        for (auto& [name, b] : j["buffers"].items())
            if (b.contains("init") && b["init"].is_object() && b["init"].contains("file")) {
                fs::path f = b["init"]["file"].get<std::string>();
                if (f.is_relative()) b["init"]["file"] = (base / f).string();
            }
    json = j.dump(2) + "\n";
    if (!writeFileAtomic(run / "lesson.json", json, &err)) throw Error(Error::Kind::Input, err);
    std::string steps = "# " + displayName() + "\n\nYour kernel, built in the editor and launched with the Launch panel's settings. "
                        "Step it (F10), run it (F5), watch its memory accesses; after a change, Ctrl+R builds and runs it again.\n";
    writeFileAtomic(run / "steps.md", steps, &err);
    return runtime::loadLessonText(json, run, "the Launch panel's spec");
}

bool EditorModel::saveAsLesson(const fs::path& folder, std::string* error) const {
    if (!good_) {
        if (error) *error = "Build the kernel first (Ctrl+B): a lesson needs its PTX.";
        return false;
    }
    try {
        std::error_code ec;
        fs::create_directories(folder, ec);
        bool ptxOnly = good_->isPtx;
        if (!ptxOnly && !writeFileAtomic(folder / "kernel.cu", good_->source, error)) return false;
        if (!writeFileAtomic(folder / "kernel.ptx", good_->result.ptx, error)) return false;
        // Paths in the saved lesson are relative, so the folder can move.
        std::string json = lessonJson("kernel.ptx", ptxOnly ? fs::path() : fs::path("kernel.cu"));
        nlohmann::json j = nlohmann::json::parse(json);
        j["id"] = folder.filename().string();
        if (!writeFileAtomic(folder / "lesson.json", j.dump(2) + "\n", error)) return false;
        if (!fs::exists(folder / "steps.md", ec)) {
            std::string steps = "# " + j.value("title", std::string("My kernel")) +
                                "\n\nWritten in the warpscope editor. Step it warp by warp and watch its memory accesses.\n";
            if (!writeFileAtomic(folder / "steps.md", steps, error)) return false;
        }
        return true;
    } catch (const std::exception& e) {
        if (error) *error = e.what();
        return false;
    }
}

} // namespace warpscope::gui
