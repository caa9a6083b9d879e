// The kernel editor (Editor panel), the Launch panel, the File menu's kernel items, the editor's
// keys and dialogs, and running a build in the Session. The text, undo, autosave and builds are
// the window-free EditorModel (model/editor.hpp).
//
// The text widget is ImGui's InputTextMultiline, sized to hold every line so the panel's own
// child window scrolls it; that keeps the line-number gutter, the error marks and the syntax
// colouring (drawn over the widget with its own text made transparent) on the same rows.
//
// Sections: 1. running and opening  2. keys, menu and dialogs  3. the Editor panel  4. the Launch panel
#include "gui/panels/panels.hpp"
#include "gui/model/browser_files.hpp"
#include "gui/style/syntax.hpp"

#include "base/error.hpp"
#include "gui/model/open_path.hpp"
#include "gui/model/file_browser.hpp"

#include "gui/panels/keys.hpp"

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstring>

namespace warpscope::gui {

namespace fs = std::filesystem;

namespace {
double nowSeconds() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
Rgb warningColor() { return Rgb{225, 170, 40}; }
Rgb severityColor(compile::Diagnostic::Severity s) {
    return s == compile::Diagnostic::Severity::Error ? faultColor() : s == compile::Diagnostic::Severity::Warning ? warningColor() : Rgb{140, 150, 170};
}
const char* severityName(compile::Diagnostic::Severity s) {
    return s == compile::Diagnostic::Severity::Error ? "error" : s == compile::Diagnostic::Severity::Warning ? "warning" : "note";
}
} // namespace

// ---------------------------------------------------------------- 1. running and opening
bool AppContext::runEditorKernel() {
    EditorModel& ed = *editor;
    try {
        runtime::Lesson L = ed.runnableLesson();
        L.id = "editor";
        L.title = "Editor: " + ed.displayName();
        L.order = 1000000;
        int index = -1;
        for (size_t i = 0; i < ui.lessons.size(); ++i)
            if (ui.lessons[i].id == "editor") index = static_cast<int>(i);
        if (index < 0) {
            ui.lessons.push_back(std::move(L));
            index = static_cast<int>(ui.lessons.size()) - 1;
        } else {
            ui.lessons[static_cast<size_t>(index)] = std::move(L);
        }
        std::string keep = settings.lastLesson;
        ui.current = -1;   // a rebuilt kernel starts afresh even when it was the current lesson
        loadLesson(index);
        settings.lastLesson = keep;   // the editor's lesson is not one to reopen at the next start
        editorUi.message.clear();
        return true;
    } catch (const std::exception& e) {
        editorUi.message = e.what();
        return false;
    }
}

bool AppContext::openPath(const std::string& path) {
    try {
        OpenTarget t = openTargetFor(path);
        if (t.kind == OpenTarget::Kind::Kernel) {
            std::string err;
            if (!editor->open(t.path, &err)) {
                editorUi.message = err;
                return false;
            }
            editorUi.message.clear();
            // A whole program (host code with a main): built and run by the Console (panel_console.cpp).
            if (!editor->isPtx() && ProgramModel::isWholeProgram(editor->text())) {
                program->open(t.path);
                programBuild(*this);
                if (ui.layout != "program" && !ui.headless) ui.pendingLayout = "program";
                settings.panelsOpen["editor"] = true;
                settings.panelsOpen["console"] = true;
                return true;
            }
            program->close();
            editor->build();
            if (ui.layout != "editor" && !ui.headless) ui.pendingLayout = "editor";
            settings.panelsOpen["editor"] = true;
            return true;
        }
        runtime::Lesson L = openLesson(t);
        int index = -1;
        for (size_t i = 0; i < ui.lessons.size(); ++i)
            if (ui.lessons[i].id == L.id && ui.lessons[i].dir == L.dir) index = static_cast<int>(i);
        if (index < 0) {
            ui.lessons.push_back(std::move(L));
            index = static_cast<int>(ui.lessons.size()) - 1;
        }
        loadLesson(index);
        editorUi.message.clear();
        return true;
    } catch (const std::exception& e) {
        editorUi.message = e.what();
        return false;
    }
}

void AppContext::askBeforeLeaving(std::string what, std::function<void()> then) {
    if (!editorUi.leave.ask(*editor, std::move(what), std::move(then))) editorUi.askLeave = true;
}

void AppContext::switchLesson(int index) {
    std::string title = index >= 0 && static_cast<size_t>(index) < ui.lessons.size() ? ui.lessons[static_cast<size_t>(index)].title : std::string("another lesson");
    askBeforeLeaving("open the lesson \"" + title + "\"", [this, index] {
        if (editor->active()) editor->close();
        // The Editor layout's panels are for a kernel of one's own: a lesson is stepped in Stepping.
        if (ui.layout == "editor") ui.pendingLayout = "stepping";
        loadLesson(index);
    });
}

// Every frame: take a finished build (a good one runs at once), autosave when due.
void editorFrame(AppContext& app) {
    programFrame(app);
    EditorModel& ed = *app.editor;
    if (ed.poll()) {
        bool good = !ed.lastBuildFailed();
        if (good && (app.editorUi.autoRun || app.editorUi.runWhenBuilt)) app.runEditorKernel();
        app.editorUi.runWhenBuilt = false;
    }
    ed.tick(nowSeconds());
}

// ---------------------------------------------------------------- 2. keys, menu and dialogs
namespace {
void startDialog(AppContext& app, EditorUi::Dialog d) {
    EditorUi& u = app.editorUi;
    u.dialog = d;
    u.openDialog = true;
    std::string initial;
    const EditorModel& ed = *app.editor;
    if (d == EditorUi::Dialog::SaveAs) initial = ed.file().empty() ? (fs::current_path() / "kernel.cu").string() : ed.file().string();
    if (d == EditorUi::Dialog::SaveLesson) initial = (fs::current_path() / (ed.file().empty() ? std::string("my-kernel") : ed.file().stem().string() + "-lesson")).string();
    if (d == EditorUi::Dialog::Open) initial = ed.file().empty() ? fs::current_path().string() + "/" : ed.file().parent_path().string() + "/";
    std::snprintf(u.path, sizeof u.path, "%s", initial.c_str());
}

void startNewKernel(AppContext& app, std::string templateId) {
    app.askBeforeLeaving("start a new kernel", [&app, templateId] {
        app.program->close();   // a new kernel is not a whole program
        app.editor->newFromTemplate(templateId);
        app.editor->build();
        app.editorUi.message.clear();
        if (app.ui.layout != "editor") app.ui.pendingLayout = "editor";
        app.settings.panelsOpen["editor"] = true;
    });
}

void saveOrAsk(AppContext& app) {
    if (app.editor->file().empty()) {
        startDialog(app, EditorUi::Dialog::SaveAs);
        return;
    }
    std::string err;
    app.editorUi.message = app.editor->save(&err) ? std::string() : err;
}

void buildAndRun(AppContext& app) {
    EditorModel& ed = *app.editor;
    // Unchanged since the last good build: run it again; otherwise build, then run.
    if (ed.lastGood() && ed.lastGood()->source == ed.text() && !ed.building()) {
        // No compile: the good build becomes the last one (a failed build's marks go) and the
        // next frame's poll runs it.
        app.editorUi.runWhenBuilt = true;
        ed.build();
        return;
    }
    app.editorUi.runWhenBuilt = true;
    ed.build();
}
} // namespace

void handleEditorShortcuts(AppContext& app) {
    if (!app.editor->active()) return;
    ImGuiIO& io = ImGui::GetIO();
    if (!io.KeyCtrl) return;
    if (ImGui::IsKeyPressed(key::S, false)) saveOrAsk(app);
    if (programActive(app)) {   // a whole program: the Console builds and runs it
        if (ImGui::IsKeyPressed(key::B, false)) programBuild(app);
        if (ImGui::IsKeyPressed(key::R, false)) programRun(app);
        return;
    }
    if (ImGui::IsKeyPressed(key::B, false)) app.editor->build();
    if (ImGui::IsKeyPressed(key::R, false)) buildAndRun(app);
}

void drawEditorFileMenu(AppContext& app) {
    EditorModel& ed = *app.editor;
    if (ImGui::BeginMenu("New kernel")) {
        for (auto& t : kernelTemplates())
            if (ImGui::MenuItem(t.title)) startNewKernel(app, t.id);
        ImGui::EndMenu();
    }
    if (ImGui::MenuItem("Open...")) startDialog(app, EditorUi::Dialog::Open);
    if (ImGui::MenuItem("Save", "Ctrl+S", false, ed.active())) saveOrAsk(app);
    if (ImGui::MenuItem("Save as...", nullptr, false, ed.active())) startDialog(app, EditorUi::Dialog::SaveAs);
    if (ImGui::MenuItem("Save as lesson...", nullptr, false, ed.lastGood() != nullptr)) startDialog(app, EditorUi::Dialog::SaveLesson);
    ImGui::Separator();
}

namespace {
// The dialog's file browser: recent files, then the folder of the typed path (folders to step
// into, the files the dialog takes). A click puts the path in the field; returns true for a
// double-clicked file.
bool drawFileBrowser(AppContext& app) {
    EditorUi& u = app.editorUi;
    bool chosen = false;
    auto setPath = [&](const fs::path& p, bool folder) { std::snprintf(u.path, sizeof u.path, "%s%s", p.string().c_str(), folder ? "/" : ""); };
    const std::vector<std::string>& recent = app.settings.recentFiles;
    if (!recent.empty() && u.dialog != EditorUi::Dialog::SaveLesson) {
        ImGui::SetNextItemWidth(-1);
        if (ImGui::BeginCombo("##recent", "Recent files")) {
            for (auto& r : recent)
                if (ImGui::Selectable(r.c_str())) setPath(r, false);
            ImGui::EndCombo();
        }
    }
    fs::path dir = browseFolderOf(u.path);
    std::error_code ec;
    dir = fs::absolute(dir, ec).lexically_normal();
    ImGui::TextDisabled("%s", dir.string().c_str());
    std::vector<std::string> exts;
    if (u.dialog == EditorUi::Dialog::Open) exts = {".cu", ".cuh", ".ptx", ".json"};
    else if (u.dialog == EditorUi::Dialog::SaveAs) exts = {".cu", ".cuh", ".ptx"};
    else exts = {".none"};   // Save as lesson: folders only
    std::string err;
    std::vector<BrowserEntry> entries = listFolder(dir, exts, &err);
    ImGui::BeginChild("files", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 10), true);
    if (!err.empty()) ImGui::TextColored(colv(faultColor()), "%s", err.c_str());
    for (auto& e : entries) {
        std::string label = (e.folder ? "[folder] " : "") + e.name;
        fs::path full = e.name == ".." ? dir.parent_path() : dir / e.name;
        if (ImGui::Selectable(label.c_str(), false, ImGuiSelectableFlags_AllowDoubleClick)) {
            if (e.folder) setPath(full, true);
            else {
                setPath(full, false);
                chosen = ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left);
            }
        }
    }
    ImGui::EndChild();
    return chosen;
}
} // namespace

