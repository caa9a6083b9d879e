// Open and Save through the browser's own dialogs (the web build implements them in
// app/gui/web/browser_files.cpp; the interface is window-free, so panels may use it).
// On the desktop these do nothing and browserFilesAvailable() is false: the app's own file browser
// (model/file_browser.hpp) is the whole dialog there.
#pragma once
#include <filesystem>
#include <string>

namespace warpscope::gui {

#ifdef __EMSCRIPTEN__
constexpr bool browserFilesAvailable() { return true; }
// Shows the browser's file chooser (<input type=file>, `accept` like ".cu,.ptx"); the chosen file
// is copied into the page's file system (~/Uploads, kept in the browser's storage) and
// takeBrowserUpload() returns its path once, "" before that.
void requestBrowserUpload(const char* accept);
std::string takeBrowserUpload();
// Offers a file of the page's file system (one just saved) as a download.
void offerBrowserDownload(const std::filesystem::path& path);
#else
constexpr bool browserFilesAvailable() { return false; }
inline void requestBrowserUpload(const char*) {}
inline std::string takeBrowserUpload() { return {}; }
inline void offerBrowserDownload(const std::filesystem::path&) {}
#endif

} // namespace warpscope::gui