void drawEditorDialogs(AppContext& app) {
    EditorUi& u = app.editorUi;
    const char* title = u.dialog == EditorUi::Dialog::Open ? "Open" : u.dialog == EditorUi::Dialog::SaveAs ? "Save kernel as" : "Save as lesson";
    if (u.openDialog) {
        ImGui::OpenPopup(title);
        u.openDialog = false;
    }
    if (u.dialog == EditorUi::Dialog::None) return;
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 40, 0), ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal(title, nullptr)) return;
    const char* help = u.dialog == EditorUi::Dialog::Open
                           ? "A kernel (.cu or .ptx) opens in the editor; a lesson folder or a launch spec .json opens as a lesson."
                       : u.dialog == EditorUi::Dialog::SaveAs
                           ? "The file to write the kernel to (.cu, or .ptx for PTX)."
                           : "A folder for kernel.cu, kernel.ptx, lesson.json (the Launch panel's settings) and steps.md; "
                             "it opens with File > Open or `warpscope run FOLDER`.";
    ImGui::TextWrapped("%s", help);
    bool enter = drawFileBrowser(app) && u.dialog == EditorUi::Dialog::Open;   // a double-clicked file opens
    ImGui::SetNextItemWidth(-1);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    enter = ImGui::InputText("##path", u.path, sizeof u.path, ImGuiInputTextFlags_EnterReturnsTrue) || enter;
    if (browserFilesAvailable() && u.dialog == EditorUi::Dialog::Open) {
        // In a web page the learner's files are on their computer: the browser's chooser copies
        // one into the page's file system, and it opens as a typed path would.
        if (ImGui::Button("From this computer...")) requestBrowserUpload(".cu,.ptx,.json");
        if (std::string up = takeBrowserUpload(); !up.empty()) {
            std::snprintf(u.path, sizeof u.path, "%s", up.c_str());
            enter = true;
        }
    }
    if (!u.message.empty()) ImGui::TextColored(colv(faultColor()), "%s", u.message.c_str());
    if (ImGui::Button(u.dialog == EditorUi::Dialog::Open ? "Open" : "Save") || enter) {
        std::string err;
        bool ok = false;
        if (u.dialog == EditorUi::Dialog::Open) {
            std::string path = u.path;
            app.askBeforeLeaving("open " + fs::path(path).filename().string(), [&app, path] { app.openPath(path); });
            // Opened at once: a bad path keeps the dialog with its message. Asked first: the
            // question comes next, and an error shows in the Editor panel.
            ok = u.leave.pending() || u.message.empty();
        } else if (u.dialog == EditorUi::Dialog::SaveAs) {
            ok = app.editor->saveAs(u.path, &err);
            // Saved under a name because "Save" was the answer to a question: now do what waited.
            if (ok && u.leave.pending()) u.leave.answer(*app.editor, LeaveAnswer::Save, &err);
        }
        else ok = app.editor->saveAsLesson(u.path, &err);
        if (!err.empty()) u.message = err;
        if (ok && u.dialog != EditorUi::Dialog::SaveLesson) addRecent(app.settings.recentFiles, u.path);
        if (ok && u.dialog == EditorUi::Dialog::SaveAs && browserFilesAvailable()) offerBrowserDownload(u.path);   // and a copy to the computer
        if (ok) {
            u.message.clear();
            u.dialog = EditorUi::Dialog::None;
            ImGui::CloseCurrentPopup();
        }
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) {
        u.dialog = EditorUi::Dialog::None;
        if (u.leave.pending()) u.leave.answer(*app.editor, LeaveAnswer::Cancel);   // no name given: nothing happens
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

// "Unsaved changes": Save / Discard / Cancel before New, Open, quitting or another lesson.
void drawLeaveQuestion(AppContext& app) {
    EditorUi& u = app.editorUi;
    const char* title = "Unsaved changes";
    if (u.askLeave) {
        ImGui::OpenPopup(title);
        u.askLeave = false;
    }
    if (!u.leave.pending()) return;
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 30, 0), ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    ImGui::TextWrapped("%s has changes that are not saved. Save them before you %s?", app.editor->displayName().c_str(), u.leave.what().c_str());
    if (!u.leaveError.empty()) ImGui::TextColored(colv(faultColor()), "%s", u.leaveError.c_str());
    std::string err;
    bool done = false;
    if (ImGui::Button("Save")) {
        done = u.leave.answer(*app.editor, LeaveAnswer::Save, &err);
        if (!done && u.leave.needsName()) {
            err.clear();
            done = true;   // this question closes; the Save as dialog asks for the name, then the action runs
            startDialog(app, EditorUi::Dialog::SaveAs);
        }
    }
    ImGui::SameLine();
    if (ImGui::Button("Discard")) done = u.leave.answer(*app.editor, LeaveAnswer::Discard);
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(key::Escape, false)) done = u.leave.answer(*app.editor, LeaveAnswer::Cancel);
    if (!err.empty() || done) u.leaveError = err;
    if (done) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

// ---------------------------------------------------------------- 3. the Editor panel
namespace {
struct TextWidgetState {
    std::string buf;
    std::string replaceWith;      // undo/redo while the widget is active: the text to put in it
    bool replace = false;
    int cursorOffset = -1;        // a jump: the byte offset to put the cursor at
    int cursor = 0;               // where the cursor is (for drawing it)
    bool active = false;
    bool indentPending = false;   // Enter was typed: the new line gets the indentation (autoIndent)
    int resetScrollX = 0;         // frames to keep the gutter in view (focusing the wide widget scrolls it aside)
};
TextWidgetState g_text;

int textCallback(ImGuiInputTextCallbackData* data) {
    auto* st = static_cast<TextWidgetState*>(data->UserData);
    if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
        st->buf.resize(static_cast<size_t>(data->BufTextLen));
        data->Buf = st->buf.data();
        return 0;
    }
    if (data->EventFlag == ImGuiInputTextFlags_CallbackCharFilter) {
        if (data->EventChar == '\n') st->indentPending = true;   // Enter: indent the new line once it is in
        return 0;
    }
    if (data->EventFlag == ImGuiInputTextFlags_CallbackAlways) {
        if (st->indentPending) {
            st->indentPending = false;
            std::string text(data->Buf, static_cast<size_t>(data->BufTextLen));
            size_t cursor = static_cast<size_t>(data->CursorPos);
            if (cursor > 0 && cursor <= text.size() && text[cursor - 1] == '\n') {
                std::string indent = autoIndent(text, cursor);
                if (!indent.empty()) data->InsertChars(data->CursorPos, indent.c_str(), indent.c_str() + indent.size());
            }
        }
        if (st->replace) {
            int keep = data->CursorPos;   // undo keeps the cursor where it was (within the new text)
            data->DeleteChars(0, data->BufTextLen);
            data->InsertChars(0, st->replaceWith.c_str(), st->replaceWith.c_str() + st->replaceWith.size());
            data->CursorPos = data->SelectionStart = data->SelectionEnd = std::min(keep, data->BufTextLen);
            st->replace = false;
        }
        if (st->cursorOffset >= 0) {
            data->CursorPos = data->SelectionStart = data->SelectionEnd = std::min(st->cursorOffset, data->BufTextLen);
            st->cursorOffset = -1;
        }
        st->cursor = data->CursorPos;
    }
    return 0;
}

size_t lineOffset(const std::string& s, uint32_t line) {
    size_t at = 0;
    for (uint32_t l = 1; l < line && at < s.size(); ++l) {
        size_t nl = s.find('\n', at);
        if (nl == std::string::npos) return s.size();
        at = nl + 1;
    }
    return at;
}

void drawBuildStatus(AppContext& app) {
    EditorModel& ed = *app.editor;
    if (ed.building()) {
        ImGui::TextDisabled("building...");
        return;
    }
    auto last = ed.lastBuild();
    if (!last) {
        ImGui::TextDisabled("not built yet (Ctrl+B)");
        return;
    }
    int errors = 0, warnings = 0;
    for (auto& d : ed.diagnostics()) {
        errors += d.severity == compile::Diagnostic::Severity::Error;
        warnings += d.severity == compile::Diagnostic::Severity::Warning;
    }
    if (last->result.ok) {
        const char* with = last->isPtx ? "PTX, no compile" : compile::compilerName(last->result.used);
        ImGui::TextColored(colv(Rgb{90, 190, 110}), "built (%s)%s", with, warnings ? "," : "");
        if (warnings) {
            ImGui::SameLine(0, 4);
            ImGui::TextColored(colv(warningColor()), "%d warning%s", warnings, warnings == 1 ? "" : "s");
        }
    } else {
        if (errors) ImGui::TextColored(colv(faultColor()), "%d error%s", errors, errors == 1 ? "" : "s");
        else ImGui::TextColored(colv(faultColor()), "build failed");
        if (ed.lastGood()) {
            ImGui::SameLine();
            ImGui::TextDisabled("(the last good build keeps running)");
        }
    }
}

void drawRecoveryOffer(AppContext& app) {
    EditorUi& u = app.editorUi;
    if (!u.recovery) return;
    ImGui::PushStyleColor(ImGuiCol_ChildBg, colv(warningColor(), 0.18f));
    ImGui::BeginChild("recovery", ImVec2(0, ImGui::GetFrameHeightWithSpacing() * 2 + ImGui::GetStyle().WindowPadding.y), true);
    std::string what = u.recovery->file.empty() ? std::string("a new kernel") : u.recovery->file.filename().string();
    ImGui::Text("Unsaved text of %s (%s) was kept", what.c_str(), u.recovery->savedAt.c_str());
    if (ImGui::IsItemHovered())
        tooltip("warpscope stopped (quit, crash or kill) while this text was not saved: %s", u.recovery->file.empty() ? "a new kernel" : u.recovery->file.string().c_str());
    if (ImGui::Button("Restore it")) {
        app.editor->recover(*u.recovery);
        app.editor->build();
        u.recovery.reset();
    }
    ImGui::SameLine();
    if (ImGui::Button("Discard")) {
        std::error_code ec;
        fs::remove(app.editor->autosaveFile(), ec);
        u.recovery.reset();
    }
    ImGui::EndChild();
    ImGui::PopStyleColor();
}
} // namespace

void drawEditorPanel(AppContext& app) {
    EditorModel& ed = *app.editor;
    EditorUi& u = app.editorUi;
    drawRecoveryOffer(app);
    if (!ed.active()) {
        ImGui::TextWrapped("Write your own kernel: File > New kernel starts one from a template, File > Open opens a .cu or .ptx "
                           "(also: warpscope-gui path/to/kernel.cu). Ctrl+B builds it (no CUDA toolkit needed), Ctrl+R runs it.");
        if (ImGui::Button("New 1D kernel")) {
            startNewKernel(app, "1d");
        }
        ImGui::SameLine();
        if (ImGui::Button("Open...")) startDialog(app, EditorUi::Dialog::Open);
        return;
    }
    // Toolbar row
    ImGui::TextUnformatted((ed.displayName() + (ed.dirty() ? " *" : "")).c_str());
    if (ImGui::IsItemHovered()) tooltip("%s", ed.file().empty() ? "not saved yet" : ed.file().string().c_str());
    ImGui::SameLine();
    const bool program = programActive(app);
    if (ImGui::SmallButton("Build")) program ? programBuild(app) : ed.build();
    if (ImGui::IsItemHovered()) tooltip(program ? "Compile host and device code (Ctrl+B)" : "Compile it (Ctrl+B); a good build runs at once");
    ImGui::SameLine();
    if (ImGui::SmallButton("Run")) program ? programRun(app) : buildAndRun(app);
    if (ImGui::IsItemHovered()) tooltip("Run the kernel again from the start with the Launch panel's settings (Ctrl+R); builds first if the text changed");
    ImGui::SameLine();
    ImGui::BeginDisabled(!ed.canUndo());
    if (ImGui::SmallButton("Undo")) ed.undo();
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!ed.canRedo());
    if (ImGui::SmallButton("Redo")) ed.redo();
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::SmallButton("Save")) saveOrAsk(app);
    ImGui::SameLine();
    if (program) ImGui::TextDisabled("whole program: %s", programStateName(app.program->state()));
    else drawBuildStatus(app);
    if (!u.message.empty() && u.dialog == EditorUi::Dialog::None) ImGui::TextColored(colv(faultColor()), "%s", u.message.c_str());
    std::string buildError = program ? app.program->buildError() : ed.buildError();
    if (!buildError.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(colv(faultColor()), "%s", buildError.c_str());
        ImGui::PopTextWrapPos();
    }

    std::vector<compile::Diagnostic> diags = program ? app.program->diagnostics() : ed.diagnostics();
    float lineH = 0;
    ImGui::PushFont(app.fonts.mono);
    lineH = ImGui::GetTextLineHeight();
    ImGui::PopFont();
    float listH = diags.empty() ? 0 : (std::min<float>(static_cast<float>(diags.size()), 5) + 0.6f) * ImGui::GetTextLineHeightWithSpacing();

    // Keep the widget's text in step with the model (a new file, undo, redo, recovery).
    bool external = ed.revision() != u.shownRevision;
    if (external) {
        g_text.buf = ed.text();
        if (g_text.active) {
            g_text.replace = true;
            g_text.replaceWith = ed.text();
        }
        u.shownRevision = ed.revision();
    }

    ImGui::BeginChild("code", ImVec2(0, -listH), true, ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::PushFont(app.fonts.mono);
    const std::string& text = g_text.buf;
    // Lines and their diagnostics
    std::vector<std::pair<size_t, size_t>> lines;   // [begin, end) of each line
    for (size_t at = 0;;) {
        size_t nl = text.find('\n', at);
        lines.push_back({at, nl == std::string::npos ? text.size() : nl});
        if (nl == std::string::npos) break;
        at = nl + 1;
    }
    float charW = ImGui::GetFont()->GetCharAdvance('0');
    float numW = charW * 4.5f, markW = charW * 1.5f;
    ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGuiStyle& style = ImGui::GetStyle();
    float longest = 0;
    for (auto& [b, e] : lines)
        longest = std::max(longest, ImGui::GetFont()->CalcTextSizeA(ImGui::GetFontSize(), FLT_MAX, 0, text.c_str() + b, text.c_str() + e).x);
    ImVec2 size(std::max(ImGui::GetContentRegionAvail().x - numW - markW, longest + charW * 8),
                (static_cast<float>(lines.size()) + 2) * lineH + style.FramePadding.y * 2);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    float textX = origin.x + markW + numW + style.FramePadding.x, textY = origin.y + style.FramePadding.y;
    // Marked lines: a tinted row behind the text, a dot in the gutter.
    for (auto& d : diags) {
        if (d.line < 1 || static_cast<size_t>(d.line) > lines.size() || d.file == compile::kPreludeName) continue;
        float y = textY + lineH * static_cast<float>(d.line - 1);
        dl->AddRectFilled(ImVec2(origin.x + markW + numW, y), ImVec2(origin.x + markW + numW + size.x, y + lineH), col(severityColor(d.severity), 50));
        dl->AddCircleFilled(ImVec2(origin.x + markW * 0.45f, y + lineH * 0.5f), lineH * 0.3f, col(severityColor(d.severity)));
    }
    for (size_t i = 0; i < lines.size(); ++i) {
        char num[32];
        std::snprintf(num, sizeof num, "%4u", static_cast<unsigned>(i + 1));
        dl->AddText(ImVec2(origin.x + markW, textY + lineH * static_cast<float>(i)), ImGui::GetColorU32(ImGuiCol_TextDisabled), num);
    }
    // A jump to a line: scroll there and put the cursor on it.
    if (u.jumpLine) {
        float y = lineH * static_cast<float>(u.jumpLine - 1);
        ImGui::SetScrollY(std::max(0.0f, y - ImGui::GetWindowHeight() * 0.3f));
        size_t at = lineOffset(text, u.jumpLine), end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        g_text.cursorOffset = static_cast<int>(std::min(end, at + (u.jumpColumn > 0 ? static_cast<size_t>(u.jumpColumn - 1) : 0)));
        ImGui::SetCursorScreenPos(ImVec2(origin.x + markW + numW, origin.y));
        ImGui::SetKeyboardFocusHere();
        u.jumpLine = 0;
        g_text.resetScrollX = 3;
    }
    if (g_text.resetScrollX > 0) {
        --g_text.resetScrollX;
        ImGui::SetScrollX(0);
    }
    ImGui::SetCursorScreenPos(ImVec2(origin.x + markW + numW, origin.y));
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(0, 0, 0, 0));   // the coloured text is drawn below
    ImGui::PushStyleColor(ImGuiCol_FrameBg, IM_COL32(0, 0, 0, 0));
    ImGuiInputTextFlags flags = ImGuiInputTextFlags_AllowTabInput | ImGuiInputTextFlags_CallbackResize | ImGuiInputTextFlags_CallbackAlways |
                                ImGuiInputTextFlags_CallbackCharFilter |
                                ImGuiInputTextFlags_NoUndoRedo | ImGuiInputTextFlags_NoHorizontalScroll;
    bool changed = ImGui::InputTextMultiline("##code", g_text.buf.data(), g_text.buf.capacity() + 1, size, flags, textCallback, &g_text);
    ImGui::PopStyleColor(2);
    g_text.active = ImGui::IsItemActive();
    bool focused = g_text.active;
    if (changed) {
        ed.edit(g_text.buf, nowSeconds());
        u.shownRevision = ed.revision();
    }
    // Syntax colouring over the transparent text, and the cursor.
    bool inBlock = false;
    for (size_t i = 0; i < lines.size(); ++i) {
        auto [b, e] = lines[i];
        std::string_view line(text.data() + b, e - b);
        float y = textY + lineH * static_cast<float>(i);
        for (const Token& t : highlightLine(line, inBlock)) {
            float x = ImGui::GetFont()->CalcTextSizeA(ImGui::GetFontSize(), FLT_MAX, 0, line.data(), line.data() + t.begin).x;
            dl->AddText(ImVec2(textX + x, y), col(tokenColor(t.kind, app.settings.darkTheme)), line.data() + t.begin, line.data() + t.end);
        }
    }
    if (focused) {
        size_t c = std::min(static_cast<size_t>(std::max(0, g_text.cursor)), text.size());
        size_t li = 0;
        while (li + 1 < lines.size() && lines[li + 1].first <= c) ++li;
        float x = ImGui::GetFont()->CalcTextSizeA(ImGui::GetFontSize(), FLT_MAX, 0, text.c_str() + lines[li].first, text.c_str() + c).x;
        float y = textY + lineH * static_cast<float>(li);
        if (std::fmod(ImGui::GetTime(), 1.2) < 0.8) dl->AddLine(ImVec2(textX + x, y), ImVec2(textX + x, y + lineH), ImGui::GetColorU32(ImGuiCol_Text), 1.5f);
        // The panel scrolls (not the widget): keep the cursor's line in view while typing.
        if (changed) {
            float top = ImGui::GetWindowPos().y, bottom = top + ImGui::GetWindowHeight() - lineH;
            if (y < top) ImGui::SetScrollY(ImGui::GetScrollY() - (top - y));
            else if (y + lineH > bottom) ImGui::SetScrollY(ImGui::GetScrollY() + (y + lineH - bottom));
        }
    }
    // Ctrl+Z / Ctrl+Y (Ctrl+Shift+Z) are the model's undo, in the widget too.
    ImGuiIO& io = ImGui::GetIO();
    if (focused && io.KeyCtrl && ImGui::IsKeyPressed(key::Z)) {
        if (io.KeyShift) ed.redo();
        else ed.undo();
    }
    if (focused && io.KeyCtrl && ImGui::IsKeyPressed(key::Y)) ed.redo();
    // Hovering a marked line's gutter shows its messages.
    ImVec2 mouse = io.MousePos;
    if (mouse.x >= origin.x && mouse.x < origin.x + markW + numW && ImGui::IsWindowHovered()) {
        int line = static_cast<int>((mouse.y - textY) / lineH) + 1;
        std::string tip;
        for (auto& d : diags)
            if (d.line == line) tip += std::string(severityName(d.severity)) + ": " + d.message + "\n";
        if (!tip.empty()) tooltip("%s", tip.c_str());
    }
    ImGui::PopFont();
    ImGui::EndChild();

    // The diagnostics list: click one to go to its line.
    if (!diags.empty()) {
        ImGui::BeginChild("diagnostics", ImVec2(0, 0), false);
        for (size_t i = 0; i < diags.size(); ++i) {
            const compile::Diagnostic& d = diags[i];
            ImGui::PushID(static_cast<int>(i));
            ImGui::PushStyleColor(ImGuiCol_Text, colv(severityColor(d.severity)));
            std::string label = (d.file == compile::kPreludeName ? d.file + ":" : std::string()) + std::to_string(d.line) +
                                (d.column ? ":" + std::to_string(d.column) : std::string()) + "  " + severityName(d.severity) + ": " + d.message;
            if (ImGui::Selectable(label.c_str()) && d.line > 0 && d.file != compile::kPreludeName) {
                u.jumpLine = static_cast<uint32_t>(d.line);
                u.jumpColumn = d.column;
            }
            ImGui::PopStyleColor();
            ImGui::PopID();
        }
        ImGui::EndChild();
    }
}

// ---------------------------------------------------------------- 4. the Launch panel
void drawLaunchPanel(AppContext& app) {
    if (programActive(app)) {
        drawProgramLaunch(app);
        return;
    }
    EditorModel& ed = *app.editor;
    if (!ed.active()) {
        ImGui::TextDisabled("Open or write a kernel (File > New kernel); its parameters appear here.");
        return;
    }
    if (!ed.besideLesson().empty()) {
        ImGui::TextWrapped("Launched as %s says (the lesson beside the kernel).", ed.besideLesson().string().c_str());
        if (ImGui::Button("Run (Ctrl+R)")) buildAndRun(app);
        return;
    }
    if (ed.kernels().empty()) {
        ImGui::TextDisabled(ed.lastGood() ? "The build has no __global__ kernel." : "Build the kernel (Ctrl+B) to see its parameters.");
        return;
    }
    LaunchSpec& spec = ed.launch();
    if (ed.kernels().size() > 1) {
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
        if (ImGui::BeginCombo("kernel", spec.kernel.c_str())) {
            for (auto& k : ed.kernels())
                if (ImGui::Selectable(k.name.c_str(), k.name == spec.kernel)) spec = defaultLaunchSpec(k);
            ImGui::EndCombo();
        }
    } else {
        ImGui::Text("kernel %s", spec.kernel.c_str());
    }
    ImGui::SameLine();
    if (ImGui::Button("Run")) buildAndRun(app);
    if (ImGui::IsItemHovered()) tooltip("Run with these settings from the start (Ctrl+R)");
    ImGui::SameLine();
    if (ImGui::SmallButton("Defaults"))
        for (auto& k : ed.kernels())
            if (k.name == spec.kernel) spec = defaultLaunchSpec(k);
    float numW = ImGui::GetFontSize() * 12;
    ImGui::SetNextItemWidth(numW);
    ImGui::InputScalarN("grid", ImGuiDataType_U32, spec.grid, 3);
    ImGui::SetNextItemWidth(numW);
    ImGui::InputScalarN("block", ImGuiDataType_U32, spec.block, 3);
    ImGui::SetNextItemWidth(numW / 3);
    ImGui::InputScalar("dynamic shared bytes", ImGuiDataType_U32, &spec.sharedBytes);
    if (ImGui::IsItemHovered())
        tooltip("Shared memory per block for an `extern __shared__` array: the third value of <<<grid, block, bytes>>> (0: none)");
    uint64_t threads = 1;
    for (int d = 0; d < 3; ++d) threads *= uint64_t(spec.grid[d]) * spec.block[d];
    ImGui::TextDisabled("%llu threads, %u per block", static_cast<unsigned long long>(threads), spec.block[0] * spec.block[1] * spec.block[2]);

    ImGuiTableFlags tf = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
    if (ImGui::BeginTable("args", 5, tf)) {
        ImGui::TableSetupColumn("parameter");
        ImGui::TableSetupColumn("type");
        ImGui::TableSetupColumn("count / value");
        ImGui::TableSetupColumn("init");
        ImGui::TableSetupColumn("check: starts with", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableHeadersRow();
        float w = ImGui::GetFontSize() * 6;
        for (size_t i = 0; i < spec.args.size(); ++i) {
            LaunchArg& a = spec.args[i];
            ImGui::PushID(static_cast<int>(i));
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(a.name.c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%s%s", a.type.c_str(), a.pointer ? "*" : "");
            ImGui::TableNextColumn();
            ImGui::SetNextItemWidth(w);
            if (a.pointer) ImGui::InputScalar("##count", ImGuiDataType_U64, &a.count);
            else ImGui::InputDouble("##value", &a.value, 0, 0, "%.6g");
            ImGui::TableNextColumn();
            if (a.pointer) {
                ImGui::SetNextItemWidth(w);
                if (ImGui::BeginCombo("##init", bufferInitName(a.init))) {
                    for (int k = 0; k <= static_cast<int>(BufferInit::File); ++k)
                        if (ImGui::Selectable(bufferInitName(static_cast<BufferInit>(k)), static_cast<int>(a.init) == k)) a.init = static_cast<BufferInit>(k);
                    ImGui::EndCombo();
                }
                if (a.init == BufferInit::Constant) {
                    ImGui::SameLine();
                    ImGui::SetNextItemWidth(w);
                    ImGui::InputDouble("##const", &a.constant, 0, 0, "%.6g");
                } else if (a.init == BufferInit::Random) {
                    ImGui::SameLine();
                    ImGui::SetNextItemWidth(w * 0.7f);
                    ImGui::InputDouble("##min", &a.randomMin, 0, 0, "%.3g");
                    ImGui::SameLine();
                    ImGui::SetNextItemWidth(w * 0.7f);
                    ImGui::InputDouble("##max", &a.randomMax, 0, 0, "%.3g");
                } else if (a.init == BufferInit::File) {
                    ImGui::SameLine();
                    ImGui::SetNextItemWidth(w * 2);
                    char buf[512];
                    std::snprintf(buf, sizeof buf, "%s", a.file.c_str());
                    if (ImGui::InputTextWithHint("##file", "raw bytes file", buf, sizeof buf)) a.file = buf;
                }
                ImGui::TableNextColumn();
                char buf[256];
                std::snprintf(buf, sizeof buf, "%s", a.expect.c_str());
                ImGui::SetNextItemWidth(-1);
                if (ImGui::InputTextWithHint("##expect", "e.g. 0, 3, 6", buf, sizeof buf)) a.expect = buf;
            } else {
                ImGui::TableNextColumn();
            }
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    if (ImGui::CollapsingHeader("As lesson.json")) {
        try {
            std::string json = launchSpecJson(spec, ed.displayName(), ed.isPtx() ? "" : "kernel.cu", "kernel.ptx");
            ImGui::PushFont(app.fonts.mono);
            ImGui::TextUnformatted(json.c_str());
            ImGui::PopFont();
        } catch (const std::exception& e) {
            ImGui::TextColored(colv(faultColor()), "%s", e.what());
        }
    }
}

} // namespace warpscope::gui
